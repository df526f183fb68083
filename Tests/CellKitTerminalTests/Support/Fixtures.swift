import CellKit
import CellKitTerminal

/// A note with a title and a body; its cell renders one line, or two with a body.
struct Note: Identifiable, Equatable, Sendable {
    let id: Int
    var title: String
    var body: String = ""
}

/// A multi-line cell for tests: a title line and `body` wrapped.
final class NoteCell: ListCell, TerminalRenderable {
    var note: Note?
    var badge: String?
    init() {}
    func terminalLines(width: Int) -> [StyledLine] {
        guard let note else { return [] }
        var first = StyledLine(" " + note.title, style: .bold)
        if let badge { first.append(" [" + badge + "]", style: .dim) }
        return [first] + (note.body.isEmpty ? [] : StyledLine.wrap(note.body, width: width - 3).map { StyledLine("   ").appendingLine($0) })
    }
}

extension StyledLine {
    func appendingLine(_ other: StyledLine) -> StyledLine {
        var copy = self
        copy.append(other)
        return copy
    }
}

/// A list view, a controller and notes in sections, wired together.
@MainActor
final class NotesFixture {
    let list: TerminalListView
    let controller = ListController(diagnostics: .ignore)

    init(columns: Int = 40, rows: Int = 10, noteHeight: Double? = nil) {
        list = TerminalListView(columns: columns, rows: rows)
        controller.register(NoteCell.self, for: Note.self) { cell, note in
            cell.note = note
            cell.badge = nil
        }
        if let noteHeight { controller.height(for: Note.self) { _ in noteHeight } }
        controller.attach(to: list)
    }

    /// `sections` sections of `rows` notes each, headed "Section N".
    static func model(sections: Int, rows: Int, body: (Int) -> String = { _ in "" }) -> TableModel {
        var model = TableModel()
        var id = 0
        for s in 0..<sections {
            model.appendSection(id: SectionID(s), header: "Section \(s)")
            model.append((0..<rows).map { _ in
                defer { id += 1 }
                return Note(id: id, title: "Note \(id)", body: body(id))
            })
        }
        return model
    }

    /// The frame as plain text lines, trailing spaces kept (each exactly `columns` wide).
    func frame() -> [String] { list.renderFrame().map(\.plainText) }

    /// The frame with a marker column: ">" on the lines of the selected row.
    func markedFrame() -> [String] { list.renderFrame().map(\.markedText) }
}

/// A hand-written data source over arrays of titles, for driving batch updates directly.
@MainActor
final class TitlesDataSource: ListViewDataSource, ListViewDelegate {
    var sections: [[String]]
    var headers: [String?]

    init(sections: [[String]], headers: [String?]? = nil) {
        self.sections = sections
        self.headers = headers ?? sections.map { _ in nil }
    }

    func numberOfSections(in listView: any ListView) -> Int { sections.count }
    func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int { sections[section].count }
    func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject {
        let cell = listView.dequeueReusableCell(.type(TextCell.self), for: path) as! TextCell
        cell.text = sections[path.section][path.item]
        return cell
    }
    func listView(_ listView: any ListView, titleForHeaderInSection section: Int) -> String? { headers[section] }
}

extension StyledLine {
    /// The plain text after ">" for a highlighted (inverse) line, or " ".
    var markedText: String {
        (spans.contains { $0.style.isInverse } ? ">" : " ") + plainText
    }
}

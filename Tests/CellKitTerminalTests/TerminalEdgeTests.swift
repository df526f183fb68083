import CellKit
@testable import CellKitTerminal
import Synchronization
import Testing

private struct Song: Identifiable, Equatable, Sendable { let id: Int; var title: String }
private struct Offline: Error {}

/// Collects diagnostics for a test.
private final class Collected: Sendable {
    private let store = Mutex<[Diagnostic]>([])
    var all: [Diagnostic] { store.withLock { $0 } }
    var handler: DiagnosticHandler { DiagnosticHandler { d in self.store.withLock { $0.append(d) } } }
}

@MainActor
private func songs(_ n: Int, height: RowHeight<Song>? = nil, columns: Int = 20, rows: Int = 5,
                   diagnostics: DiagnosticHandler = .ignore) -> (ListController, TerminalListView) {
    let controller = ListController(diagnostics: diagnostics)
    controller.register(TextCell.self, for: Song.self) { cell, song in cell.text = song.title }
    if let height { controller.rowHeights.set(Song.self, height) }
    controller.apply(TableModel((0..<n).map { Song(id: $0, title: "s\($0)") }))
    let list = TerminalListView(columns: columns, rows: rows)
    controller.attach(to: list)
    return (controller, list)
}

/// An outside user's report (outside2, items 4–6 and the terminal confusions).
@MainActor
@Suite("Terminal list view: extreme heights, indexes and untrusted text")
struct TerminalEdgeTests {
    // Item 4: a row's cost follows the screen, not its height; no height traps.
    @Test("a row of any height costs only its lines on screen", arguments: [1e12, RowHeights.maximumHeight, 4e18, 1e19, .infinity] as [Double])
    func tallRowsCostTheScreen(_ height: Double) {
        let (controller, list) = songs(3, height: .fixed(height))
        let first = list.renderFrame().map(\.plainText)
        #expect(first.count == 5 && first[0].hasPrefix(" s0") && first[1...].allSatisfy { $0.allSatisfy { $0 == " " } })
        list.handle(.end)
        let last = list.renderFrame()
        #expect(last.count == 5 && last[0].plainText.hasPrefix(" s2") && last.allSatisfy { $0.displayWidth == 20 })
        #expect(list.positionDescription == "3/3")
        // The blank lines of a tall row are not stored: a row keeps only its cell's lines.
        #expect(list.lineCache.values.allSatisfy { $0.lines.count == 1 && $0.height == Int(RowHeights.maximumHeight) })
        list.handle(.pageUp)
        list.handle(.up)
        #expect(list.renderFrame().count == 5)
        #expect(list.selectedPath == ItemPath(item: 0, section: 0))
        withExtendedLifetime(controller) {}
    }

    @Test("NaN, zero and negative heights give one line; a bad height is reported once, naming the type and row",
          arguments: [.nan, 0, -5, -.infinity] as [Double])
    func badHeightsAreOneLine(_ height: Double) {
        let collected = Collected()
        let (controller, list) = songs(3, height: .fixed(height), diagnostics: collected.handler)
        let frame = list.renderFrame().map(\.plainText)
        #expect(frame.prefix(3).map { String($0.prefix(3)) } == [" s0", " s1", " s2"], "\(frame)")
        let reports = collected.all.filter { $0.kind == .invalidHeight }
        if height == 0 {
            #expect(reports.isEmpty)
        } else {
            #expect(reports.count == 1, "\(collected.all)")
            #expect(reports.first.map { $0.message.contains("Song") && $0.message.contains("section 0, row 0") } == true, "\(reports)")
        }
        withExtendedLifetime(controller) {}
    }

    @Test("a measured height from untrusted text is clamped in every path that turns it into lines")
    func measuredHugeHeightsInPlainLines() {
        let (controller, list) = songs(2, height: .measured { song, _ in song.id == 0 ? 1e19 : .nan })
        #expect(list.plainLines(width: 10) == [" s0", " s1"])
        list.scrollItem(at: ItemPath(item: 1, section: 0), toViewportOffset: -.infinity)
        list.scrollItem(at: ItemPath(item: 1, section: 0), toViewportOffset: .nan)
        list.scrollItem(at: ItemPath(item: 1, section: 0), toViewportOffset: -1e300)
        #expect(list.renderFrame().count == 5)
        withExtendedLifetime(controller) {}
    }

    // Item 6 and every public Int parameter of the terminal view at its extremes.
    @Test("moving the selection by any count stops at the ends")
    func moveSelectionSaturates() {
        let (controller, list) = songs(4)
        list.handle(.home)
        list.moveSelection(by: Int.max)
        #expect(list.selectedPath == ItemPath(item: 3, section: 0))
        list.moveSelection(by: Int.min)
        #expect(list.selectedPath == ItemPath(item: 0, section: 0))
        list.moveSelection(by: -Int.max)
        #expect(list.selectedPath == ItemPath(item: 0, section: 0))
        list.moveSelection(by: 2)
        #expect(list.selectedPath == ItemPath(item: 2, section: 0))
        withExtendedLifetime(controller) {}
    }

    @Test("sizes, screen lines, widths and paths at Int.min and Int.max")
    func extremeIntegers() {
        let extremes = [Int.min, -1, 0, 1, Int.max]
        for columns in extremes {
            for rows in extremes {
                let list = TerminalListView(columns: columns, rows: rows)
                #expect(list.renderFrame().count == min(max(0, rows), StyledLine.maximumWidth))
            }
        }
        let (controller, list) = songs(3)
        list.resize(columns: Int.min, rows: Int.max)
        #expect(list.renderFrame().count == StyledLine.maximumWidth)
        list.resize(columns: Int.max, rows: Int.min)
        #expect(list.renderFrame().isEmpty)
        list.resize(columns: 20, rows: 5)
        for width in extremes { _ = list.plainLines(width: width) }
        let paths = extremes.flatMap { item in extremes.map { ItemPath(item: item, section: $0) } }
        for path in paths {
            list.select(path, notify: true)
            for line in extremes { list.select(path, atScreenLine: line) }
            _ = list.viewportOffset(ofItemAt: path)
            _ = list.cell(at: path)
            list.scrollItem(at: path, toViewportOffset: 0)
            list.reconfigureItems(at: [path])
            list.cellDidChange(at: path, reason: .reconfigured)
            #expect(list.renderFrame().count == 5)
            #expect(list.selectedPath.map { (0..<3).contains($0.item) && $0.section == 0 } ?? false)
        }
        withExtendedLifetime(controller) {}
    }

    // Terminal confusions: bidirectional controls in untrusted text.
    @Test("bidirectional embedding, override and isolate controls never reach the terminal")
    func bidiControlsAreShown() {
        let reorderers: [Unicode.Scalar] = ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
                                            "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"]
        for scalar in reorderers {
            let line = StyledLine("\(scalar)gnp.exe")
            let fitted = line.fitted(to: 9)
            #expect(fitted.plainText == "\u{FFFD}gnp.exe ", "U+\(String(scalar.value, radix: 16))")
            #expect(!line.rendered(ansi: true).unicodeScalars.contains(scalar))
            #expect(line.displayWidth == 8)
        }
        // Direction marks are invisible and zero-width: dropped.
        let marks = StyledLine("a\u{200E}b\u{200F}c\u{061C}d")
        #expect(marks.fitted(to: 4).plainText == "abcd")
        #expect(marks.rendered(ansi: false) == "abcd")
        // Through a list, as the outside user saw it.
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Song.self) { cell, song in cell.text = song.title }
        let list = TerminalListView(columns: 12, rows: 1)
        controller.attach(to: list)
        controller.apply(TableModel([Song(id: 1, title: "\u{202E}gnp.exe")]))
        let raw = list.renderFrame()[0].rendered(ansi: true)
        #expect(!raw.unicodeScalars.contains("\u{202E}"))
        #expect(list.plainLines(width: 12).allSatisfy { !$0.unicodeScalars.contains("\u{202E}") })
    }

    // Terminal confusions: placeholder rows that do nothing do not take the selection.
    @Test("arrow keys do not select the no-results, loading or non-retryable error row")
    func placeholdersDoNotTakeSelection() {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Song.self) { cell, song in cell.text = song.title }
        controller.placeholders.errorCanRetry = false
        let list = TerminalListView(columns: 20, rows: 5)
        controller.attach(to: list)
        let states: [(TableModel, ContentState)] = [(TableModel(), .loaded), (TableModel(), .loading), (TableModel(), .failed(Offline()))]
        for (model, state) in states {
            controller.apply(model, state: state)
            for key in [Key.down, .up, .home, .end, .pageDown, .pageUp, .enter] {
                list.handle(key)
                #expect(list.selectedPath == nil, "\(state) after \(key)")
            }
            list.select(ItemPath(item: 0, section: 0))
            #expect(list.selectedPath == nil)
            #expect(list.positionDescription == "0/0")
            #expect(!list.renderFrame()[0].spans.contains { $0.style.isInverse })
        }
        // Content arrives: the first row takes the selection.
        controller.apply(TableModel([Song(id: 1, title: "one"), Song(id: 2, title: "two")]))
        #expect(list.selectedPath == ItemPath(item: 0, section: 0))
        list.handle(.end)
        #expect(list.selectedPath == ItemPath(item: 1, section: 0))
    }

    @Test("an error row that retries takes the selection, and Enter retries")
    func retryableErrorTakesSelection() {
        let controller = ListController(diagnostics: .ignore)
        var retries = 0
        controller.onRetry = { retries += 1 }
        let list = TerminalListView(columns: 30, rows: 5)
        controller.attach(to: list)
        controller.apply(TableModel(), state: .failed(Offline()))
        list.handle(.home)
        #expect(list.selectedPath == ItemPath(item: 0, section: 0))
        list.handle(.enter)
        #expect(retries == 1)
    }

    // Terminal confusions: a controller nobody holds.
    @Test("once its controller is gone, the list shows nothing and says 0/0")
    func droppedControllerShowsNothing() {
        let list = TerminalListView(columns: 10, rows: 3)
        weak var gone: ListController?
        do {
            let controller = ListController(diagnostics: .ignore)
            controller.register(TextCell.self, for: Song.self) { cell, song in cell.text = song.title }
            controller.attach(to: list)
            controller.apply(TableModel([Song(id: 1, title: "a")]))
            list.handle(.home)
            #expect(list.positionDescription == "1/1")
            gone = controller
        }
        #expect(gone == nil)
        #expect(list.positionDescription == "0/0")
        #expect(list.renderFrame().map(\.plainText) == Array(repeating: String(repeating: " ", count: 10), count: 3))
        #expect(list.selectedPath == nil && list.visibleItemPaths.isEmpty)
        for key in [Key.down, .up, .home, .end, .pageDown, .pageUp, .enter] { list.handle(key) }
        #expect(list.renderFrame().count == 3)
    }
}

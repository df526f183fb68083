import CellKit
import CellKitTesting
import Synchronization
import Testing

private struct Unmapped: Identifiable, Equatable, Sendable, CustomStringConvertible {
    let id: Int
    var description: String { "Unmapped #\(id)" }
}

private final class FirstCell: TextCell {}
private final class SecondCell: TextCell {}
private struct Song: Identifiable, Equatable, Sendable { let id: Int; var title: String }

/// Collects diagnostics from any thread.
final class DiagnosticLog: Sendable {
    private let storage = Mutex<[Diagnostic]>([])
    var all: [Diagnostic] { storage.withLock { $0 } }
    var handler: DiagnosticHandler { DiagnosticHandler { d in self.storage.withLock { $0.append(d) } } }
}

@MainActor
@Suite("Registry: defaults, diagnostics, replacement")
struct RegistryTests {
    @Test func anUnregisteredModelGetsTheDefaultCellAndOneDiagnostic() {
        let log = DiagnosticLog()
        let controller = ListController(diagnostics: log.handler)
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel((0..<5).map { Unmapped(id: $0) }))
        #expect(listView.visibleCells.allSatisfy { type(of: $0) == TextCell.self })
        #expect(listView.visibleTexts == (0..<5).map { "Unmapped #\($0)" })  // never blank
        let misses = log.all.filter { $0.kind == .missingRegistration }
        #expect(misses.count == 1)
        #expect(misses.first?.message.contains("Unmapped") == true)
    }

    // Outside check 5, d4: an empty description showed an empty row with an empty label.
    @Test func anUnregisteredModelWithABlankDescriptionShowsItsTypeAndID() {
        struct Blank: Identifiable, Equatable, Sendable, CustomStringConvertible {
            let id: Int
            var text: String
            var description: String { text }
        }
        struct Nameless: Hashable, Sendable, CustomStringConvertible { var description: String { "" } }
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel(sections: [TableSection(id: "rows", items: [
            ListItem(Blank(id: 1, text: "")), ListItem(Blank(id: 2, text: " \u{200B}\n\u{2066}")),
            ListItem(Blank(id: 3, text: "shown")), ListItem(Nameless()),
        ])]))
        #expect(listView.visibleTexts == ["Blank(id: 1)", "Blank(id: 2)", "shown", "Nameless"])
        #expect(listView.visibleAccessibilityLabels == ["Blank(id: 1)", "Blank(id: 2)", "shown", "Nameless"])
    }

    @Test func aSecondRegistrationReplacesTheFirst() {
        let registry = CellRegistry(diagnostics: .ignore)
        registry.register(FirstCell.self, for: Song.self) { cell, song in cell.text = "first \(song.title)" }
        registry.register(SecondCell.self, for: Song.self) { cell, song in cell.text = "second \(song.title)" }
        let listView = HeadlessListView()
        let cell = registry.cell(for: Song(id: 1, title: "Blue"), in: listView, at: ItemPath(row: 0, section: 0))
        #expect((cell as? SecondCell)?.text == "second Blue")
        #expect(registry.binding(for: Song(id: 2, title: "")).source == .type(SecondCell.self))
    }

    @Test func aHandlerForTheWrongCellTypeIsSkippedAndReported() {
        let log = DiagnosticLog()
        let registry = CellRegistry(diagnostics: log.handler)
        registry.register(CellSource.type(FirstCell.self), for: Song.self) { (cell: SecondCell, _) in cell.text = "never" }
        let listView = HeadlessListView()
        _ = registry.cell(for: Song(id: 1, title: "x"), in: listView, at: ItemPath(row: 0, section: 0))
        _ = registry.cell(for: Song(id: 2, title: "y"), in: listView, at: ItemPath(row: 1, section: 0))
        let mismatches = log.all.filter { $0.kind == .cellTypeMismatch }
        #expect(mismatches.count == 1)
        #expect(mismatches.first?.message.contains("SecondCell") == true)
        #expect(mismatches.first?.message.contains("Song") == true)
    }

    @Test func aProtocolRegistrationServesEveryConformingModel() {
        let registry = CellRegistry(diagnostics: .ignore)
        registry.register(FirstCell.self, for: (any Identifiable).self)
        #expect(registry.binding(for: Song(id: 1, title: "")).source == .type(FirstCell.self))
        #expect(registry.binding(for: Song(id: 1, title: "")).origin == .registered(.conformance))
        #expect(registry.binding(for: 42).origin == .defaultCell)
    }

    // Outside check 5 (doc gap): which of two registered protocols wins was not said.
    @Test func ofTwoRegisteredProtocolsTheOneRegisteredFirstWins() {
        let registry = CellRegistry(diagnostics: .ignore)
        registry.register(FirstCell.self, for: (any Identifiable).self)
        registry.register(SecondCell.self, for: (any Equatable).self)
        #expect(registry.binding(for: Song(id: 1, title: "")).source == .type(FirstCell.self))
        // Registering the first again replaces its cell and keeps its place.
        registry.register(SecondCell.self, for: (any Identifiable).self)
        registry.register(FirstCell.self, for: (any Equatable).self)
        #expect(registry.binding(for: Song(id: 1, title: "")).source == .type(SecondCell.self))
        let table = DispatchTable()
        var said: [String] = []
        table.onSelect((any Equatable).self) { _, _ in said.append("equatable") }
        table.onSelect((any Identifiable).self) { _, _ in said.append("identifiable") }
        table.select(Song(id: 1, title: ""), at: ItemPath(row: 0, section: 0))
        #expect(said == ["equatable"])
    }

    @Test func theNearestRegisteredSuperclassWins() {
        class Animal: @unchecked Sendable {}
        class Dog: Animal, @unchecked Sendable {}
        final class Puppy: Dog, @unchecked Sendable {}
        let registry = CellRegistry(diagnostics: .ignore)
        registry.register(FirstCell.self, for: Animal.self)
        registry.register(SecondCell.self, for: Dog.self)
        #expect(registry.binding(for: Puppy()).source == .type(SecondCell.self))
        #expect(registry.binding(for: Puppy()).origin == .registered(.superclass(distance: 1)))
        #expect(registry.binding(for: Animal()).origin == .registered(.exact))
    }
}

import CellKit
import CellKitTesting
import Testing

// The typed wrappers of DispatchTable and CellRegistry cast the cell and the model
// to the handler's types. Registered with concrete types they are specialised in the
// caller's module; registered from generic code they run unspecialised. Both must
// hand every handler its model, whatever the model's static type (a struct, a class
// through a superclass, an existential through a protocol), and skip and report a
// cell of the wrong type.

private protocol Named { var name: String { get } }
@MainActor private protocol Labelled: AnyObject { var label: String { get set } }

private struct Song: Identifiable, Equatable, Sendable, Named { let id: Int; var name: String }
private class Animal: @unchecked Sendable, Named {
    let name: String
    init(name: String) { self.name = name }
}
private final class Dog: Animal, @unchecked Sendable {}

private final class LabelCell: TextCell, Labelled {
    var label: String {
        get { text }
        set { text = newValue }
    }
}
private final class OtherCell: TextCell {}

/// A cell that shows any `Named` model through `UpdatableCell`.
private final class NamedCell: ListCell, UpdatableCell {
    var shown = ""
    func update(with model: any Named) -> Bool {
        defer { shown = model.name }
        return shown != model.name
    }
}

@MainActor
private final class Selections { var all: [String] = [] }

/// Registers through generic functions the optimiser keeps apart, so the wrappers are
/// built for unknown `Model` and `Cell` types.
@MainActor @inline(never)
private func configureGenerically<Model, Cell: Labelled>(_ table: DispatchTable, _ model: Model.Type, _: Cell.Type, _ name: @escaping (Model) -> String) {
    table.configure(model) { (cell: Cell, m: Model) in cell.label = "generic " + name(m) }
}

@MainActor @inline(never)
private func registerGenerically<Model, Cell: ListCell & Labelled>(_ registry: CellRegistry, _ cell: Cell.Type, for model: Model.Type, _ name: @escaping (Model) -> String) {
    registry.register(cell, for: model) { cell, m in cell.label = "generic " + name(m) }
}

@MainActor
@Suite("Dispatch: typed handlers, specialised or generic, get every model and only their cells")
struct DispatchCastTests {
    let path = ItemPath(row: 3, section: 1)

    @Test func tableHandlersGetStructsSubclassesAndExistentials() {
        let table = DispatchTable(diagnostics: .ignore)
        table.configure(Song.self) { (cell: LabelCell, song) in cell.label = "song " + song.name }
        table.configure(Animal.self) { (cell: any Labelled, animal) in cell.label = "animal " + animal.name }
        let cell = LabelCell()
        #expect(table.configure(cell, with: Song(id: 1, name: "Blue"), at: path) == .exact)
        #expect(cell.text == "song Blue")
        #expect(table.configure(cell, with: Dog(name: "Rex"), at: path) == .superclass(distance: 1))
        #expect(cell.text == "animal Rex")

        let named = DispatchTable(diagnostics: .ignore)
        named.configure((any Named).self) { (cell: TextCell, model) in cell.text = "named " + model.name }
        #expect(named.configure(cell, with: Song(id: 2, name: "Red"), at: path) == .conformance)
        #expect(cell.text == "named Red")
        named.configureAny { (cell: TextCell, model) in cell.text = "any \(model)" }
        #expect(named.configure(cell, with: 42, at: path) == .catchAll)
        #expect(cell.text == "any 42")
    }

    @Test func tableHeightSelectAndResourceGetTheirModels() {
        let table = DispatchTable(diagnostics: .ignore)
        let selected = Selections()
        table.height(for: (any Named).self) { model in Double(model.name.count) }
        table.onSelect(Animal.self) { animal, path in selected.all.append("\(animal.name) \(path.item)") }
        table.onResource(Song.self) { (cell: any Labelled, song, update) in cell.label = "\(song.name) \(update.key)" }
        #expect(table.height(for: Song(id: 1, name: "Blue"), at: path) == 4)
        #expect(table.height(for: 42, at: path) == nil)
        #expect(table.select(Dog(name: "Rex"), at: path) == .superclass(distance: 1))
        #expect(selected.all == ["Rex 3"])
        let cell = LabelCell()
        let song = Song(id: 1, name: "Blue")
        #expect(table.resource(ResourceUpdate(object: song, key: "cover"), cell: cell, model: song))
        #expect(cell.text == "Blue cover")
    }

    @Test func aTableHandlerForAnotherCellTypeIsSkippedAndReportedWithItsRow() {
        let log = DiagnosticLog()
        let table = DispatchTable(diagnostics: log.handler)
        table.configure(Song.self) { (cell: OtherCell, _) in cell.text = "never" }
        table.onResource(Song.self) { (cell: OtherCell, _, _) in cell.text = "never" }
        let cell = LabelCell()
        cell.text = "kept"
        let song = Song(id: 1, name: "Blue")
        #expect(table.configure(cell, with: song, at: path) == .exact)
        #expect(table.resource(ResourceUpdate(object: song, key: "cover"), cell: cell, model: song))
        #expect(cell.text == "kept")
        let mismatches = log.all.filter { $0.kind == .cellTypeMismatch }
        #expect(mismatches.count == 1)
        #expect(mismatches.first?.message.contains("OtherCell") == true)
        #expect(mismatches.first?.message.contains("section 1, row 3") == true)
    }

    @Test func genericallyRegisteredTableHandlersWork() {
        let log = DiagnosticLog()
        let table = DispatchTable(diagnostics: log.handler)
        configureGenerically(table, Song.self, LabelCell.self) { $0.name }
        configureGenerically(table, Animal.self, LabelCell.self) { $0.name }
        configureGenerically(table, (any Named).self, LabelCell.self) { $0.name }
        let cell = LabelCell()
        #expect(table.configure(cell, with: Song(id: 1, name: "Blue"), at: path) == .exact)
        #expect(cell.text == "generic Blue")
        #expect(table.configure(cell, with: Dog(name: "Rex"), at: path) == .superclass(distance: 1))
        #expect(cell.text == "generic Rex")
        struct Poem: Named { var name: String }
        #expect(table.configure(cell, with: Poem(name: "Ode"), at: path) == .conformance)
        #expect(cell.text == "generic Ode")
        #expect(table.configure(OtherCell(), with: Song(id: 2, name: "Red"), at: path) == .exact)
        #expect(log.all.filter { $0.kind == .cellTypeMismatch }.count == 1)
    }

    @Test func registryHandlersGetTheirModelsSpecialisedOrGeneric() {
        let log = DiagnosticLog()
        let registry = CellRegistry(diagnostics: log.handler)
        registry.register(LabelCell.self, for: Song.self) { cell, song in cell.label = "song " + song.name }
        registerGenerically(registry, LabelCell.self, for: Animal.self) { $0.name }
        registerGenerically(registry, LabelCell.self, for: (any Named).self) { $0.name }
        let listView = HeadlessListView()
        func text(_ model: Any) -> String? {
            (registry.cell(for: model, in: listView, at: path) as? LabelCell)?.text
        }
        #expect(text(Song(id: 1, name: "Blue")) == "song Blue")
        #expect(text(Dog(name: "Rex")) == "generic Rex")
        struct Poem: Named { var name: String }
        #expect(text(Poem(name: "Ode")) == "generic Ode")
        #expect(log.all.filter { $0.kind == .cellTypeMismatch }.isEmpty)

        // A handler whose cell type is not the source's: skipped and reported once, with the row.
        // The TextCell it got is not left with stale text: it shows the model's description,
        // as one that nothing sets up does (outside check 14a, D2).
        registerGenerically(registry, LabelCell.self, for: Int.self) { "\($0)" }
        let other = OtherCell()
        other.text = "kept"
        registry.configure(other, with: 7, binding: registry.binding(for: 7), at: path)
        #expect(other.text == "7")
        let mismatches = log.all.filter { $0.kind == .cellTypeMismatch }
        #expect(mismatches.count == 1)
        #expect(mismatches.first?.message.contains("section 1, row 3") == true)
    }

    @Test func anUpdatableCellOfAProtocolModelGetsEveryConformingModel() {
        let registry = CellRegistry(diagnostics: .ignore)
        registry.register(NamedCell.self, for: (any Named).self)
        let cell = NamedCell()
        let song = Song(id: 1, name: "Blue")
        #expect(registry.configure(cell, with: song, binding: registry.binding(for: song)))
        #expect(cell.shown == "Blue")
        #expect(!registry.configure(cell, with: song, binding: registry.binding(for: song)))
        let dog = Dog(name: "Rex")
        #expect(registry.configure(cell, with: dog, binding: registry.binding(for: dog)))
        #expect(cell.shown == "Rex")
        // A model the cell cannot show: the cell cannot tell, so it counts as changed.
        registry.register(NamedCell.self, for: Int.self)
        #expect(registry.configure(cell, with: 5, binding: registry.binding(for: 5)))
        #expect(cell.shown == "Rex")
    }
}

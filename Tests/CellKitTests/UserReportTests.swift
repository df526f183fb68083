import CellKit
import CellKitTesting
import Synchronization
import Testing

private struct Row: Identifiable, Equatable, Sendable { let id: Int; var t: String }
private final class AvCell: TextCell {}
private struct Offline: Error {}
private struct Person: Identifiable, Equatable, Sendable { let id: Int; var name: String }

@MainActor
private func people(_ list: [Person], viewport: Double = 440) -> (ListController, HeadlessListView) {
    let lv = HeadlessListView(viewportHeight: viewport, rowHeight: 44)
    let c = ListController(diagnostics: .ignore)
    c.register(TextCell.self, for: Person.self) { cell, p in cell.text = p.name }
    c.dispatch.onResource(Person.self) { (cell: TextCell, p, update) in cell.text = "\(p.name) \(update.value as? String ?? "")" }
    c.attach(to: lv)
    c.apply(TableModel(list))
    return (c, lv)
}

/// Collects diagnostics for a test.
private final class Collected: Sendable {
    private let store = Mutex<[Diagnostic]>([])
    var all: [Diagnostic] { store.withLock { $0 } }
    var handler: DiagnosticHandler { DiagnosticHandler { d in self.store.withLock { $0.append(d) } } }
}

@MainActor
@Suite("An outside user's report: defects found from the docs")
struct UserReportTests {
    // A. A batch started from a configure handler during the controller's batch is refused.
    @Test func aBatchFromAConfigureHandlerDuringABatchIsRefusedAndDoesNotLoop() {
        let lv = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        let c = ListController(diagnostics: .ignore)
        var outcomes: [BatchOutcome] = []
        c.register(TextCell.self, for: Row.self) { cell, r in
            cell.text = r.t
            if r.t == "nest", outcomes.count < 50 {
                outcomes.append(lv.performBatchUpdates(Changeset(itemInserts: [ItemPath(item: 0, section: 0)])) {})
            }
        }
        c.attach(to: lv)
        c.apply(TableModel([Row(id: 1, t: "a")]))
        c.apply(TableModel([Row(id: 2, t: "nest"), Row(id: 1, t: "a")]))
        #expect(outcomes.count == 1)
        guard case .refused(let message)? = outcomes.first else {
            Issue.record("expected a refusal, got \(outcomes)")
            return
        }
        #expect(message.contains("performBatchUpdates(_:updateData:)"))
        #expect(lv.visibleTexts == ["nest", "a"])
        #expect(lv.sectionCounts == [2])
    }

    @Test func aReloadFromEveryLayoutRunsOnceMoreAndStops() {
        let lv = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        let c = ListController(diagnostics: .ignore)
        var configures = 0
        c.register(TextCell.self, for: Row.self) { cell, r in
            configures += 1
            cell.text = r.t
            if configures < 100 { lv.reloadData() }
        }
        c.attach(to: lv)
        c.apply(TableModel([Row(id: 1, t: "a")]))
        #expect(configures < 10, "configured \(configures) times: the reload looped")
        #expect(lv.visibleTexts == ["a"])
    }

    // C. A catch-all configure handler leaves the built-in placeholders alone.
    @Test func aCatchAllHandlerDoesNotTakeThePlaceholderRows() {
        let lv = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        let c = ListController(diagnostics: .ignore)
        c.register(TextCell.self, for: Row.self) { cell, r in cell.text = r.t }
        c.dispatch.configureAny { (cell: TextCell, model: Any) in cell.text = "any \(model)" }
        c.attach(to: lv)
        c.setState(.failed(Offline()))
        #expect(lv.visibleTexts.count == 1)
        #expect(!(lv.visibleTexts.first ?? "").hasPrefix("any "), "\(lv.visibleTexts)")
        c.apply(TableModel([Row(id: 1, t: "a")]))
        #expect(lv.visibleTexts.first?.hasPrefix("any ") == true)  // ordinary rows: the catch-all still runs
        // A handler for the placeholder's own type still takes it.
        c.dispatch.configure(ErrorPlaceholder.self) { (cell: TextCell, _) in cell.text = "offline" }
        c.apply(TableModel(), state: .failed(Offline()))
        #expect(lv.visibleTexts == ["offline"])
    }

    // D. Selecting a path that does not exist is refused.
    @Test func selectingARowThatDoesNotExistIsRefused() {
        let lv = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        let c = ListController(diagnostics: .ignore)
        var selected: [ItemPath] = []
        c.register(TextCell.self, for: Row.self) { cell, r in cell.text = r.t }
        c.onSelect(Row.self) { _, path in selected.append(path) }
        c.attach(to: lv)
        c.apply(TableModel([Row(id: 1, t: "a")]))
        lv.clearLog()
        lv.selectItem(at: ItemPath(item: 99, section: 3))
        lv.selectItem(at: ItemPath(item: 99, section: 0))
        let refused = lv.log.compactMap { if case .refused(let m) = $0 { m } else { nil } }
        #expect(refused.count == 2)
        #expect(refused.first?.contains("section 3, row 99") == true)
        #expect(refused.last?.contains("section 0, row 99") == true)
        #expect(!lv.log.contains { if case .selected = $0 { true } else { false } })
        lv.selectItem(at: ItemPath(item: 0, section: 0))
        #expect(selected == [ItemPath(item: 0, section: 0)])
    }

    // E. The cell-type mismatch names the model type, the cell types, section and row.
    @Test func theCellTypeMismatchNamesWhereItHappened() {
        let collected = Collected()
        let lv = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        let c = ListController(diagnostics: collected.handler)
        c.register(TextCell.self, for: Row.self)
        c.dispatch.configure(Row.self) { (cell: AvCell, r) in cell.text = r.t }
        c.attach(to: lv)
        c.apply(TableModel([Row(id: 1, t: "a")]))
        let mismatch = collected.all.first { $0.kind == .cellTypeMismatch }?.message ?? ""
        #expect(mismatch.contains("Row"))
        #expect(mismatch.contains("cell type AvCell"), "\(mismatch)")
        #expect(!mismatch.contains("a AvCell"), "\(mismatch)")
        #expect(mismatch.contains("section 0, row 0"), "\(mismatch)")
        #expect(mismatch.contains("TextCell"))
    }

    // B. A resource reaches every row showing the object: its duplicates too (as Coffee
    // updates every visible cell whose object equals the updated one; outside report d2).
    @Test func aResourceReachesTheDuplicatesToo() {
        let (c, lv) = people([Person(id: 1, name: "first"), Person(id: 1, name: "dup")])
        let updated = c.provideResource(Person(id: 1, name: "x"), key: "avatar", value: "A")
        #expect(updated == [ItemPath(item: 0, section: 0), ItemPath(item: 1, section: 0)])
        #expect(lv.visibleTexts == ["first A", "dup A"])
    }

    // F. A row off screen presents the resource when it shows.
    @Test func anOffScreenRowPresentsTheResourceWhenItShows() {
        let list = (0..<30).map { Person(id: $0, name: "p\($0)") }
        let (c, lv) = people(list, viewport: 220)
        #expect(c.provideResource(list[20], key: "avatar", value: "A").isEmpty)
        lv.scrollToItem(at: ItemPath(item: 20, section: 0))
        #expect(lv.visibleTexts.first == "p20 A")
        // Reconfigured (new content for the same row): the configure handler resets it, the resource comes back.
        var changed = list
        changed[20].name = "q20"
        c.apply(TableModel(changed))
        #expect(lv.visibleTexts.first == "q20 A")
        // Scrolled away and back: still there.
        lv.scroll(to: 0)
        lv.scrollToItem(at: ItemPath(item: 20, section: 0))
        #expect(lv.visibleTexts.first == "q20 A")
    }
}

private struct Tag: Hashable, Sendable { let name: String }
private struct Both: Identifiable, Hashable, Sendable { let id: Int; var title: String }

@MainActor
@Suite("Hashable, non-Identifiable models make tables directly")
struct HashableModelsTests {
    // G. TableModel, SimpleDataSource take Hashable models; a type that is both goes by its id.
    @Test func hashableModelsMakeATableModel() {
        var model = TableModel([Tag(name: "swift"), Tag(name: "linux")])
        #expect(model.indexPath(of: Tag(name: "linux")) == ItemPath(item: 1, section: 0))
        model.append([Tag(name: "gtk")])
        model.insert([Tag(name: "ios")], at: ItemPath(item: 0, section: 0))
        #expect(model.sections[0].items.map { ($0.model as? Tag)?.name } == ["ios", "swift", "linux", "gtk"])
        #expect(TableModel(sections: [[Tag(name: "a")], [Tag(name: "b")]]).sections.count == 2)
        let both = TableModel([Both(id: 1, title: "x")])
        #expect(both.indexPath(of: ItemID(type: Both.self, id: 1)) == ItemPath(item: 0, section: 0))
        let source = SimpleDataSource([Tag(name: "a")])
        source.set([Tag(name: "b"), Tag(name: "c")])
        #expect(source.model.itemCount == 2)
        #expect(SimpleDataSource(sections: [[Tag(name: "a")]]).model.itemCount == 1)
    }
}

@MainActor
@Suite("Headless list view: a row height of 0")
struct ZeroRowHeightTests {
    // I. As documented: with an estimate of 0 no row comes into the viewport, so none shows.
    @Test func rowsOfHeightZeroAreNeverShown() {
        let lv = HeadlessListView(viewportHeight: 440, rowHeight: 0)
        let c = ListController(diagnostics: .ignore)
        c.attach(to: lv)
        c.apply(TableModel((0..<1000).map { Person(id: $0, name: "\($0)") }))
        #expect(lv.visibleItemPaths.isEmpty)
        #expect(lv.createdCellCount == 0)
        #expect(lv.contentHeight == 0)
        #expect(lv.heightRequestCount == 0)
    }
}

import CellKit
import CellKitTesting
import Testing

/// A headless list view over a plain table model data source, for adapter tests.
@MainActor
struct HeadlessListViewHarness {
    let view: HeadlessListView
    let source: TableModelDataSource

    static func feed(count: Int, prefetchDistance: Int = 0) -> HeadlessListViewHarness {
        let view = HeadlessListView(viewportHeight: 440, rowHeight: 44, prefetchDistance: prefetchDistance)
        let source = TableModelDataSource((0..<count).map { "row \($0)" }.map { ListItem($0) }.adapterTestModel())
        view.dataSource = source
        view.reloadData()
        return HeadlessListViewHarness(view: view, source: source)
    }
}

extension Array where Element == ListItem {
    /// These items as the one section of a table model.
    func adapterTestModel() -> TableModel { TableModel(sections: [TableSection(id: "main", items: self)]) }
}

/// Records prefetch calls, as a resource loader would see them.
@MainActor
private final class PrefetchRecorder: ListViewDelegate {
    var prefetched: [[ItemPath]] = []
    func listView(_ listView: any ListView, prefetchItemsAt paths: [ItemPath]) { prefetched.append(paths) }
}

@Suite("Adapter: prefetch requests, background placeholders, editing")
struct AdapterRequestsTests {
    private let p = { (item: Int, section: Int) in ItemPath(item: item, section: section) }

    @Test func prefetchKeepsExistingRowsOnceInOrder() {
        #expect(PrefetchRequest.valid([p(9, 0), p(2, 0), p(2, 0)], counts: [5]) == [p(2, 0)])
        #expect(PrefetchRequest.valid([p(0, 2), p(-1, 0), p(1, 1), p(0, 1)], counts: [3, 2]) == [p(0, 1), p(1, 1)])
        #expect(PrefetchRequest.valid([], counts: []) == [])
    }

    @MainActor @Test func prefetchOfTheHeadlessListViewIsAlreadyValid() {
        // What the headless list view announces passes through unchanged: the same paths an adapter forwards.
        let harness = HeadlessListViewHarness.feed(count: 40, prefetchDistance: 3)
        let recorder = PrefetchRecorder()
        harness.view.delegate = recorder
        harness.view.scroll(by: 44 * 5)
        let announced = recorder.prefetched.flatMap { $0 }
        #expect(!announced.isEmpty)
        for batch in recorder.prefetched {
            #expect(PrefetchRequest.valid(batch, counts: harness.view.sectionCounts) == batch)
        }
    }

    @Test func backgroundPlaceholderFollowsStateOnlyWhenRowsAreOff() {
        struct Failure: Error, CustomStringConvertible { var description: String { "offline" } }
        var rows = ListController.Placeholders()
        #expect(BackgroundPlaceholder.for(.loading, isEmpty: true, placeholders: rows) == nil)
        rows.showsRows = false
        #expect(BackgroundPlaceholder.for(.loading, isEmpty: true, placeholders: rows) == .loading(message: "Loading…"))
        #expect(BackgroundPlaceholder.for(.loaded, isEmpty: true, placeholders: rows) == .noResults(message: "No results"))
        #expect(BackgroundPlaceholder.for(.empty, isEmpty: true, placeholders: rows) == .noResults(message: "No results"))
        #expect(BackgroundPlaceholder.for(.failed(Failure()), isEmpty: true, placeholders: rows) == .error(message: "Couldn't load the content.", retryTitle: "Retry"))
        #expect(BackgroundPlaceholder.for(.failed(Failure()), isEmpty: false, placeholders: rows) == nil)
        rows.errorCanRetry = false
        #expect(BackgroundPlaceholder.for(.failed(Failure()), isEmpty: true, placeholders: rows) == .error(message: "Couldn't load the content.", retryTitle: nil))
    }

    @MainActor @Test func controllerWithBackgroundPlaceholdersShowsNoPlaceholderRows() {
        let listView = HeadlessListView()
        let controller = ListController(diagnostics: .ignore)
        controller.placeholders.showsRows = false
        controller.attach(to: listView)
        controller.apply(TableModel(), state: .loading)
        #expect(listView.visibleItemPaths.isEmpty)
        #expect(controller.backgroundPlaceholder == .loading(message: "Loading…"))
        controller.apply((0..<3).map { ListItem("row \($0)") }.adapterTestModel())
        #expect(controller.backgroundPlaceholder == nil)
        #expect(listView.visibleItemPaths.count == 3)
    }

    private struct Note: Identifiable, Sendable { let id: Int; var pinned = false }
    private class Animal: @unchecked Sendable {}
    private final class Dog: Animal, @unchecked Sendable {}

    @MainActor @Test func editingResolvesPerModelTypeWithFallback() {
        let editing = EditingTable()
        var deleted: [Int] = []
        editing.onDelete(Note.self) { note, _ in deleted.append(note.id) }
        editing.canEdit(Note.self) { note, _ in !note.pinned }
        editing.canMove(Animal.self)
        #expect(editing.canDelete(Note(id: 1), at: p(0, 0)))
        #expect(!editing.canDelete(Note(id: 2, pinned: true), at: p(1, 0)))
        #expect(!editing.canDelete("text", at: p(0, 0)))
        // canMove needs a move handler to be meaningful.
        #expect(!editing.canMove(Dog(), at: p(0, 0)))
        editing.onMove = { _, _ in }
        #expect(editing.canMove(Dog(), at: p(0, 0)))   // superclass registration
        #expect(!editing.canMove(Note(id: 1), at: p(0, 0)))
        // Without trailing actions, a deletable row offers one destructive Delete that commits.
        let actions = editing.trailingActions(for: Note(id: 7), at: p(3, 0))
        #expect(actions.map(\.title) == ["Delete"])
        #expect(actions.first?.style == .destructive)
        #expect(actions.first?.handler(p(3, 0)) == true)
        #expect(deleted == [7])
        #expect(editing.trailingActions(for: Note(id: 8, pinned: true), at: p(0, 0)).isEmpty)
    }

    @MainActor @Test func swipeActionsPerModelType() {
        let editing = EditingTable()
        var pinned: [ItemPath] = []
        editing.leadingActions(Note.self) { _, _ in [RowAction(title: "Pin", systemImage: "pin") { path in pinned.append(path); return true }] }
        editing.trailingActions(Note.self) { note, _ in [RowAction(title: "Archive \(note.id)") { _ in false }] }
        #expect(editing.canEdit(Note(id: 1), at: p(0, 0)))
        #expect(editing.leadingActions(for: Note(id: 1), at: p(0, 0)).map(\.title) == ["Pin"])
        #expect(editing.trailingActions(for: Note(id: 4), at: p(0, 0)).map(\.title) == ["Archive 4"])
        #expect(editing.leadingActions(for: "other", at: p(0, 0)).isEmpty)
        _ = editing.leadingActions(for: Note(id: 1), at: p(2, 0)).first?.handler(p(2, 0))
        #expect(pinned == [p(2, 0)])
    }
}

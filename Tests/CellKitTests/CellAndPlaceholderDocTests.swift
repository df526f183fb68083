import CellKit
import CellKitTesting
import Testing

private class Person: Identifiable, @unchecked Sendable {
    let id: Int
    let name: String
    init(id: Int, name: String) { self.id = id; self.name = name }
}
private final class Admin: Person, @unchecked Sendable {}
private final class PersonCell: TextCell {}
private final class AdminCell: TextCell {}

private struct PersonPresenter: Presenter {
    func present(_ person: Person, in cell: PersonCell, style: CellStyle, context: PresentationContext<Never>) {
        cell.text = "presented " + person.name
    }
}

private struct Note: Identifiable, Equatable, Sendable { let id: Int; var text: String }

/// Says it changed nothing, but sets the text all the same.
private final class StubbornCell: ListCell, UpdatableCell {
    var text = ""
    init() {}
    func update(with note: Note) -> Bool { text = note.text; return false }
}

private struct ErrorRowPresenter: Presenter {
    enum Event: Sendable { case tapped }
    func present(_ row: ErrorPlaceholder, in cell: ErrorCell, style: CellStyle, context: PresentationContext<Event>) {
        cell.text = "Custom: " + row.message
        cell.canRetry = row.canRetry
    }
    func selected(_ row: ErrorPlaceholder, style: CellStyle) -> Event? { .tapped }
}

private struct Offline: Error {}

/// What the guides say of `update(with:)`'s result, presenters against registrations, a
/// presenter for the error row and the first loading row's announcement (outside report 13a,
/// doc gaps 2, 3, 4 and 8): these describe the behaviour, they guard it.
@MainActor
@Suite("Cells, presenters and placeholders, as documented")
struct CellAndPlaceholderDocTests {
    @Test func updateReturningFalseStillShowsWhatTheCellSet() {
        let controller = ListController()
        controller.registry.register(CellSource.type(StubbornCell.self), for: Note.self)
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel([Note(id: 1, text: "a"), Note(id: 2, text: "b")]))
        listView.clearLog()
        controller.apply(TableModel([Note(id: 1, text: "a2"), Note(id: 2, text: "b")]))
        // The batch replayed has no structural change; the updated row is reconfigured in place.
        #expect(listView.log.map(\.description) == ["batch of 0 changes", "reconfigured [0, 0]"])
        #expect((listView.visibleCells.first as? StubbornCell)?.text == "a2")
        let registry = CellRegistry()
        registry.register(CellSource.type(StubbornCell.self), for: Note.self)
        let note = Note(id: 3, text: "c")
        #expect(registry.configure(StubbornCell(), with: note, binding: registry.binding(for: note)) == false,
                "the result goes to the caller of configure")
    }

    @Test func aPresenterForASuperclassWinsOverAnExactRegistration() {
        let controller = ListController(diagnostics: .ignore)
        controller.register(AdminCell.self, for: Admin.self) { cell, admin in cell.text = "registered " + admin.name }
        controller.addPresenter(PersonPresenter())
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel([Admin(id: 1, name: "Root")]))
        #expect(listView.visibleTexts == ["presented Root"])
        #expect(listView.visibleCells.first is PersonCell)
    }

    @Test func aPresenterForTheErrorRowTakesItsTapAndNoRetryIsCalled() {
        let controller = ListController(diagnostics: .ignore)
        var events = 0, retries = 0
        controller.addPresenter(ErrorRowPresenter()) { _ in events += 1 }
        controller.onRetry = { retries += 1 }
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel(), state: .failed(Offline()))
        #expect(listView.visibleTexts == ["Custom: " + controller.placeholders.unknownErrorMessage])
        #expect((listView.visibleCells.first as? ErrorCell)?.canRetry == true, "set by the presenter")
        listView.selectItem(at: ItemPath(item: 0, section: 0))
        #expect(events == 1 && retries == 0)
    }

    @Test func attachingShowsTheFirstRowsWithoutAnAnnouncement() {
        let loading = ListController()
        let listView = HeadlessListView()
        loading.attach(to: listView)
        #expect(listView.visibleTexts == [loading.placeholders.loading.message])
        #expect(listView.announcements.isEmpty)

        let loaded = ListController()
        loaded.apply(TableModel([Note(id: 1, text: "n")]))
        let second = HeadlessListView()
        loaded.attach(to: second)
        #expect(second.announcements.isEmpty)
        loaded.apply(TableModel(), state: .failed(Offline()))
        #expect(second.announcements.map(\.kind) == [.failed], "the changes after it are announced")
    }
}

import CellKit
import CellKitTesting
import Testing

/// Attaching a controller to a second list view lets the first one go. Before the fix
/// the first stayed wired: it kept its old rows while the controller answered with the
/// new ones (a tap on row 1 opened another model, `checkConsistency()` failed).
@MainActor
@Suite("ListController: attaching another list view")
struct ReattachTests {
    @Test func theListViewAttachedBeforeShowsNothingAndReachesNothing() throws {
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Post.self) { cell, post in cell.text = post.text }
        var opened: [Int] = []
        controller.onSelect(Post.self) { post, _ in opened.append(post.id) }
        let first = HeadlessListView()
        controller.attach(to: first)
        controller.apply(TableModel(posts(0..<5)))
        #expect(first.visibleTexts.count == 5)

        let second = HeadlessListView()
        controller.attach(to: second)
        controller.apply(TableModel(posts([40, 41])))
        #expect(first.dataSource == nil && first.delegate == nil)
        #expect(first.visibleTexts.isEmpty && first.visibleItemPaths.isEmpty)
        try first.checkConsistency()
        first.selectItem(at: ItemPath(item: 1, section: 0))
        #expect(opened.isEmpty)

        #expect(second.visibleTexts == ["post 40", "post 41"])
        second.selectItem(at: ItemPath(item: 1, section: 0))
        #expect(opened == [41])
        try second.checkConsistency()

        // Attaching the same list view again keeps it; attaching the first again takes it back.
        controller.attach(to: second)
        #expect(second.dataSource === controller)
        controller.attach(to: first)
        #expect(first.visibleTexts == ["post 40", "post 41"] && second.visibleTexts.isEmpty)
    }

    @Test func aListViewTakenOverByAnotherControllerIsLeftToIt() {
        let one = ListController(diagnostics: .ignore)
        let other = ListController(diagnostics: .ignore)
        let shared = HeadlessListView()
        one.attach(to: shared)
        other.attach(to: shared)                      // the other controller took it
        one.attach(to: HeadlessListView())
        #expect(shared.dataSource === other && shared.delegate === other)
    }
}

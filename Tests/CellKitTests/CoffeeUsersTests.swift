import CellKit
import CellKitTesting
import Testing

// Coffee Table View Controller's Basic example: a users list presented by a
// UserPresenter, with and without the byline style; an image downloaded for one
// user reaches only that user's visible cell.

extension CellStyle {
    static let withByline: CellStyle = "byline"
}

private final class UserCell: ListCell {
    var name = ""
    var message: String?
    var image: String?
    var imageUpdates = 0
    init() {}
}

private struct User: Identifiable, Equatable, Sendable {
    let id: Int
    var name: String
    var byline: String
}

private struct UserPresenter: Presenter {
    enum Event: Equatable, Sendable { case userCellSelected(User) }

    func present(_ user: User, in cell: UserCell, style: CellStyle, context: PresentationContext<Event>) {
        cell.image = nil
        if style == .withByline {
            cell.name = user.name
            cell.message = user.byline
        } else {
            cell.name = user.name
            cell.message = nil
        }
    }

    func update(_ cell: UserCell, showing user: User, style: CellStyle, resource: ResourceUpdate) {
        if resource.key == "image" {
            cell.image = resource.value as? String
            cell.imageUpdates += 1
        }
    }

    func selected(_ user: User, style: CellStyle) -> Event? { .userCellSelected(user) }
}

private let users = (0..<30).map { User(id: $0, name: "user \($0)", byline: "byline \($0)") }

@MainActor
@Suite("Coffee users list: presenters with a style, resources for visible cells")
struct CoffeeUsersTests {
    fileprivate func makeScreen(style: CellStyle) -> (ListController, HeadlessListView, Box<[UserPresenter.Event]>) {
        let events = Box<[UserPresenter.Event]>([])
        let controller = ListController(diagnostics: .ignore)
        controller.addPresenter(UserPresenter(), style: style) { events.value.append($0) }
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel(users))  // [self addObjects:users]; [self.delegate reloadTableView];
        return (controller, listView, events)
    }

    @Test func withByline() {
        let (_, listView, _) = makeScreen(style: .withByline)
        let cells = listView.visibleCells.map { $0 as! UserCell }
        #expect(cells.count == 10)
        #expect(cells[2].name == "user 2" && cells[2].message == "byline 2")
    }

    @Test func withoutBylineIsOnlyAStyleChange() {
        let (_, listView, _) = makeScreen(style: .default)
        let cells = listView.visibleCells.map { $0 as! UserCell }
        #expect(cells[2].name == "user 2" && cells[2].message == nil)
    }

    @Test func stylesHaveTheirOwnReusePools() {
        let (_, byline, _) = makeScreen(style: .withByline)
        let (_, plain, _) = makeScreen(style: .default)
        let bylineIDs = byline.createdCells.keys.filter { $0.contains("UserCell") }
        let plainIDs = plain.createdCells.keys.filter { $0.contains("UserCell") }
        #expect(bylineIDs.count == 1 && plainIDs.count == 1 && bylineIDs != plainIDs)
    }

    @Test func anImageReachesOnlyThatUsersVisibleCell() {
        let (controller, listView, _) = makeScreen(style: .withByline)
        listView.clearLog()
        // [self provideResourceToVisibleCells:user updatedKey:@"image"];
        let updated = controller.provideResource(users[3], key: "image", value: "avatar-3.png")
        #expect(updated == [ItemPath(row: 3, section: 0)])
        let cells = listView.visibleCells.map { $0 as! UserCell }
        #expect(cells[3].image == "avatar-3.png")
        #expect(cells.enumerated().allSatisfy { $0.offset == 3 || ($0.element.image == nil && $0.element.imageUpdates == 0) })
        // Nothing was reloaded, dequeued or configured again.
        #expect(listView.log == [.resourceUpdated(ItemPath(row: 3, section: 0), key: "image")])
    }

    @Test func anImageForAUserOffScreenTouchesNothing() {
        let (controller, listView, _) = makeScreen(style: .withByline)
        listView.clearLog()
        #expect(controller.provideResource(users[25], key: "image", value: "x").isEmpty)
        #expect(listView.log.isEmpty)
    }

    @Test func aModelThatRefersToTheObjectGetsTheUpdateToo() {
        struct Post: Identifiable, Equatable, Sendable, ResourceReferencing {
            let id: Int
            let author: User
            func refers(to object: Any) -> Bool { (object as? User)?.id == author.id }
        }
        final class PostCell: TextCell { var avatar: String? }
        let controller = ListController(diagnostics: .ignore)
        controller.register(PostCell.self, for: Post.self) { cell, post in cell.text = "post by \(post.author.name)" }
        controller.dispatch.onResource(Post.self) { (cell: PostCell, _, update) in cell.avatar = update.value as? String }
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel([Post(id: 1, author: users[1]), Post(id: 2, author: users[2]), Post(id: 3, author: users[1])]))
        let updated = controller.provideResource(users[1], key: "image", value: "a1")
        #expect(updated == [ItemPath(row: 0, section: 0), ItemPath(row: 2, section: 0)])
        #expect(listView.visibleCells.map { ($0 as! PostCell).avatar } == ["a1", nil, "a1"])
    }

    @Test func tapsBecomeTypedEvents() {
        let (controller, listView, events) = makeScreen(style: .withByline)
        listView.selectItem(at: ItemPath(row: 4, section: 0))  // the list view holds the controller weakly
        #expect(events.value == [.userCellSelected(users[4])])
        withExtendedLifetime(controller) {}
    }
}

/// A reference box for collecting values in closures.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

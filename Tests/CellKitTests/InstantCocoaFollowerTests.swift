import Foundation
import CellKit
import CellKitTesting
import Testing

// Instant Cocoa's SKFollowerListViewController: register a cell class for a model
// class; configure, select and height dispatched per model type with the fallback
// ModelName → ModelClassName → Object; loading / no-results / error placeholders.

private final class SKUserCell: TextCell {}

private class SKUser: Identifiable, @unchecked Sendable {
    let id: Int
    let name: String
    let bio: String
    init(id: Int, name: String, bio: String) { (self.id, self.name, self.bio) = (id, name, bio) }
}

private final class SKVerifiedUser: SKUser, @unchecked Sendable {}
private final class SKBot: SKUser, @unchecked Sendable {}

private protocol Mentionable { var handle: String { get } }
private struct Hashtag: Identifiable, Equatable, Sendable, Mentionable { let id: String; var handle: String { "#" + id } }
private struct Place: Identifiable, Equatable, Sendable { let id: Int }

private let followers = [
    SKUser(id: 1, name: "Ada", bio: "Analyst"),
    SKVerifiedUser(id: 2, name: "Grace", bio: "Admiral"),
    SKBot(id: 3, name: "Bot", bio: "beep"),
]

@MainActor
private final class SKFollowerListViewController {
    let controller = ListController(diagnostics: .ignore)
    let listView = HeadlessListView(viewportHeight: 600, rowHeight: 44)
    var pushed: [String] = []

    init(users: [SKUser]) {
        controller.register(SKUserCell.self, for: SKUser.self)
        // - (void)configureCell:(SKUserCell *)cell withUser:(SKUser *)user
        controller.dispatch.configure(SKUser.self) { (cell: SKUserCell, user) in
            cell.text = user.name
            cell.detailText = user.bio
        }
        // - (void)tableView:(UITableView *)tableView didSelectUser:(SKUser *)user
        controller.dispatch.onSelect(SKUser.self) { [unowned self] user, _ in pushed.append(user.name) }
        controller.attach(to: listView)
        controller.apply(TableModel(users.map { ListItem($0) }.asSection))
    }
}

extension Array where Element == ListItem {
    var asSection: [TableSection] { [TableSection(id: 0, items: self)] }
}

extension TableModel {
    init(_ sections: [TableSection]) { self.init(sections: sections) }
}

@MainActor
@Suite("Instant Cocoa: follower list, dispatch fallbacks, placeholders")
struct InstantCocoaFollowerTests {
    @Test func thePayoff() {
        let screen = SKFollowerListViewController(users: followers)
        #expect(screen.listView.visibleTexts == ["Ada", "Grace", "Bot"])
        #expect(screen.listView.visibleCells.allSatisfy { $0 is SKUserCell })
        screen.listView.selectItem(at: ItemPath(row: 1, section: 0))
        #expect(screen.pushed == ["Grace"])
    }

    @Test func configureFallsBackThroughEveryStep() {
        let table = DispatchTable(diagnostics: .ignore)
        var calls: [String] = []
        table.configure(SKVerifiedUser.self) { (_: TextCell, _) in calls.append("verified") }  // with<ModelName>
        table.configure(SKUser.self) { (_: TextCell, _) in calls.append("user") }              // with<ModelClassName> (a supertype)
        table.configure((any Mentionable).self) { (_: TextCell, m) in calls.append("mentionable \(m.handle)") }
        table.configureAny { (_: TextCell, _) in calls.append("object") }                     // withObject:
        let cell = TextCell()
        let path = ItemPath(row: 0, section: 0)
        #expect(table.configure(cell, with: followers[1], at: path) == .exact)
        #expect(table.configure(cell, with: followers[2], at: path) == .superclass(distance: 1))
        #expect(table.configure(cell, with: Hashtag(id: "swift"), at: path) == .conformance)
        #expect(table.configure(cell, with: Place(id: 1), at: path) == .catchAll)
        #expect(calls == ["verified", "user", "mentionable #swift", "object"])
        // The documented default: with no handler at all, configure does nothing.
        #expect(DispatchTable(diagnostics: .ignore).configure(cell, with: Place(id: 1), at: path) == nil)
    }

    @Test func selectAndHeightFallBackTheSameWay() {
        let table = DispatchTable(diagnostics: .ignore)
        var selected: [String] = []
        table.onSelect(SKUser.self) { user, _ in selected.append("user \(user.name)") }
        table.onSelectAny { _, _ in selected.append("object") }
        table.height(for: SKVerifiedUser.self) { _ in 88 }
        table.height(for: (any Mentionable).self) { _ in 30 }
        table.heightAny { _ in 50 }
        let path = ItemPath(row: 0, section: 0)
        table.select(followers[2], at: path)
        table.select(Place(id: 1), at: path)
        #expect(selected == ["user Bot", "object"])
        #expect(table.height(for: followers[1], at: path) == 88)
        #expect(table.height(for: Hashtag(id: "x"), at: path) == 30)
        #expect(table.height(for: followers[0], at: path) == 50)
        // No handler: the list's default height.
        #expect(DispatchTable(diagnostics: .ignore).height(for: followers[0], at: path) == nil)
    }

    @Test func heightsReachTheListView() {
        let screen = SKFollowerListViewController(users: followers)
        screen.controller.height(for: SKUser.self) { user in user.name == "Grace" ? 100 : 44 }
        screen.listView.reloadData()
        #expect(screen.listView.offset(ofItemAt: ItemPath(row: 2, section: 0)) == 144)
        #expect(screen.listView.contentHeight == 188)
    }

    @Test func resolutionIsCachedPerConcreteType() {
        let table = DispatchTable(diagnostics: .ignore)
        var count = 0
        table.configure(SKUser.self) { (_: TextCell, _) in count += 1 }
        let cell = TextCell()
        for user in followers + followers { table.configure(cell, with: user, at: ItemPath(row: 0, section: 0)) }
        #expect(count == 6)
        // A new registration clears the cache: the more specific handler now wins.
        table.configure(SKBot.self) { (_: TextCell, _) in count += 100 }
        table.configure(cell, with: followers[2], at: ItemPath(row: 0, section: 0))
        #expect(count == 106)
    }

    @Test func loadingPlaceholderWhileTheFirstLoadRuns() {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView()
        controller.attach(to: listView)
        #expect(controller.state.isLoading)
        let cell = listView.visibleCells.first as? LoadingCell
        #expect(cell?.isAnimating == true)
        #expect(cell?.text == "Loading…")
    }

    @Test func noResultsPlaceholder() {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel(), state: .loaded)
        #expect(listView.visibleCells.count == 1)
        #expect((listView.visibleCells.first as? NoResultsCell)?.text == "No results")
    }

    @Test func errorPlaceholderRetriesWhenSelected() {
        struct Offline: LocalizedError { var errorDescription: String? { "The network is offline" } }
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView()
        controller.attach(to: listView)
        var retries = 0
        controller.onRetry = { retries += 1 }
        controller.apply(TableModel(), state: .failed(Offline()))
        let cell = listView.visibleCells.first as? ErrorCell
        #expect(cell?.text == "The network is offline")
        #expect(cell?.canRetry == true)
        listView.selectItem(at: ItemPath(row: 0, section: 0))
        #expect(retries == 1)
    }

    @Test func placeholderConfigureHooksAreOverridable() {
        final class SpinnerCell: TextCell { var spinning = false }
        let controller = ListController(diagnostics: .ignore)
        // -configureLoadingCell: of one's own, and another cell for the placeholder.
        controller.register(SpinnerCell.self, for: LoadingPlaceholder.self)
        controller.dispatch.configure(LoadingPlaceholder.self) { (cell: SpinnerCell, _) in
            cell.spinning = true
            cell.text = "Fetching followers"
        }
        controller.dispatch.configure(NoResultsPlaceholder.self) { (cell: NoResultsCell, _) in cell.text = "Nobody follows you yet" }
        let listView = HeadlessListView()
        controller.attach(to: listView)
        let spinner = listView.visibleCells.first as? SpinnerCell
        #expect(spinner?.spinning == true && spinner?.text == "Fetching followers")
        controller.apply(TableModel(), state: .empty)
        #expect(listView.visibleTexts == ["Nobody follows you yet"])
    }

    @Test func aFailedLoadWithContentKeepsTheContent() {
        struct Timeout: Error {}
        let screen = SKFollowerListViewController(users: followers)
        var reported: [String] = []
        screen.controller.onError = { reported.append("\($0)") }
        screen.controller.apply(screen.controller.model, state: .failed(Timeout()))
        #expect(screen.listView.visibleTexts == ["Ada", "Grace", "Bot"])
        #expect(reported.count == 1)
    }
}

@MainActor
@Suite("List views hear about state changes")
struct ContentStateHookTests {
    @Test func aStateChangeThatChangesNoRowReachesTheListView() {
        struct Offline: Error {}
        let controller = ListController(diagnostics: .ignore)
        controller.placeholders.showsRows = false  // placeholders as a background view instead
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel(), state: .loading)
        #expect(listView.lastContentState?.isLoading == true)
        listView.clearLog()
        controller.apply(TableModel(), state: .failed(Offline()))
        #expect(listView.lastContentState?.error is Offline)
        // No row changed, yet the list view was told (and asked to announce the failure).
        #expect(listView.log == [.announced(ListAnnouncement(kind: .failed, message: "Couldn't load the content."))])
    }
}

import CellKit
import CellKitTesting
import Testing

// The Nimbus "Twitter application" example: Tweet names its cell (NICellObject),
// TweetCell updates itself from the tweet (NICell), and the factory is used at each
// level of adoption.

private final class TweetCell: ListCell, UpdatableCell {
    var text = ""
    var updates = 0
    init() {}

    // shouldUpdateCellWithObject:
    func update(with tweet: Tweet) -> Bool {
        updates += 1
        text = tweet.text
        return true
    }
}

private struct Tweet: CellModel, Identifiable, Equatable, Sendable {
    let id: Int
    var text: String
    // - (Class)cellClass { return [TweetCell class]; }
    static var cellSource: CellSource { .type(TweetCell.self) }
}

private let tweets = (0..<50).map { Tweet(id: $0, text: "tweet \($0)") }

/// Level 1: a vanilla data source of the app's own, asking the factory for each cell.
@MainActor
private final class VanillaFeedDataSource: ListViewDataSource {
    let registry = CellRegistry(diagnostics: .ignore)
    func objectAtIndexPath(_ path: ItemPath) -> Tweet { tweets[path.row] }
    func numberOfSections(in listView: any ListView) -> Int { 1 }
    func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int { tweets.count }
    func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject {
        let object = objectAtIndexPath(path)
        return registry.cell(for: object, in: listView, at: path)
    }
}

@MainActor
@Suite("Nimbus feed: the cell factory at each level of adoption")
struct NimbusFeedTests {
    @Test func vanillaDataSource() throws {
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        let dataSource = VanillaFeedDataSource()
        listView.dataSource = dataSource
        listView.reloadData()
        let cells = listView.visibleCells.map { $0 as! TweetCell }
        #expect(cells.map(\.text) == (0..<10).map { "tweet \($0)" })
        #expect(cells.allSatisfy { $0.updates == 1 })
        #expect(dataSource.registry.binding(for: tweets[0]).origin == .modelChoice)
    }

    @Test func tableModelWithDelegateMethod() throws {
        // The model hands the object to a delegate method that calls the factory.
        @MainActor final class FeedController: TableModelCellProvider {
            let registry = CellRegistry(diagnostics: .ignore)
            var calls = 0
            func tableModel(_ model: TableModel, cellFor listView: any ListView, at path: ItemPath, with object: Any) -> AnyObject {
                calls += 1
                return registry.cell(for: object, in: listView, at: path)
            }
        }
        let controller = FeedController()
        let dataSource = TableModelDataSource(TableModel(tweets))
        dataSource.delegate = controller
        let listView = HeadlessListView(viewportHeight: 220, rowHeight: 44)
        listView.dataSource = dataSource
        listView.reloadData()
        #expect(controller.calls == 5)
        #expect(listView.visibleCells.map { ($0 as! TweetCell).text } == (0..<5).map { "tweet \($0)" })
    }

    @Test func factoryAsTheModelsDelegate() throws {
        // _model.delegate = (id)[NICellFactory class];
        let registry = CellRegistry(diagnostics: .ignore)
        let dataSource = TableModelDataSource(TableModel(tweets))
        dataSource.delegate = registry
        let listView = HeadlessListView(viewportHeight: 220, rowHeight: 44)
        listView.dataSource = dataSource
        listView.reloadData()
        #expect(listView.visibleCells.map { ($0 as! TweetCell).text } == (0..<5).map { "tweet \($0)" })
    }

    @Test func updateIsCalledOnCreationAndOnEveryReuse() throws {
        let registry = CellRegistry(diagnostics: .ignore)
        let dataSource = TableModelDataSource(TableModel(tweets))
        dataSource.delegate = registry
        let listView = HeadlessListView(viewportHeight: 220, rowHeight: 44)
        listView.dataSource = dataSource
        listView.reloadData()
        listView.scroll(to: 44 * 20)
        let cells = listView.visibleCells.map { $0 as! TweetCell }
        #expect(cells.map(\.text) == (20..<25).map { "tweet \($0)" })
        // Reused cells were updated once when created and once per reuse.
        #expect(cells.allSatisfy { $0.updates >= 2 })
        #expect(listView.createdCellCount <= 6)
    }

    @Test func explicitMappingWinsOverTheObjectsOwnChoice() throws {
        final class CompactTweetCell: TextCell {}
        let registry = CellRegistry(diagnostics: .ignore)
        registry.register(CompactTweetCell.self, for: Tweet.self) { cell, tweet in cell.text = "compact \(tweet.id)" }
        let listView = HeadlessListView()
        let cell = registry.cell(for: tweets[3], in: listView, at: ItemPath(row: 3, section: 0))
        #expect((cell as? CompactTweetCell)?.text == "compact 3")
        #expect(registry.binding(for: tweets[3]).origin == .registered(.exact))
    }
}

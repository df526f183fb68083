#if canImport(UIKit)
import UIKit
import SwiftUI
import CellKitSwiftUI

/// The Nimbus seed's cell: it updates itself from the tweet it shows (`NICell`'s
/// `shouldUpdateCellWithObject:`), on creation and on every reuse.
final class TweetCell: UITableViewCell, UpdatableCell {
    func update(with tweet: Tweet) -> Bool {
        var content = defaultContentConfiguration()
        content.text = tweet.text
        content.secondaryText = "\(tweet.author) · \(tweet.likes + (tweet.isLiked ? 1 : 0)) likes"
        content.textProperties.numberOfLines = 0
        content.image = UIImage(systemName: tweet.isLiked ? "heart.fill" : "heart")
        contentConfiguration = content
        return true
    }
}

/// The seeds' Twitter feed on a `UITableView`, with one SwiftUI row (`PromoRow`): the tweet names its cell, a loading
/// row while the first page loads (Instant Cocoa's placeholder rows), pull to
/// refresh prepends newer tweets while the row being read stays put, swipe to
/// like or delete, content changes reconfigure the visible cell in place.
final class FeedViewController: UIViewController {
    private let service: FeedService
    private let controller = ListController()
    private lazy var tableView = UITableView(frame: .zero, style: .plain)
    private lazy var adapter = TableViewAdapter(tableView: tableView)
    private var tweets: [Tweet] = []
    private let promo = Promo(id: "swiftui", title: "Rows in SwiftUI", message: "This row is a SwiftUI view in a UITableView cell.")

    init(service: FeedService) {
        self.service = service
        super.init(nibName: nil, bundle: nil)
        title = "Feed"
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("init(coder:) is not supported") }

    override func loadView() { view = tableView }

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.estimatedRowHeight = 72
        tableView.rowHeight = UITableView.automaticDimension

        // Tweet names TweetCell itself (CellModel); only taps need wiring.
        controller.onSelect(Tweet.self) { [weak self] tweet, _ in self?.showDetail(of: tweet) }
        // A SwiftUI view as a cell of this UITableView (UIHostingConfiguration on iOS 16+).
        controller.register(Promo.self) { promo in PromoRow(promo: promo) }
        controller.onRetry = { [weak self] in self?.load() }

        adapter.editing.onDelete(Tweet.self) { [weak self] tweet, _ in self?.remove(tweet) }
        adapter.editing.leadingActions(Tweet.self) { [weak self] tweet, _ in
            [RowAction(title: tweet.isLiked ? "Unlike" : "Like", systemImage: "heart") { _ in
                self?.toggleLike(tweet)
                return true
            }]
        }
        adapter.refreshAction = { [weak self] in await self?.refresh() }

        controller.attach(to: adapter)
        load()
    }

    private func load() {
        controller.setState(.loading)
        Task {
            do {
                tweets = try await service.load()
                controller.apply(feedModel())
            } catch {
                controller.apply(feedModel(), state: .failed(error))
            }
        }
    }

    private func refresh() async {
        do {
            tweets.insert(contentsOf: try await service.refresh(), at: 0)
            controller.apply(feedModel())
        } catch {
            controller.apply(feedModel(), state: .failed(error))  // the content stays
        }
    }

    private func toggleLike(_ tweet: Tweet) {
        guard let index = tweets.firstIndex(where: { $0.id == tweet.id }) else { return }
        tweets[index].isLiked.toggle()
        controller.apply(feedModel())   // an update: the visible cell is reconfigured
    }

    private func remove(_ tweet: Tweet) {
        tweets.removeAll { $0.id == tweet.id }
        controller.apply(feedModel())
    }

    /// The tweets, with the SwiftUI promo row after the third one.
    private func feedModel() -> TableModel {
        var items = tweets.map { ListItem($0) }
        if !items.isEmpty { items.insert(ListItem(promo), at: min(3, items.count)) }
        return TableModel(sections: [TableSection(id: 0, items: items)])
    }

    private func showDetail(of tweet: Tweet) {
        let detail = UIViewController()
        detail.view.backgroundColor = .systemBackground
        detail.title = tweet.author
        let label = UILabel()
        label.text = tweet.text
        label.numberOfLines = 0
        label.translatesAutoresizingMaskIntoConstraints = false
        detail.view.addSubview(label)
        NSLayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: detail.view.layoutMarginsGuide.leadingAnchor),
            label.trailingAnchor.constraint(equalTo: detail.view.layoutMarginsGuide.trailingAnchor),
            label.topAnchor.constraint(equalTo: detail.view.safeAreaLayoutGuide.topAnchor, constant: 16),
        ])
        navigationController?.pushViewController(detail, animated: true)
    }
}
#endif

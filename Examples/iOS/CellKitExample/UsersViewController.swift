#if canImport(UIKit)
import UIKit
import CellKitUIKit

/// A list cell with an avatar that arrives after the row is shown.
final class UserCell: UICollectionViewListCell {
    var avatar: UIImage? {
        didSet { setNeedsUpdateConfiguration() }
    }
    var name = ""
    var byline: String?

    override func updateConfiguration(using state: UICellConfigurationState) {
        var content = defaultContentConfiguration().updated(for: state)
        content.text = name
        content.secondaryText = byline
        content.image = avatar ?? UIImage(systemName: "person.crop.circle")
        contentConfiguration = content
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        avatar = nil
    }
}

/// Coffee's `UserPresenter`: presents a user in a style (with or without the byline),
/// updates the one visible cell whose avatar arrived, and packages taps as events.
struct UserPresenter: Presenter {
    enum Event: Sendable { case selected(User) }

    func present(_ user: User, in cell: UserCell, style: CellStyle, context: PresentationContext<Event>) {
        cell.name = user.name
        cell.byline = style == .withByline ? user.byline : nil
        cell.accessories = [.disclosureIndicator(), .reorder(displayed: .whenEditing)]
        cell.setNeedsUpdateConfiguration()
    }

    func update(_ cell: UserCell, showing user: User, style: CellStyle, resource: ResourceUpdate) {
        guard resource.key == "image", let avatar = resource.value as? Avatar else { return }
        cell.avatar = UIImage(systemName: avatar.symbolName)
    }

    func selected(_ user: User, style: CellStyle) -> Event? { .selected(user) }
}

/// Coffee's users list on a `UICollectionView` with a list layout: the loading and
/// error placeholders are background views (Coffee's loading and error views) with
/// a retry, avatars reach only the visible cell that shows their user, rows can be
/// reordered and swiped.
final class UsersViewController: UIViewController {
    private let service: UserService
    private let controller = ListController()
    private lazy var collectionView = UICollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
    private lazy var adapter = CollectionViewAdapter(collectionView: collectionView)
    private var users: [User] = []

    init(service: UserService) {
        self.service = service
        super.init(nibName: nil, bundle: nil)
        title = "Users"
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("init(coder:) is not supported") }

    override func loadView() { view = collectionView }

    override func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.rightBarButtonItem = editButtonItem
        collectionView.collectionViewLayout = adapter.makeListLayout(appearance: .plain)

        controller.placeholders.showsRows = false           // placeholders as background views
        controller.placeholders.loading.message = "Loading users…"
        controller.addPresenter(UserPresenter(), style: .withByline) { [weak self] event in
            if case .selected(let user) = event { self?.showProfile(of: user) }
        }
        controller.onRetry = { [weak self] in self?.load() }

        adapter.editing.canMove(User.self)
        adapter.editing.onMove = { [weak self] from, to in self?.move(from: from.item, to: to.item) }
        adapter.editing.trailingActions(User.self) { [weak self] user, _ in
            [RowAction(title: "Unfollow", style: .destructive, systemImage: "person.badge.minus") { _ in
                self?.unfollow(user)
                return true
            }]
        }
        adapter.refreshAction = { [weak self] in await self?.reloadUsers() }

        controller.attach(to: adapter)
        load()
    }

    override func setEditing(_ editing: Bool, animated: Bool) {
        super.setEditing(editing, animated: animated)
        collectionView.isEditing = editing
    }

    private func load() {
        controller.setState(.loading)
        adapter.updateBackground()   // a state change with no rows changed
        Task { await reloadUsers() }
    }

    private func reloadUsers() async {
        do {
            users = try await service.loadUsers()
            controller.apply(TableModel(users))
            downloadAvatars(for: users)
        } catch {
            controller.apply(TableModel(users), state: .failed(error))
            adapter.updateBackground()
        }
    }

    private func downloadAvatars(for users: [User]) {
        for user in users {
            Task {
                guard let avatar = try? await service.avatar(for: user) else { return }
                // Coffee's provideResourceToVisibleCells:updatedKey: — nothing is reloaded.
                controller.provideResource(user, key: "image", value: avatar)
            }
        }
    }

    private func move(from: Int, to: Int) {
        let user = users.remove(at: from)
        users.insert(user, at: to)
        controller.apply(TableModel(users))   // the view already moved the row; the adapter only syncs the data
    }

    private func unfollow(_ user: User) {
        users.removeAll { $0.id == user.id }
        controller.apply(TableModel(users))
    }

    private func showProfile(of user: User) {
        let profile = UIViewController()
        profile.view.backgroundColor = .systemBackground
        profile.title = user.name
        navigationController?.pushViewController(profile, animated: true)
    }
}
#endif

#if canImport(UIKit)
import UIKit
import CellKitUIKit

/// Coffee's users list on a `UICollectionView` with a list layout: the loading and
/// error placeholders are background views (Coffee's loading and error views) with
/// a retry, avatars reach only the visible cell that shows their user, rows can be
/// reordered and swiped. Its registrations are `UsersList`'s, shared with the
/// SwiftUI screen.
final class UsersViewController: UIViewController {
    private let service: UserService
    private let controller = ListController()
    private lazy var collectionView = UICollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
    private lazy var adapter = CollectionViewAdapter(collectionView: collectionView)
    private var users: [User] = []
    private var avatars: ResourceLoader<User, Avatar>?

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

        // The same registrations as the SwiftUI screen (UsersScreen).
        avatars = UsersList.register(on: controller, service: service) { [weak self] user in self?.showProfile(of: user) }
        controller.placeholders.showsRows = false           // placeholders as background views
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
            controller.apply(TableModel(users))   // avatars load as rows show (UsersList's ResourceLoader)
        } catch {
            controller.apply(TableModel(users), state: .failed(error))
            adapter.updateBackground()
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

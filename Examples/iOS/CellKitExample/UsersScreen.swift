#if canImport(SwiftUI) && canImport(UIKit)
import SwiftUI
import CellKitSwiftUI

/// The users list's model for the SwiftUI screen: a controller with `UsersList`'s
/// registrations (the same as the UIKit screen's), a remote data source whose first
/// load fails on purpose (the error row offers a retry), and its observable state.
@MainActor
final class UsersScreenModel: ObservableObject {
    let controller = ListController()
    let source: RemoteDataSource<User>
    let list: ObservableListState
    @Published var selected: User?
    private var avatars: ResourceLoader<User, Avatar>?
    private var started = false

    init(service: UserService) {
        source = RemoteDataSource(makeModel: UsersList.alphabetical) { try await service.loadUsers() }
        list = ObservableListState(controller)
        avatars = UsersList.register(on: controller, service: service) { [weak self] user in self?.selected = user }
        // Placeholder rows here (the UIKit screen uses background views); the error
        // row's retry reloads the bound data source.
        controller.bind(to: source)
    }

    /// Starts the first load once, when the screen first appears.
    func start() {
        guard !started else { return }
        started = true
        source.load()
    }

    /// Removes `user` from the list (a swipe action).
    func unfollow(_ user: User) {
        var model = controller.model
        if let path = model.indexPath(of: user) {
            _ = model.remove(at: path)
            controller.apply(model)
        }
    }
}

/// Coffee's users list on the SwiftUI list view (`CellKitList`): the presenter with
/// the byline style, avatars arriving for the visible rows only, A–Z sections with a
/// section index, pull to refresh, a swipe to unfollow, and a first load that fails
/// with a retry row.
struct UsersScreen: View {
    @StateObject private var model: UsersScreenModel

    @MainActor init(service: UserService) {
        _model = StateObject(wrappedValue: UsersScreenModel(service: service))
    }

    var body: some View {
        NavigationView {
            CellKitList(model.controller, appearance: .insetGrouped, sectionHeaders: true)
                .adapter { [model] adapter in
                    adapter.editing.trailingActions(User.self) { user, _ in
                        [RowAction(title: "Unfollow", style: .destructive, systemImage: "person.badge.minus") { _ in
                            model.unfollow(user)
                            return true
                        }]
                    }
                }
                .refreshable { await model.source.refresh().value }
                .ignoresSafeArea(edges: .bottom)
                .navigationTitle("Users (SwiftUI)")
                .toolbar {
                    ToolbarItem(placement: .navigationBarTrailing) { UsersStatus(list: model.list) }
                }
                .sheet(item: $model.selected) { user in
                    VStack(spacing: 8) {
                        Text(user.name).font(.title)
                        Text(user.byline).foregroundColor(.secondary)
                    }
                }
        }
        .onAppear { model.start() }
    }
}

/// The list's state in the toolbar: a spinner while loading or refreshing, else the count.
struct UsersStatus: View {
    @ObservedObject var list: ObservableListState

    var body: some View {
        if list.isLoading || list.isRefreshing {
            ProgressView()
        } else if list.error != nil, list.isEmpty {
            Image(systemName: "exclamationmark.triangle").accessibilityLabel("Loading failed")
        } else {
            Text("\(list.itemCount) users").font(.footnote).foregroundColor(.secondary)
        }
    }
}
#endif

#if canImport(UIKit)
import UIKit
import CellKitUIKit

/// The users list's registrations, shared by the UIKit screen (`UsersViewController`)
/// and the SwiftUI screen (`UsersScreen`): one presenter in the byline style, the
/// placeholder texts, and the avatars as resources that reach only the visible row
/// of their user. A screen calls `register(on:onSelect:)` and binds its data source.
@MainActor
enum UsersList {
    /// Registers the users list's presenter, texts and avatar loader on `controller`.
    /// Returns the loader: keep it alive as long as the screen.
    @discardableResult
    static func register(
        on controller: ListController, service: UserService, onSelect: @escaping @MainActor (User) -> Void
    ) -> ResourceLoader<User, Avatar> {
        controller.placeholders.loading.message = "Loading users…"
        controller.placeholders.loadedAnnouncement = "Users loaded"
        controller.addPresenter(UserPresenter(), style: .withByline) { event in
            if case .selected(let user) = event { onSelect(user) }
        }
        // Coffee's image download, for the rows on screen and near it only.
        let avatars = ResourceLoader<User, Avatar>(key: "image") { user in try await service.avatar(for: user) }
        controller.addResourceLoader(avatars)
        return avatars
    }

    /// The users in A–Z sections with a section index (the SwiftUI screen's layout).
    static func alphabetical(_ users: [User]) -> TableModel {
        let groups = Dictionary(grouping: users) { String($0.name.prefix(1)).uppercased() }
        let sections = groups.keys.sorted().map { letter in
            TableSection(id: SectionID(letter), header: letter, items: groups[letter, default: []].map { ListItem($0) })
        }
        return TableModel(sections: sections, sectionIndexStyle: .alphabetic)
    }
}

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
        accessibilityLabel = [name, byline].compactMap { $0 }.joined(separator: ", ")
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
#endif

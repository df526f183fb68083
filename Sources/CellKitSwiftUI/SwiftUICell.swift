#if canImport(SwiftUI) && canImport(UIKit)
import SwiftUI
import UIKit
import CellKit
import CellKitUIKit

/// A cell that shows a SwiftUI view, on `UITableView` and `UICollectionView` lists alike.
///
/// It is a platform-neutral cell (``ListCell``) like ``TextCell``: the registry
/// builds it, dequeues it from the reuse pool of its source (one pool per view type
/// and style), and configures it with ``show(_:)``; the UIKit adapter hosts it in
/// one of its own cells and asks it to draw itself (``UIKitHostedContent``).
///
/// - On iOS 16 and later it sets the UIKit cell's `contentConfiguration` to a
///   `UIHostingConfiguration` of the view: SwiftUI sizes the row (self-sizing), and a
///   new view for the same cell (a reconfigure when the model's content changed, a
///   resource that arrived) updates the hosted view in place.
/// - On iOS 15, where `UIHostingConfiguration` does not exist, it embeds a
///   `UIHostingController`'s view in the cell's content view, pinned to its edges,
///   and replaces its `rootView` on every update. The hosting controller is not added
///   as a child view controller (a cell has none), so the view gets no
///   appear/disappear callbacks, and the row sizes by the hosting view's intrinsic
///   content size.
///
/// The hosted view's identity is the identity of the model shown (an `Identifiable`
/// model's `id`, given by the registration of `ListController.register(_:style:content:)`,
/// or by a presenter with ``show(_:id:)``): a reconfigure of the same row keeps its
/// SwiftUI state (`@State`, `@StateObject`), and a cell reused for another model starts
/// with fresh state instead of the previous row's (SwiftUI keeps state per view identity,
/// and a reused hosting view has the same structural identity for every model it shows).
/// A view shown without an id keeps the identity the cell had.
///
/// Both paths are type-checked against the iOS 16.4 SDK; neither has run.
///
/// Usually you do not touch it: register a view for a model with
/// `ListController.register(_:style:content:)`. Presenters can use it as their cell:
///
/// ```swift
/// struct UserRow: View { let name: String; var body: some View { Text(name) } }
/// struct User: Identifiable, Sendable { let id: Int; var name: String }
///
/// struct UserRowPresenter: Presenter {
///     func present(_ user: User, in cell: SwiftUICell<UserRow>, style: CellStyle, context: PresentationContext<Never>) {
///         cell.show(UserRow(name: user.name), id: user.id)
///     }
/// }
/// ```
@MainActor
public final class SwiftUICell<Content: View>: ListCell, UIKitHostedContent {
    /// The view shown, once configured.
    public private(set) var view: Content?
    /// Resources delivered for the model shown (see `ListController.register(_:style:content:)`);
    /// cleared when the cell shows another model.
    public internal(set) var resources: [ResourceKey: any Sendable] = [:]
    /// The identity of the model shown, to clear ``resources`` when that changes.
    var modelID: AnyHashable?
    /// iOS 15 only: the hosting controller embedded in the UIKit cell.
    private var legacyHost: UIHostingController<IdentifiedView<Content>>?

    /// Creates an empty cell.
    public init() {}

    /// Shows `view`; the UIKit cell hosting this cell redraws with it.
    ///
    /// - Parameters:
    ///   - view: The view to host.
    ///   - id: The identity of the model `view` shows (a presenter passes its model's
    ///     `id`): shown for another id than before, the hosted view starts with fresh
    ///     SwiftUI state and ``resources`` are cleared; `nil` keeps the identity the cell
    ///     had (the registration of `ListController.register(_:style:content:)` gives it).
    public func show(_ view: Content, id: (any Hashable & Sendable)? = nil) {
        if let id { identify(AnyHashable(id)) }
        self.view = view
    }

    /// Hosts ``view`` in `cell` (see the type's discussion for iOS 15).
    public func render(into cell: UIView) {
        guard let shown = view else { return }
        // The model's identity, so a reused cell does not carry another row's SwiftUI state.
        let view = IdentifiedView(content: shown, id: modelID)
        if #available(iOS 16.0, *) {
            let configuration = UIHostingConfiguration { view }
            if let cell = cell as? UITableViewCell {
                cell.contentConfiguration = configuration
            } else if let cell = cell as? UICollectionViewCell {
                cell.contentConfiguration = configuration
            }
        } else {
            renderWithHostingController(view, into: cell)
        }
    }

    /// iOS 15: a `UIHostingController`'s view pinned inside the cell's content view.
    private func renderWithHostingController(_ view: IdentifiedView<Content>, into cell: UIView) {
        let contentView = (cell as? UITableViewCell)?.contentView ?? (cell as? UICollectionViewCell)?.contentView ?? cell
        if let host = legacyHost, host.view.superview === contentView {
            host.rootView = view
            host.view.invalidateIntrinsicContentSize()
            return
        }
        let host = UIHostingController(rootView: view)
        host.view.backgroundColor = .clear
        host.view.translatesAutoresizingMaskIntoConstraints = false
        contentView.addSubview(host.view)
        NSLayoutConstraint.activate([
            host.view.topAnchor.constraint(equalTo: contentView.topAnchor),
            host.view.bottomAnchor.constraint(equalTo: contentView.bottomAnchor),
            host.view.leadingAnchor.constraint(equalTo: contentView.leadingAnchor),
            host.view.trailingAnchor.constraint(equalTo: contentView.trailingAnchor),
        ])
        legacyHost = host
    }

    /// Forgets the resources of the model shown before when `model` is another one, and
    /// gives the hosted view the model's identity (see the type's discussion).
    func prepare(for model: Any) {
        identify((model as? any Identifiable).map { Self.identity(of: $0) })
    }

    /// Takes `id` as the identity of the model shown; another one clears ``resources``.
    private func identify(_ id: AnyHashable?) {
        if id != modelID || id == nil { resources = [:] }
        modelID = id
    }

    private static func identity<Model: Identifiable>(of model: Model) -> AnyHashable { AnyHashable(model.id) }
}

/// A ``SwiftUICell``'s view with the identity of the model it shows.
struct IdentifiedView<Content: View>: View {
    let content: Content
    let id: AnyHashable?
    var body: some View { content.id(id) }
}
#endif

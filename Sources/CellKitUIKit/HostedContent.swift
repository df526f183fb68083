#if canImport(UIKit)
import UIKit
import CellKit

/// Shows a platform-neutral cell (``/CellKit/TextCell`` and its placeholder cells, or any
/// other object) inside a UIKit cell, so that the registry's default cell and
/// the placeholder rows work on UIKit unchanged.
///
/// The controller configures the neutral cell; the adapter then renders it with
/// ``render``. Replace the adapters' `renderer`
/// (``ListViewAdapter/renderer``) to draw your own.
@MainActor
public struct HostedCellRenderer {
    /// Draws `content` into `cell`.
    public var render: @MainActor (_ content: AnyObject, _ cell: UIView) -> Void

    /// Creates a renderer.
    public init(render: @escaping @MainActor (_ content: AnyObject, _ cell: UIView) -> Void) {
        self.render = render
    }

    /// The default: content that adopts ``UIKitHostedContent`` draws itself (the
    /// SwiftUI module's `SwiftUICell`); a ``/CellKit/TextCell``'s text, detail and accessory as a list content
    /// configuration and its ``/CellKit/TextCell/accessibilityLabel`` as the cell's, a spinner
    /// for a running ``/CellKit/LoadingCell``, any other object's description.
    public static let standard = HostedCellRenderer { content, view in
        if let drawsItself = content as? any UIKitHostedContent {
            drawsItself.render(into: view)
            return
        }
        var configuration = UIListContentConfiguration.subtitleCell()
        var accessory: String?
        var spinning = false
        if let text = content as? TextCell {
            view.accessibilityLabel = text.accessibilityLabel
            configuration.text = text.text
            configuration.secondaryText = text.detailText
            accessory = text.accessory
            spinning = (text as? LoadingCell)?.isAnimating ?? false
            if text is ErrorCell || text is NoResultsCell || text is LoadingCell {
                configuration.textProperties.color = .secondaryLabel
            }
        } else {
            configuration.text = String(describing: content)
        }
        if let cell = view as? UITableViewCell {
            cell.contentConfiguration = configuration
            cell.accessoryType = accessory == nil ? .none : .disclosureIndicator
            cell.accessoryView = spinning ? Self.spinner() : nil
        } else if let cell = view as? UICollectionViewListCell {
            cell.contentConfiguration = configuration
            var accessories: [UICellAccessory] = []
            if accessory != nil { accessories.append(.disclosureIndicator()) }
            if spinning { accessories.append(.customView(configuration: .init(customView: Self.spinner(), placement: .trailing()))) }
            cell.accessories = accessories
        } else if let cell = view as? UICollectionViewCell {
            cell.contentConfiguration = configuration
        }
    }

    private static func spinner() -> UIActivityIndicatorView {
        let spinner = UIActivityIndicatorView(style: .medium)
        spinner.startAnimating()
        return spinner
    }
}

/// A platform-neutral cell that draws itself into the UIKit cell hosting it, on
/// table and collection views alike (the SwiftUI module's `SwiftUICell` hosts a
/// SwiftUI view this way). ``HostedCellRenderer/standard`` calls it after every
/// configure, reconfigure and resource update of the row.
@MainActor
public protocol UIKitHostedContent: AnyObject {
    /// Draws the content into `cell`: a `UITableViewCell` or a `UICollectionViewCell`.
    func render(into cell: UIView)
}

/// A table cell that hosts a platform-neutral cell.
final class HostingTableCell: UITableViewCell, HostingCell {
    var content: AnyObject?

    override func prepareForReuse() {
        super.prepareForReuse()
        (content as? any ListCell)?.prepareForReuse()
    }
}

/// A collection view list cell that hosts a platform-neutral cell.
final class HostingCollectionCell: UICollectionViewListCell, HostingCell {
    var content: AnyObject?

    override func prepareForReuse() {
        super.prepareForReuse()
        (content as? any ListCell)?.prepareForReuse()
    }
}

/// Remembers which UIKit cell hosts which neutral cell, without keeping either alive.
@MainActor
struct HostIndex {
    private final class WeakView { weak var view: UIView?; init(_ view: UIView) { self.view = view } }
    private var hosts: [ObjectIdentifier: WeakView] = [:]

    mutating func remember(_ host: UIView, for content: AnyObject) {
        if hosts.count > 512 { hosts = hosts.filter { $0.value.view != nil } }
        hosts[ObjectIdentifier(content)] = WeakView(host)
    }

    func host(of content: AnyObject) -> UIView? { hosts[ObjectIdentifier(content)]?.view }
}
#endif

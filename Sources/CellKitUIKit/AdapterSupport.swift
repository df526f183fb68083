#if canImport(UIKit)
import UIKit
import CellKit

/// A platform cell that hosts a platform-neutral cell (``/CellKit/TextCell`` and friends).
@MainActor
protocol HostingCell: UIView {
    var content: AnyObject? { get set }
}

/// Small helpers of both adapters.
@MainActor
enum AdapterSupport {
    /// The model shown at `path`, when the data source is a ``/CellKit/ListController`` or a ``TableModelDataSource``.
    static func model(in dataSource: (any ListViewDataSource)?, at path: ItemPath) -> Any? {
        switch dataSource {
        case let controller as ListController: controller.displayed.model(at: path)
        case let tableModel as TableModelDataSource: tableModel.model.model(at: path)
        default: nil
        }
    }

    /// The scroll offset that puts a row whose top is now at `top` back at `distance` below the viewport's top.
    static func anchoredOffset(top: CGFloat, distance: CGFloat, in scrollView: UIScrollView) -> CGPoint {
        let inset = scrollView.adjustedContentInset
        let maxOffset = max(-inset.top, scrollView.contentSize.height + inset.bottom - scrollView.bounds.height)
        return CGPoint(x: scrollView.contentOffset.x, y: min(max(top - distance, -inset.top), maxOffset))
    }
}

/// Runs a pull-to-refresh action once at a time; never removes a control the app installed.
@MainActor
final class RefreshBridge: NSObject {
    var action: (@MainActor () async -> Void)?
    private weak var installed: UIRefreshControl?
    private var task: Task<Void, Never>?

    func install(on scrollView: UIScrollView) {
        guard action != nil else {
            if let installed, scrollView.refreshControl === installed { scrollView.refreshControl = nil }
            return
        }
        // The app's own control (or ours) gets the action; none is replaced.
        let control = scrollView.refreshControl ?? UIRefreshControl()
        // Installed again on every SwiftUI update: the target is added once.
        if control.actions(forTarget: self, forControlEvent: .valueChanged) == nil {
            control.addTarget(self, action: #selector(changed(_:)), for: .valueChanged)
        }
        if scrollView.refreshControl == nil {
            scrollView.refreshControl = control
            installed = control
        }
    }

    /// Shows the data source's activity: spinning while it refreshes, stopped when idle.
    /// `beginRefreshing()` does not move the view, so a refresh started from code (a retry,
    /// `source.refresh()`) also scrolls the spinner into view, by at least the control's
    /// usual height (its frame is stale before it starts: about 0.5 point after a first
    /// refresh, so a titled control's title may then stay partly hidden), where
    /// ``/CellKit/AdapterSizing/refreshRevealOffset(hasWindow:contentOffsetY:topInset:controlHeight:)`` says.
    func reflect(_ activity: ListActivity, on scrollView: UIScrollView) {
        guard let control = scrollView.refreshControl, task == nil else { return }
        if activity == .refreshing, !control.isRefreshing {
            let reveal = AdapterSizing.refreshRevealOffset(
                hasWindow: scrollView.window != nil, contentOffsetY: Double(scrollView.contentOffset.y),
                topInset: Double(scrollView.adjustedContentInset.top), controlHeight: Double(control.frame.height))
            control.beginRefreshing()
            if let reveal { scrollView.setContentOffset(CGPoint(x: scrollView.contentOffset.x, y: CGFloat(reveal)), animated: true) }
        }
        if activity != .refreshing, control.isRefreshing { control.endRefreshing() }
    }

    @objc private func changed(_ control: UIRefreshControl) {
        guard let action, task == nil else { return }
        task = Task { @MainActor [weak self] in
            await action()
            control.endRefreshing()
            self?.task = nil
        }
    }
}
#endif

#if canImport(UIKit)
import UIKit
import CellKit

/// What both UIKit adapters ask their CellKit data source in the same way.
@MainActor
enum AdapterSupport {
    /// The rows per section that `listView`'s data source reports now.
    static func counts(of listView: any ListView) -> [Int] {
        guard let dataSource = listView.dataSource else { return [] }
        return (0..<dataSource.numberOfSections(in: listView)).map { dataSource.listView(listView, numberOfItemsInSection: $0) }
    }

    /// The model shown at `path`, when the data source is a ``/CellKit/ListController`` or a ``TableModelDataSource``.
    static func model(in dataSource: (any ListViewDataSource)?, at path: ItemPath) -> Any? {
        switch dataSource {
        case let controller as ListController: controller.displayed.model(at: path)
        case let tableModel as TableModelDataSource: tableModel.model.model(at: path)
        default: nil
        }
    }

    /// The background view for the controller's placeholder, or `nil` (content showing, or placeholder rows).
    static func backgroundView(
        for dataSource: (any ListViewDataSource)?,
        provider: @MainActor (BackgroundPlaceholder, (@MainActor () -> Void)?) -> UIView
    ) -> UIView? {
        guard let controller = dataSource as? ListController, let placeholder = controller.backgroundPlaceholder else { return nil }
        return provider(placeholder, controller.onRetry)
    }

    /// The scroll offset that puts a row whose top is now at `top` back at `distance` below the viewport's top.
    static func anchoredOffset(top: CGFloat, distance: CGFloat, in scrollView: UIScrollView) -> CGPoint {
        let inset = scrollView.adjustedContentInset
        let maxOffset = max(-inset.top, scrollView.contentSize.height + inset.bottom - scrollView.bounds.height)
        return CGPoint(x: scrollView.contentOffset.x, y: min(max(top - distance, -inset.top), maxOffset))
    }

    /// Whether a batch only reorders rows (what a user's drag already did on screen).
    static func isPureMove(_ changeset: Changeset, oldCounts: [Int], newCounts: [Int]) -> Bool {
        oldCounts == newCounts && !changeset.itemMoves.isEmpty
            && changeset.changeCount == changeset.itemMoves.count + changeset.itemUpdates.count
    }
}

/// Runs a pull-to-refresh action once at a time and stops the spinner when it returns.
@MainActor
final class RefreshBridge: NSObject {
    var action: (@MainActor () async -> Void)?
    private var task: Task<Void, Never>?

    func install(on scrollView: UIScrollView) {
        guard action != nil else {
            scrollView.refreshControl = nil
            return
        }
        guard scrollView.refreshControl == nil else { return }
        let control = UIRefreshControl()
        control.addTarget(self, action: #selector(changed(_:)), for: .valueChanged)
        scrollView.refreshControl = control
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

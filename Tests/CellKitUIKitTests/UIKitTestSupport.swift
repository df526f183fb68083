#if canImport(UIKit)
import CellKit
import CellKitUIKit
import UIKit
import XCTest

// UIKit tests of both adapters on real views in a window. They run on an iOS
// simulator (`.github/workflows/ios.yml`, `xcodebuild test`); on Linux this target is
// empty, and Scripts/ios-typecheck only type-checks these files.

/// A row model: `text` is content (a change reconfigures the row), `id` the identity.
struct Row: Identifiable, Equatable, Sendable {
    let id: Int
    var text: String
}

/// `count` rows with ids `0..<count`.
func rows(_ count: Int, prefix: String = "row") -> [Row] {
    (0..<count).map { Row(id: $0, text: "\(prefix) \($0)") }
}

/// The distinct cells a configure closure saw: how many cells the view built.
@MainActor
final class CellTracker {
    private(set) var cells = Set<ObjectIdentifier>()
    func saw(_ cell: AnyObject) { cells.insert(ObjectIdentifier(cell)) }
}

/// A table cell that remembers the resource delivered to it.
final class RowTableCell: UITableViewCell {
    var avatar: String?
}

/// A collection cell that remembers the resource delivered to it.
final class RowCollectionCell: UICollectionViewListCell {
    var avatar: String?
    var text: String?
}

/// Records what its data source reports for section 0 before and inside every batch (contract 2).
final class SpyTableView: UITableView {
    /// (rows reported before the updates closure, rows reported at its end), per batch.
    var batches: [(before: Int, inside: Int)] = []

    override func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        let before = reportedRows()
        super.performBatchUpdates({
            updates?()
            self.batches.append((before, self.reportedRows()))
        }, completion: completion)
    }

    private func reportedRows() -> Int {
        // Rows only: the adapter's `numberOfSections` would reset the core's cached counts.
        dataSource?.tableView(self, numberOfRowsInSection: 0) ?? 0
    }
}

/// Records what its data source reports for section 0 before and inside every batch (contract 2).
final class SpyCollectionView: UICollectionView {
    /// (items reported before the updates closure, items reported at its end), per batch.
    var batches: [(before: Int, inside: Int)] = []

    override func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        let before = reportedItems()
        super.performBatchUpdates({
            updates?()
            self.batches.append((before, self.reportedItems()))
        }, completion: completion)
    }

    private func reportedItems() -> Int {
        // Items only: the adapter's `numberOfSections` would reset the core's cached counts.
        dataSource?.collectionView(self, numberOfItemsInSection: 0) ?? 0
    }
}

/// The app's own delegate, set as the adapter's `forwardingDelegate` (contract 5).
final class AppDelegateSpy: NSObject, UITableViewDelegate, UICollectionViewDelegate {
    var scrolls = 0
    var highlightQuestions = 0

    func scrollViewDidScroll(_ scrollView: UIScrollView) { scrolls += 1 }

    func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool {
        highlightQuestions += 1
        return true
    }

    func collectionView(_ collectionView: UICollectionView, shouldHighlightItemAt indexPath: IndexPath) -> Bool {
        highlightQuestions += 1
        return true
    }
}

/// A window of a phone's size holding `view` at its full bounds, laid out.
@MainActor
func hostInWindow(_ view: UIView, width: CGFloat = 390, height: CGFloat = 844) -> UIWindow {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: width, height: height))
    let root = UIViewController()
    window.rootViewController = root
    view.frame = window.bounds
    root.view.addSubview(view)
    window.isHidden = false
    window.layoutIfNeeded()
    return window
}

/// The index path of row `row` in section 0.
func path(_ row: Int) -> IndexPath { IndexPath(row: row, section: 0) }

/// Polls `condition` on the main actor, yielding between tries, at most `tries` times (no sleeping).
@MainActor
func poll(tries: Int = 10_000, until condition: () -> Bool) async -> Bool {
    for _ in 0..<tries {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
#endif

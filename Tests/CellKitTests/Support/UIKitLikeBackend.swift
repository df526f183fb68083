import CellKit

/// A fake backend that behaves like `UITableView` towards the real ``ListViewCore``
/// (the platform owns reuse and display) and records what UIKit would be asked
/// to do, and where UIKit would raise an exception.
@MainActor
final class UIKitLikeBackend: ListViewCoreOwner, ListViewBackend {
    enum Call: Hashable, CustomStringConvertible {
        case batch(Changeset, animated: Bool)
        case reconfigure([ItemPath])
        case reload
        case dequeue(reuseIdentifier: String, path: ItemPath)

        var description: String {
            switch self {
            case .batch(let c, let animated): "batch \(c.changeCount) changes\(animated ? "" : " (not animated)")"
            case .reconfigure(let paths): "reconfigure \(paths)"
            case .reload: "reload"
            case .dequeue(let id, let path): "dequeue \(id) at \(path)"
            }
        }
    }

    weak var dataSource: (any ListViewDataSource)?
    weak var delegate: (any ListViewDelegate)?
    lazy var core = ListViewCore(listView: self, backend: self, ownership: .platform)

    var hasWindow = true
    /// How many rows fit on screen (rows are 44 points, the screen starts at the top).
    var screenRows = 12
    /// Whether the table lays out at once after a reload (otherwise on `layoutIfNeeded()`).
    var laysOutAtOnce = true
    /// Whether reconfigured rows get their cells on the next layout pass instead of at once.
    var defersReconfigure = false
    private var reconfigureLater: [ItemPath] = []
    private(set) var calls: [Call] = []
    /// What UIKit would raise (NSInternalInconsistencyException and friends).
    private(set) var crashes: [String] = []
    /// The plan of every batch, in order.
    private(set) var plans: [BatchPlan] = []

    /// UIKit's own cached counts (`nil`: it will ask on its next layout).
    private var tableCounts: [Int]?
    private var pool: [String: [AnyObject]] = [:]
    private var onScreen: [ObjectIdentifier: (cell: AnyObject, path: ItemPath)] = [:]
    private var reuseIDs: [ObjectIdentifier: String] = [:]
    private var isReconfiguring = false
    private var reconfiguringPath: ItemPath?
    /// Cells prepared ahead of display (iOS 15 cell prefetching): configured, not yet displayed.
    private var prepared: [ItemPath: AnyObject] = [:]

    init() {}

    // MARK: ListView (thin forwards, as the UIKit adapters are)


    @discardableResult
    func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) -> BatchOutcome {
        let outcome = core.performBatchUpdates(changeset, updateData: updateData)
        if case .refused = outcome {} else if let plan = core.lastPlan { plans.append(plan) }
        if outcome == .animated { layout() }
        return outcome
    }

    // MARK: ListViewBackend

    func performBatch(animated: Bool, _ body: () -> Changeset) {
        // UIKit reads its counts now if it has none cached: data already switched would read as "before".
        let before = tableCounts ?? core.reportedCounts()
        if core.reportedCounts() != before {
            crashes.append("data changed before performBatchUpdates: \(core.reportedCounts()) vs cached \(before)")
        }
        let batch = body()
        let after = core.reportedCounts()
        if let error = batch.validationError(oldCounts: before, newCounts: after) {
            crashes.append("performBatchUpdates: \(error)")
        }
        tableCounts = after
        calls.append(.batch(batch, animated: animated))
        // Prepared cells follow their rows; those of deleted rows are dropped.
        let mapping = core.batchMapping ?? PathMapping(batch, oldCounts: before, newCounts: after)
        var moved: [ItemPath: AnyObject] = [:]
        for (path, cell) in prepared { if let new = mapping.newPath(of: path) { moved[new] = cell } }
        prepared = moved
    }

    /// UIKit's cell prefetching: asks the data source for the cell of `path` ahead of
    /// display and keeps it; it is displayed as it is when the row comes on screen.
    @discardableResult
    func prepareCell(at path: ItemPath) -> AnyObject? {
        guard let cell = core.cellForItem(at: path) else { return nil }
        prepared[path] = cell
        return cell
    }

    func reconfigureItems(at paths: [ItemPath]) {
        calls.append(.reconfigure(paths))
        if defersReconfigure {
            reconfigureLater += paths
            return
        }
        askReconfigured(paths)
    }

    private func askReconfigured(_ paths: [ItemPath]) {
        isReconfiguring = true
        for path in paths {
            guard let shown = core.cell(at: path) ?? prepared[path] else { continue }
            reconfiguringPath = path
            defer { reconfiguringPath = nil }
            // UIKit asks cellForRowAt and requires the same cell back.
            if let cell = core.cellForItem(at: path), cell !== shown {
                crashes.append("reconfigure at \(path) returned another cell")
            }
        }
        isReconfiguring = false
    }

    func reloadAll() {
        calls.append(.reload)
        prepared = [:]
        tableCounts = nil
        if laysOutAtOnce { layoutIfNeeded() }
    }

    func viewportOffset(ofItemAt path: ItemPath) -> Double? { Double(flatIndex(path) ?? 0) * 44 }
    func scrollItem(at path: ItemPath, toViewportOffset offset: Double) {}

    func makeCell(_ source: CellSource, for path: ItemPath) -> AnyObject {
        calls.append(.dequeue(reuseIdentifier: source.reuseIdentifier, path: path))
        // Dequeuing with the index path of a row being reconfigured hands back its existing cell.
        if isReconfiguring, reconfiguringPath == path, let cell = prepared[path] { return cell }
        if isReconfiguring { crashes.append("a new cell was dequeued while reconfiguring \(path)") }
        if var cells = pool[source.reuseIdentifier], let cell = cells.popLast() {
            pool[source.reuseIdentifier] = cells
            (cell as? any ListCell)?.prepareForReuse()
            return cell
        }
        let cell = source.make?() ?? TextCell()
        reuseIDs[ObjectIdentifier(cell)] = source.reuseIdentifier
        return cell
    }

    // MARK: Layout (UIKit's layout pass)

    /// Reads the counts if a reload left them stale, then shows the first `screenRows` rows.
    func layoutIfNeeded() {
        if tableCounts == nil { tableCounts = core.readCounts() }
        let later = reconfigureLater
        reconfigureLater = []
        askReconfigured(later)
        layout()
    }

    private func layout() {
        var wanted: [ItemPath] = []
        for (section, count) in core.counts.enumerated() {
            for item in 0..<count where wanted.count < screenRows { wanted.append(ItemPath(item: item, section: section)) }
        }
        let wantedSet = Set(wanted)
        // Cells the core no longer shows (deleted rows, a reload) or that scrolled away end display.
        for (id, entry) in onScreen {
            let current = core.visibleItemPaths.first { core.cell(at: $0) === entry.cell }
            if current == nil || !wantedSet.contains(current!) {
                core.didEndDisplaying(entry.cell, at: current ?? entry.path)
                onScreen[id] = nil
                pool[reuseIDs[id] ?? "", default: []].append(entry.cell)
            } else {
                onScreen[id] = (entry.cell, current!)
            }
        }
        for path in wanted where core.cell(at: path) == nil {
            // A prepared cell is displayed as it is, without asking the data source again.
            guard let cell = prepared.removeValue(forKey: path) ?? core.cellForItem(at: path) else { continue }
            core.willDisplay(cell, at: path)
            onScreen[ObjectIdentifier(cell)] = (cell, path)
        }
    }

    private func flatIndex(_ path: ItemPath) -> Int? {
        guard path.section < core.counts.count else { return nil }
        return core.counts[..<path.section].reduce(0, +) + path.item
    }
}

import CellKit

/// A fake backend that behaves like `UITableView` towards the real ``ListViewCore``
/// (the platform owns reuse and display) and records what UIKit would be asked
/// to do, and where UIKit would raise an exception.
@MainActor
final class UIKitLikeBackend: ListViewCoreOwner, ListViewBackend {
    enum Call: Hashable, CustomStringConvertible {
        case batch(Changeset, animated: Bool)
        case reconfigure([ItemPath])
        /// The layout update an adapter asks after an app's reconfigure (an empty `performBatchUpdates`).
        case measure([ItemPath])
        case reload
        case dequeue(reuseIdentifier: String, path: ItemPath)

        var description: String {
            switch self {
            case .batch(let c, let animated): "batch \(c.changeCount) changes\(animated ? "" : " (not animated)")"
            case .reconfigure(let paths): "reconfigure \(paths)"
            case .measure(let paths): "measure \(paths)"
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
    /// The first row on screen (flat index over the sections): scrolling.
    var firstRow = 0
    /// Whether a reconfigure asks the data source even for rows the table has no cell for
    /// (UIKit skips them; this checks what the core would hand out if it did not).
    var asksForRowsWithoutCells = false
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
        if let move = Self.sectionMoveWithRowChanges(batch) {
            crashes.append("performBatchUpdates: section \(move.from) moves to \(move.to) while rows in it change (UICollectionView raises or corrupts its heap)")
        }
        tableCounts = after
        calls.append(.batch(batch, animated: animated))
        // Prepared cells follow their rows; those of deleted rows are dropped.
        let mapping = core.batchMapping ?? PathMapping(batch, oldCounts: before, newCounts: after)
        var moved: [ItemPath: AnyObject] = [:]
        for (path, cell) in prepared { if let new = mapping.newPath(of: path) { moved[new] = cell } }
        prepared = moved
    }

    /// A section move in `batch` whose section also has rows deleted (old index), inserted
    /// (new index) or moved out of or into it: `UICollectionView` raises ("attempt to perform
    /// an insert and a move to the same section") or corrupts its heap (IGListKit #690, #691).
    nonisolated static func sectionMoveWithRowChanges(_ batch: Changeset) -> Move<Int>? {
        batch.sectionMoves.first { move in
            batch.itemDeletes.contains { $0.section == move.from } || batch.itemInserts.contains { $0.section == move.to }
                || batch.itemMoves.contains { $0.from.section == move.from || $0.to.section == move.to }
        }
    }

    /// UIKit's cell prefetching: asks the data source for the cell of `path` ahead of
    /// display and keeps it; it is displayed as it is when the row comes on screen.
    @discardableResult
    func prepareCell(at path: ItemPath) -> AnyObject? {
        guard core.cell(at: path) == nil, prepared[path] == nil, let cell = askCell(at: path) else { return nil }
        checkHandOut(cell, for: path)
        prepared[path] = cell
        return cell
    }

    /// A cell the data source handed out for a row the table had no cell for must be
    /// a cell the table does not hold: not shown or prepared for another row, not in its pool.
    private func checkHandOut(_ cell: AnyObject, for path: ItemPath) {
        if let other = heldCells.first(where: { $0.cell === cell }) {
            crashes.append("the cell handed out for \(path) is held for \(other.path)")
        }
        if pool.values.contains(where: { $0.contains { $0 === cell } }) {
            crashes.append("the cell handed out for \(path) is in the reuse pool")
        }
    }

    /// UIKit gives up a cell it prepared for `path` (the scroll turned back): into the
    /// reuse pool, without telling the data source. Returns the cell.
    @discardableResult
    func discardPreparedCell(at path: ItemPath) -> AnyObject? {
        guard let cell = prepared.removeValue(forKey: path) else { return nil }
        pool[reuseIDs[ObjectIdentifier(cell)] ?? "", default: []].append(cell)
        return cell
    }

    /// The rows the table prepared a cell for and does not display yet.
    var preparedItemPaths: [ItemPath] { prepared.keys.sorted() }

    /// The cell the table prepared for `path`, if any.
    func preparedCell(at path: ItemPath) -> AnyObject? { prepared[path] }

    /// Every cell the table holds for a row (displayed or prepared) with its row.
    var heldCells: [(path: ItemPath, cell: AnyObject)] {
        onScreen.values.map { ($0.path, $0.cell) } + prepared.map { ($0.key, $0.value) }
    }

    /// As `ListViewAdapter.reconfigureItems(at:)`: the core decides; the rows are reconfigured
    /// (`reconfigureRows(at:)`), then measured by an empty `performBatchUpdates`, for which
    /// UIKit checks its cached counts against the data source's as for any batch.
    func reconfigureItems(at paths: [ItemPath]) {
        // An app's call keeps UIKit's hand-back of the shown cells when its configure waits.
        let handsBack = handsBackShownCells
        core.reconfigure(paths, configure: { [unowned self] rows in
            let before = handsBackShownCells
            handsBackShownCells = handsBack
            platformReconfigure(rows)
            handsBackShownCells = before
        }, measureAgain: { [unowned self] rows in
            calls.append(.measure(rows))
            let before = tableCounts ?? core.reportedCounts()
            if core.reportedCounts() != before {
                crashes.append("empty performBatchUpdates: the data source reports \(core.reportedCounts()) rows, the table has \(before) (Invalid update: invalid number of rows)")
            }
            tableCounts = core.reportedCounts()
            layout()
        })
    }

    private func platformReconfigure(_ paths: [ItemPath]) {
        if let asked = askedPath {
            crashes.append("reconfigureRows(at: \(paths)) while the table asks for the cell of \(asked): UIKit would ask for cells inside its own request (\"Expected dequeued view to be returned to the collection view\")")
        }
        calls.append(.reconfigure(paths))
        if defersReconfigure {
            reconfigureLater += paths
            return
        }
        askReconfigured(paths)
    }

    /// An app's reconfigure (`TableViewAdapter.reconfigureItems(at:)` called by the app):
    /// UIKit's dequeue for a row it reconfigures hands back the cell it shows there.
    func appReconfigures(_ paths: [ItemPath]) {
        let before = handsBackShownCells
        handsBackShownCells = true
        reconfigureItems(at: paths)
        handsBackShownCells = before
    }

    private var handsBackShownCells = false

    /// The row whose cell the table is asking for (`cellForRowAt` under way), if any.
    private var askedPath: ItemPath?

    /// UIKit's `cellForRowAt`, as the adapters answer it: one layout pass of the core.
    private func askCell(at path: ItemPath) -> AnyObject? {
        let outer = askedPath
        askedPath = path
        defer { askedPath = outer }
        var cell: AnyObject?
        core.layingOut { cell = core.cellForItem(at: path) }
        return cell
    }

    private func askReconfigured(_ paths: [ItemPath]) {
        isReconfiguring = true
        for path in paths {
            let shown = core.cell(at: path) ?? prepared[path]
            guard shown != nil || asksForRowsWithoutCells else { continue }
            reconfiguringPath = shown == nil ? nil : path
            defer { reconfiguringPath = nil }
            // UIKit asks cellForRowAt and requires the same cell back.
            guard let cell = askCell(at: path) else { continue }
            if let shown {
                if cell !== shown { crashes.append("reconfigure at \(path) returned another cell") }
            } else {
                checkHandOut(cell, for: path)
                prepared[path] = cell
            }
        }
        isReconfiguring = false
    }

    func reloadAll() {
        calls.append(.reload)
        // A reload drops the prepared cells into the reuse pool.
        for (_, cell) in prepared { pool[reuseIDs[ObjectIdentifier(cell)] ?? "", default: []].append(cell) }
        prepared = [:]
        tableCounts = nil
        if laysOutAtOnce { layoutIfNeeded() }
    }

    func viewportOffset(ofItemAt path: ItemPath) -> Double? { Double(flatIndex(path) ?? 0) * 44 }
    func scrollItem(at path: ItemPath, toViewportOffset offset: Double) {}

    func makeCell(_ source: CellSource, for path: ItemPath) -> AnyObject {
        calls.append(.dequeue(reuseIdentifier: source.reuseIdentifier, path: path))
        // Dequeuing with the index path of a row being reconfigured hands back its existing cell;
        // a template (a table cell with a style, no class registered) is dequeued by identifier
        // alone, which cannot: it gets a pooled or new cell.
        if isReconfiguring, reconfiguringPath == path, source.kind != .template, let cell = prepared[path] { return cell }
        if isReconfiguring, reconfiguringPath == path, handsBackShownCells, let cell = core.cell(at: path) { return cell }
        if isReconfiguring, reconfiguringPath == path { crashes.append("a new cell was dequeued while reconfiguring \(path)") }
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

    /// Lays the screen out again (after scrolling with `firstRow` or `screenRows`).
    func layout() {
        var wanted: [ItemPath] = []
        var flat = 0
        for (section, count) in core.counts.enumerated() {
            for item in 0..<count {
                if flat >= firstRow, wanted.count < screenRows { wanted.append(ItemPath(item: item, section: section)) }
                flat += 1
            }
        }
        let wantedSet = Set(wanted)
        // Cells the core no longer shows (deleted rows, a reload) or that scrolled away end display.
        for (id, entry) in onScreen {
            let current = core.visibleItemPaths.first { core.cell(at: $0) === entry.cell }
            if current == nil || !wantedSet.contains(current!) {
                core.layingOut { core.didEndDisplaying(entry.cell, at: current ?? entry.path) }
                onScreen[id] = nil
                pool[reuseIDs[id] ?? "", default: []].append(entry.cell)
            } else {
                onScreen[id] = (entry.cell, current!)
            }
        }
        for path in wanted where core.cell(at: path) == nil {
            // A prepared cell is displayed as it is, without asking the data source again.
            let kept = prepared.removeValue(forKey: path)
            guard let cell = kept ?? askCell(at: path) else { continue }
            if kept == nil { checkHandOut(cell, for: path) }
            core.layingOut { core.willDisplay(cell, at: path) }
            onScreen[ObjectIdentifier(cell)] = (cell, path)
        }
    }

    private func flatIndex(_ path: ItemPath) -> Int? {
        guard path.section < core.counts.count else { return nil }
        return core.counts[..<path.section].reduce(0, +) + path.item
    }
}

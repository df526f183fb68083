import CellKit

/// A list view with `UITableView`'s semantics that runs anywhere, for tests of
/// screens without a simulator.
///
/// It keeps a reuse pool per reuse identifier, asks its data source for cells
/// only for rows inside its viewport, scrolls, selects, checks every batch
/// update with UIKit's rules (throwing `BatchUpdateError` naming the rule,
/// section and row instead of crashing), and records what happened in ``log``.
///
/// ```swift
/// struct Note: Identifiable, Equatable, Sendable { let id: Int; var text: String }
///
/// @MainActor func showNotes() {
///     let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
///     let controller = ListController()
///     controller.register(TextCell.self, for: Note.self) { cell, note in cell.text = note.text }
///     controller.attach(to: listView)
///     controller.apply(TableModel((0..<1000).map { Note(id: $0, text: "note \($0)") }))
///     assert(listView.visibleItemPaths.count == 10)
///     assert(listView.createdCellCount <= 12)
/// }
/// ```
@MainActor
public final class HeadlessListView: ListView {
    /// Something the list view did, in order.
    public enum Event: Hashable, Sendable, CustomStringConvertible {
        /// A new cell was built for `reuseIdentifier` at `path`.
        case created(reuseIdentifier: String, path: ItemPath)
        /// A cell was taken from the reuse pool for `path`.
        case dequeued(reuseIdentifier: String, path: ItemPath)
        /// The data source handed back the configured cell for `path`.
        case configured(ItemPath)
        /// The row at `path` came on screen.
        case displayed(ItemPath)
        /// The row at `path` left the screen; its cell went to the pool.
        case endedDisplay(ItemPath)
        /// A visible cell was reconfigured in place (its content changed).
        case reconfigured(ItemPath)
        /// A visible cell was updated in place with a resource.
        case resourceUpdated(ItemPath, key: ResourceKey)
        /// A batch update was applied.
        case batch(Changeset)
        /// A batch update was refused; the list reloaded.
        case rejected(BatchUpdateError)
        /// The list reloaded everything.
        case reloaded
        /// The row at `path` was selected.
        case selected(ItemPath)
        /// The controller asked for an announcement to assistive technologies.
        case announced(ListAnnouncement)

        public var description: String {
            switch self {
            case .created(let id, let p): "created \(id) at \(p)"
            case .dequeued(let id, let p): "dequeued \(id) at \(p)"
            case .configured(let p): "configured \(p)"
            case .displayed(let p): "displayed \(p)"
            case .endedDisplay(let p): "ended display \(p)"
            case .reconfigured(let p): "reconfigured \(p)"
            case .resourceUpdated(let p, let key): "resource \(key) at \(p)"
            case .batch(let c): "batch of \(c.changeCount) changes"
            case .rejected(let e): "rejected: \(e)"
            case .reloaded: "reloaded"
            case .selected(let p): "selected \(p)"
            case .announced(let a): a.description
            }
        }
    }

    public weak var dataSource: (any ListViewDataSource)?
    public weak var delegate: (any ListViewDelegate)?

    /// The height of the visible window.
    public var viewportHeight: Double { didSet { layoutVisibleRows() } }
    /// The height of rows whose delegate gives none.
    public var rowHeight: Double
    /// The height of a section header that has a title (0: headers take no space).
    public var sectionHeaderHeight: Double
    /// How many rows beyond each edge of the viewport are announced for prefetching.
    public var prefetchDistance: Int
    /// Whether a batch update keeps the first visible row where it was on screen
    /// (``/CellKit/ScrollAnchor``), as chat and feed screens do; otherwise the content
    /// offset stays, as in `UITableView`. Default: `false`.
    public var keepsFirstVisibleRowInPlace = false
    /// The distance scrolled from the top.
    public private(set) var contentOffset: Double = 0
    /// What happened, in order; clear it with ``clearLog()``.
    public private(set) var log: [Event] = []
    /// Whether events are recorded (turn off for very long scrolls).
    public var isLoggingEnabled = true
    /// Cells built, per reuse identifier.
    public private(set) var createdCells: [String: Int] = [:]

    private var counts: [Int] = []
    private var layout = Layout()
    private var visible: [ItemPath: AnyObject] = [:]
    private var pools: [String: [AnyObject]] = [:]
    private var sources: [String: CellSource] = [:]
    private var reconfiguring: (path: ItemPath, cell: AnyObject)?
    private var prefetched: Set<ItemPath> = []

    /// Creates a list view with a viewport of `viewportHeight` and rows of `rowHeight` by default.
    public init(viewportHeight: Double = 600, rowHeight: Double = 44, sectionHeaderHeight: Double = 0, prefetchDistance: Int = 0) {
        self.viewportHeight = viewportHeight
        self.rowHeight = rowHeight
        self.sectionHeaderHeight = sectionHeaderHeight
        self.prefetchDistance = prefetchDistance
    }

    // MARK: ListView

    public func register(_ source: CellSource) {
        sources[source.reuseIdentifier] = source
    }

    public func dequeueReusableCell(_ source: CellSource, for path: ItemPath) -> AnyObject {
        if let pending = reconfiguring, pending.path == path, type(of: pending.cell) == source.cellType {
            reconfiguring = nil
            return pending.cell
        }
        let id = source.reuseIdentifier
        if sources[id] == nil { register(source) }
        if var pool = pools[id], let cell = pool.popLast() {
            pools[id] = pool
            (cell as? TextCell)?.prepareForReuse()
            record(.dequeued(reuseIdentifier: id, path: path))
            return cell
        }
        createdCells[id, default: 0] += 1
        record(.created(reuseIdentifier: id, path: path))
        // A nib cannot be loaded here: show a plain cell so the test goes on.
        let cell = source.make?() ?? TextCell()
        reuseIdentifiers[ObjectIdentifier(cell)] = id
        return cell
    }

    public var visibleItemPaths: [ItemPath] { visible.keys.sorted() }

    public func cell(at path: ItemPath) -> AnyObject? { visible[path] }

    public func reloadData() {
        for (path, cell) in visible { endDisplay(cell, at: path) }
        visible.removeAll()
        counts = currentCounts()
        rebuildLayout()
        contentOffset = clampedOffset(contentOffset)
        record(.reloaded)
        layoutVisibleRows()
    }

    public func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) throws {
        let oldCounts = counts
        updateData()
        let newCounts = currentCounts()
        do {
            try changeset.validate(oldCounts: oldCounts, newCounts: newCounts)
        } catch {
            record(.rejected(error))
            reloadData()
            throw error
        }
        record(.batch(changeset))
        // Only the visible rows need following: O(changes + sections), not O(rows).
        let mapping = PathMapping(changeset, oldCounts: oldCounts, newCounts: newCounts)
        let updated = Set(changeset.itemUpdates)
        var survivors: [ItemPath: (cell: AnyObject, old: ItemPath)] = [:]
        for (old, cell) in visible {
            // Rows of deleted or reloaded sections get new cells, as in UIKit.
            if let new = mapping.newPath(of: old) {
                survivors[new] = (cell, old)
            } else {
                endDisplay(cell, at: old)
            }
        }
        let anchorRows = keepsFirstVisibleRowInPlace ? visible.keys.sorted() : []
        let oldTops = Dictionary(uniqueKeysWithValues: anchorRows.map { ($0, offset(ofItemAt: $0) ?? 0) })
        visible.removeAll()
        counts = newCounts
        rebuildLayout()
        if keepsFirstVisibleRowInPlace {
            contentOffset = ScrollAnchor.contentOffset(
                after: changeset, oldCounts: oldCounts, newCounts: newCounts, visibleRows: anchorRows,
                oldContentOffset: contentOffset, oldTop: { oldTops[$0] ?? 0 }, newTop: { self.offset(ofItemAt: $0) ?? 0 })
        }
        contentOffset = clampedOffset(contentOffset)
        for (new, entry) in survivors { visible[new] = entry.cell }
        // Content changes of rows that stay on screen: reconfigure the same cell.
        for (new, entry) in survivors where updated.contains(entry.old) {
            reconfiguring = (new, entry.cell)
            if let cell = dataSource?.listView(self, cellForItemAt: new) {
                visible[new] = cell
                if cell !== entry.cell { enqueue(entry.cell) }
            }
            reconfiguring = nil
            record(.reconfigured(new))
        }
        layoutVisibleRows()
    }

    /// The content state the controller reported after its last apply, if any.
    public private(set) var lastContentState: ContentState?

    public func contentStateDidChange(_ state: ContentState) { lastContentState = state }

    /// The announcements made so far, in order (also in ``log`` as ``Event/announced(_:)``).
    public private(set) var announcements: [ListAnnouncement] = []

    public func announce(_ announcement: ListAnnouncement) {
        announcements.append(announcement)
        record(.announced(announcement))
    }

    public func cellDidChange(at path: ItemPath, reason: CellChangeReason) {
        switch reason {
        case .reconfigured: record(.reconfigured(path))
        case .resource(let key): record(.resourceUpdated(path, key: key))
        }
    }

    // MARK: Driving it

    /// Scrolls so the top of the viewport is `offset` from the top of the content (clamped).
    public func scroll(to offset: Double) {
        contentOffset = clampedOffset(offset)
        layoutVisibleRows()
    }

    /// Scrolls by `delta` (positive: down).
    public func scroll(by delta: Double) { scroll(to: contentOffset + delta) }

    /// Scrolls so that the row at `path` is at the top of the viewport.
    public func scrollToItem(at path: ItemPath) {
        guard let flat = layout.flatIndex(of: path) else { return }
        scroll(to: layout.top(ofRow: flat))
    }

    /// Selects the row at `path`, as a tap would.
    public func selectItem(at path: ItemPath) {
        record(.selected(path))
        delegate?.listView(self, didSelectItemAt: path)
    }

    /// The total height of all rows and headers.
    public var contentHeight: Double { layout.contentHeight }

    /// The distance from the top of the content to the top of the row at `path`.
    public func offset(ofItemAt path: ItemPath) -> Double? {
        layout.flatIndex(of: path).map { layout.top(ofRow: $0) }
    }

    /// The number of rows in each section, as the list view knows them.
    public var sectionCounts: [Int] { counts }

    /// The number of cells built so far, all reuse identifiers together.
    public var createdCellCount: Int { createdCells.values.reduce(0, +) }

    /// The cells on screen, top to bottom.
    public var visibleCells: [AnyObject] { visibleItemPaths.compactMap { visible[$0] } }

    /// The text of the visible ``/CellKit/TextCell``s, top to bottom (other cells show as their type name).
    public var visibleTexts: [String] {
        visibleCells.map { ($0 as? TextCell)?.text ?? String(describing: type(of: $0)) }
    }

    /// The accessibility labels of the visible ``/CellKit/TextCell``s, top to bottom: what
    /// VoiceOver would read on a UIKit list view (other cells show as their type name).
    public var visibleAccessibilityLabels: [String] {
        visibleCells.map { ($0 as? TextCell)?.accessibilityLabel ?? String(describing: type(of: $0)) }
    }

    /// Forgets the recorded events.
    public func clearLog() { log.removeAll() }

    /// Checks that the list view agrees with its data source: section and row counts,
    /// and a cell for every visible row. Throws a message naming what disagrees.
    public func checkConsistency() throws(HeadlessListViewInconsistency) {
        let actual = currentCounts()
        guard actual == counts else {
            throw HeadlessListViewInconsistency(message: "the list view has row counts \(counts) but its data source reports \(actual)")
        }
        for path in visible.keys where path.section >= counts.count || path.item >= counts[path.section] {
            throw HeadlessListViewInconsistency(message: "a cell is visible at section \(path.section), row \(path.item), which does not exist")
        }
    }

    // MARK: Internals

    private func record(_ event: Event) {
        if isLoggingEnabled { log.append(event) }
    }

    private func currentCounts() -> [Int] {
        guard let dataSource else { return [] }
        return (0..<dataSource.numberOfSections(in: self)).map { dataSource.listView(self, numberOfItemsInSection: $0) }
    }

    private func rebuildLayout() {
        var heights = [Double]()
        heights.reserveCapacity(counts.reduce(0, +))
        var headers = [Double]()
        for (section, count) in counts.enumerated() {
            let title = dataSource?.listView(self, titleForHeaderInSection: section)
            headers.append(title == nil ? 0 : sectionHeaderHeight)
            for item in 0..<count {
                heights.append(delegate?.listView(self, heightForItemAt: ItemPath(item: item, section: section)) ?? rowHeight)
            }
        }
        layout = Layout(counts: counts, rowHeights: heights, headerHeights: headers)
    }

    private func clampedOffset(_ offset: Double) -> Double {
        max(0, min(offset, layout.contentHeight - viewportHeight))
    }

    private func layoutVisibleRows() {
        let range = layout.rows(from: contentOffset, to: contentOffset + viewportHeight)
        var wanted = Set<ItemPath>()
        for flat in range { wanted.insert(layout.path(ofRow: flat)) }
        for (path, cell) in visible where !wanted.contains(path) {
            visible[path] = nil
            endDisplay(cell, at: path)
        }
        for path in wanted.sorted() where visible[path] == nil {
            guard let cell = dataSource?.listView(self, cellForItemAt: path) else { continue }
            record(.configured(path))
            visible[path] = cell
            record(.displayed(path))
            delegate?.listView(self, willDisplay: cell, at: path)
        }
        announcePrefetch(around: range)
    }

    private func announcePrefetch(around range: Range<Int>) {
        guard prefetchDistance > 0, let delegate else { return }
        let lower = max(0, range.lowerBound - prefetchDistance)
        let upper = min(layout.rowCount, range.upperBound + prefetchDistance)
        var near = Set<ItemPath>()
        for flat in lower..<upper where !range.contains(flat) { near.insert(layout.path(ofRow: flat)) }
        let fresh = near.subtracting(prefetched).sorted()
        let stale = prefetched.subtracting(near).sorted()
        prefetched = near
        if !stale.isEmpty { delegate.listView(self, cancelPrefetchingItemsAt: stale) }
        if !fresh.isEmpty { delegate.listView(self, prefetchItemsAt: fresh) }
    }

    private func endDisplay(_ cell: AnyObject, at path: ItemPath) {
        record(.endedDisplay(path))
        delegate?.listView(self, didEndDisplaying: cell, at: path)
        enqueue(cell)
    }

    private func enqueue(_ cell: AnyObject) {
        let id = reuseIdentifiers[ObjectIdentifier(cell)] ?? String(reflecting: type(of: cell))
        pools[id, default: []].append(cell)
    }

    /// The reuse identifier each cell was built for (cells stay alive in `visible` or a pool).
    private var reuseIdentifiers: [ObjectIdentifier: String] = [:]
}

/// The list view disagrees with its data source (see ``HeadlessListView/checkConsistency()``).
public struct HeadlessListViewInconsistency: Error, CustomStringConvertible {
    /// What disagrees.
    public let message: String
    public var description: String { message }
}

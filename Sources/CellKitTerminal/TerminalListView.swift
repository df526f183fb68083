import CellKit

/// A list view for terminals, a peer of `UITableView` behind the ``/CellKit/ListView`` protocol.
///
/// It pulls counts and cells from its data source, builds cells only for the
/// rows on screen (reusing them by reuse identifier), asks its delegate for row
/// heights in lines, keeps the header of the section at the top pinned while
/// that section scrolls, highlights the selected row, and renders a frame of
/// styled lines of exactly its size. It does no input or output itself: a
/// ``TerminalApp`` drives it on a real terminal, and tests drive it directly.
///
/// As `UITableView` does, it reads its data source at its first layout (its first frame,
/// resize or key) when nothing reloaded it before; after that, only ``/CellKit/ListView/reloadData()``
/// and batches read it again (a ``/CellKit/ListController`` reloads it in `attach(to:)`).
///
/// ```swift
/// import CellKit
/// import CellKitTerminal
///
/// @MainActor func firstFrame(dataSource: any ListViewDataSource) -> [String] {
///     let list = TerminalListView(columns: 40, rows: 10)
///     list.dataSource = dataSource
///     list.reloadData()
///     return list.renderFrame().map { $0.plainText }
/// }
/// ```
@MainActor
public final class TerminalListView: ListViewCoreOwner, ListViewBackend {
    /// Who answers counts and cells; held weakly.
    public weak var dataSource: (any ListViewDataSource)?
    /// Who hears about heights, selection and display; held weakly.
    public weak var delegate: (any ListViewDelegate)?

    /// The width of the list, in columns.
    public internal(set) var columns: Int
    /// The height of the list, in lines.
    public internal(set) var rows: Int

    /// The selected row, if any; moved by the navigation keys.
    ///
    /// It follows its row through batch updates. When its row is deleted, the selectable
    /// row now at that place is selected: the row after the nearest row above it that
    /// stays (a row inserted in its place, such as the first row of the page that replaces
    /// the load-more row, or else the one that was after it), or the last one; after a
    /// reload, the row at the same place. A row deleted and inserted again before the next
    /// frame (moved into a new section, or in a section moved while its rows changed, in
    /// the stages of one apply) is found again by its identity (the data source's
    /// `ListViewDataSource.listView(_:identityOfItemAt:)`) and stays selected.
    public internal(set) var selectedPath: ItemPath? {
        didSet { if !followingBatch { lostSelection = nil } }
    }
    /// The identity of the row a batch deleted with the selection on it, until the next
    /// frame or selection: a later stage of the same apply that inserts it gives the
    /// selection back to it.
    var lostSelection: ItemID?
    private var followingBatch = false

    /// Called when the list needs to be drawn again (content, selection or size changed).
    public var onNeedsDisplay: (() -> Void)?
    /// Called after a layout pass changed which rows are on screen, with the new rows in order.
    public var onVisibleItemsChange: (([ItemPath]) -> Void)?

    /// The frame of animated cells (the loading row's spinner); see ``advanceAnimation()``.
    public internal(set) var animationPhase = 0

    /// How many cells the list view built (not reused) since it was created.
    public var createdCellCount: Int { core.createdCells.values.reduce(0, +) }
    /// How many times a cell was taken from the reuse pool.
    public var reusedCellCount: Int { core.reusedCellCount }

    /// The list-view logic this view replays (counts, validation, visible cells, pools).
    public private(set) lazy var core: ListViewCore = ListViewCore(listView: self, backend: self)

    // Data, as last asked from the data source.
    var sectionCounts: [Int] = []
    var headerTitles: [String?] = []

    // Viewport: the first entry drawn, and how many of its lines are above the top.
    var anchor: Entry?
    var anchorOffset = 0
    var placements: [Placement] = []
    var stickySection: Int?

    // Cells built to measure rows, not shown yet (the core keeps the shown ones).
    var pendingCells: [ItemPath: AnyObject] = [:]
    var lineCache: [ItemPath: RowLines] = [:]
    var lastVisible: [ItemPath] = []
    /// Whether the list read its data source once (a reload); until then, its first
    /// layout reads it, as `UITableView` loads its data at its first layout.
    var hasLoadedData = false

    /// Creates a list of `columns` × `rows`, each clamped to 0...``StyledLine/maximumWidth`` (0 rows: a frame of no lines; 0 columns: empty lines).
    public init(columns: Int = 80, rows: Int = 24) {
        self.columns = Self.clampedSize(columns)
        self.rows = Self.clampedSize(rows)
    }

    /// Changes the list's size (each clamped to 0...``StyledLine/maximumWidth``) and
    /// lays it out again, keeping the selected row on screen.
    ///
    /// Called while the list lays out rows or runs a batch (from a configure handler, a
    /// display hook or a presenter), it runs once that pass is over, in order with the
    /// other calls waiting for it, and replaces a resize still waiting
    /// (``/CellKit/ListViewCore/performViewportChange(_:_:)``); so do the calls that move the
    /// selection (``select(_:notify:)``, ``select(_:atScreenLine:)`` and, after the moves
    /// waiting, ``moveSelection(by:)`` and ``handle(_:)``).
    public func resize(columns: Int, rows: Int) {
        guard isUpdating else { return resizeNow(columns: columns, rows: rows) }  // no closure when idle
        core.performViewportChange(.resize) { [unowned self] in resizeNow(columns: columns, rows: rows) }
    }

    private func resizeNow(columns: Int, rows: Int) {
        loadDataIfNeeded()
        let columns = Self.clampedSize(columns)
        let rows = Self.clampedSize(rows)
        guard columns != self.columns || rows != self.rows else { return }
        if columns != self.columns { lineCache.removeAll() }
        self.columns = columns
        self.rows = rows
        fillViewport()
        scrollToSelection()
        setNeedsDisplay()
    }

    // MARK: ListView

    public var visibleItemPaths: [ItemPath] {
        placements.compactMap { if case .row(let p) = $0.entry { p } else { nil } }
    }

    @discardableResult
    public func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) -> BatchOutcome {
        let outcome = core.performBatchUpdates(changeset, updateData: updateData)
        if outcome == .animated {
            core.layingOut { fillViewport() }
            scrollToSelection()
            showLoadMoreRowAfterVisibleEnd()
            setNeedsDisplay()
        }
        return outcome
    }

    public func cellDidChange(at path: ItemPath, reason: CellChangeReason) {
        lineCache[path] = nil
        setNeedsDisplay()
    }

    // MARK: ListViewBackend

    public var hasWindow: Bool { true }

    public func performBatch(animated: Bool, _ body: () -> Changeset) {
        let oldCounts = sectionCounts
        let selectedID = lostSelection ?? selectedPath.flatMap { dataSource?.listView(self, identityOfItemAt: $0) }
        let changeset = body()
        recyclePendingCells()
        readCounts(cached: true)
        let mapping = core.batchMapping ?? PathMapping(changeset, oldCounts: oldCounts, newCounts: sectionCounts)
        lineCache.removeAll()
        lastVisible = lastVisible.compactMap { mapping.newPath(of: $0) }
        // The selection and the top of the screen stay on the same rows.
        followingBatch = true
        if let selected = selectedPath {
            // A row lost by an earlier stage comes first; then the selected row where the batch put it.
            let moved = mapping.newPath(of: selected)
            let found = lostSelection == nil && moved != nil ? nil : selectedID.flatMap { insertedRow(withIdentity: $0, in: changeset) }
            let followed = found ?? moved
            if found != nil { lostSelection = nil } else if followed == nil { lostSelection = selectedID }
            let atPlace = followed == nil ? row(atPlaceOf: selected, mapping, oldCounts: oldCounts) : nil
            selectedPath = (followed ?? atPlace ?? clamped(selected)).flatMap(selectableRow(near:))
        } else {
            selectedPath = firstSelectableRow()
        }
        followingBatch = false
        anchor = anchor.flatMap { mapEntry($0, mapping) }
        if let anchor { self.anchor = clamped(anchor) } else { anchorOffset = 0; anchor = firstEntry(from: 0) }
    }

    /// The row now at the place of `old`, a row the batch deleted: the one after the nearest
    /// row above it that stays (rows inserted there, such as the page that replaces the
    /// load-more row, come first), or the first row; `nil` when no row follows.
    /// - Complexity: O(*d* + *s*): rows deleted above it in its section, sections.
    private func row(atPlaceOf old: ItemPath, _ mapping: PathMapping, oldCounts: [Int]) -> ItemPath? {
        var section = min(old.section, oldCounts.count - 1), item = old.item - 1
        var above: ItemPath?
        search: while section >= 0 {
            if mapping.newSections.indices.contains(section), mapping.newSections[section] != nil {
                item = min(item, oldCounts[section] - 1)
                while item >= 0 {
                    if let kept = mapping.newPath(of: ItemPath(item: item, section: section)) { above = kept; break search }
                    item -= 1
                }
            }
            section -= 1
            item = Int.max
        }
        guard let above else { return firstRow() }
        if above.item + 1 < sectionCounts[above.section] { return ItemPath(item: above.item + 1, section: above.section) }
        for next in sectionCounts.indices.dropFirst(above.section + 1) where sectionCounts[next] > 0 {
            return ItemPath(item: 0, section: next)
        }
        return nil
    }

    /// The row the batch `changeset` inserted (on its own or with its section) whose
    /// identity is `id`: a row the batch deleted and inserted again (moved into a new
    /// section, or in a section moved while its rows changed). O(rows inserted).
    private func insertedRow(withIdentity id: ItemID, in changeset: Changeset) -> ItemPath? {
        guard let dataSource else { return nil }
        for section in changeset.sectionInserts where section < sectionCounts.count {
            for item in 0..<sectionCounts[section] {
                let path = ItemPath(item: item, section: section)
                if dataSource.listView(self, identityOfItemAt: path) == id { return path }
            }
        }
        return changeset.itemInserts.first { dataSource.listView(self, identityOfItemAt: $0) == id }
    }

    /// Configures the cells of the rows at `paths` that are on screen again, in place,
    /// as `UITableView.reconfigureRows(at:)` does: the data source is asked for each row's
    /// cell, a dequeue for the row hands back the cell showing it, and a data source that
    /// returns another cell is refused (the showing cell stays); its lines are drawn again. Rows not on
    /// screen are skipped. ``/CellKit/ListController`` calls it after a batch for the rows
    /// whose content changed; a test may call it as an app calls `reconfigureRows(at:)`.
    /// The rows are measured again (their heights asked again, the screen laid out again),
    /// as UIKit sizes a reconfigured row again
    /// (``/CellKit/ListViewCore/reconfigure(_:configure:measureAgain:)``).
    public func reconfigureItems(at paths: [ItemPath]) {
        core.reconfigure(paths, configure: { [unowned self] rows in
            for path in rows {
                lineCache[path] = nil
                core.reconfigureVisibleItem(at: path)
            }
        }, measureAgain: { [unowned self] _ in
            layout()
            showLoadMoreRowAfterVisibleEnd()
            setNeedsDisplay()
        })
    }

    public func reloadAll() {
        hasLoadedData = true
        recyclePendingCells()
        lineCache.removeAll()
        readCounts()
        if let selected = selectedPath { selectedPath = clamped(selected).flatMap(selectableRow(near:)) }
        if let anchor { self.anchor = clamped(anchor) }
        if anchor == nil { anchorOffset = 0; anchor = firstEntry(from: 0) }
        if selectedPath == nil { selectedPath = firstSelectableRow() }
        fillViewport()
        scrollToSelection()
        showLoadMoreRowAfterVisibleEnd()
        setNeedsDisplay()
    }

    public func viewportOffset(ofItemAt path: ItemPath) -> Double? {
        placements.first { $0.entry == .row(path) }.map { Double($0.y - $0.skipped) }
    }

    public func scrollItem(at path: ItemPath, toViewportOffset offset: Double) {
        // A row the list does not have (any values) is ignored, as the headless list view does.
        guard sectionCounts.indices.contains(path.section), path.item >= 0, path.item < sectionCounts[path.section] else { return }
        anchor = .row(path)
        // Lines of the row above the top; any offset is accepted (NaN: none).
        anchorOffset = offset < 0 ? Int(min(-offset, RowHeights.maximumHeight).rounded()) : 0
        fillViewport()
    }

    public func makeCell(_ source: CellSource, for path: ItemPath) -> AnyObject {
        source.make?() ?? TextCell()
    }

    // MARK: Selection

    /// Selects the row at `path` and scrolls it into view; `notify` tells the delegate.
    ///
    /// A path the list does not have selects the nearest row; a row that does not
    /// take the selection (a placeholder row that does nothing, see
    /// ``/CellKit/ListViewDelegate/listView(_:canSelectItemAt:)``) is not selected.
    /// Called while the list lays out rows (from a configure handler or display hook), it
    /// runs once that pass is over and replaces the selection moves still waiting
    /// (see ``resize(columns:rows:)``).
    public func select(_ path: ItemPath, notify: Bool = false) {
        guard isUpdating else { return selectNow(path, notify: notify) }
        core.performViewportChange(.scroll) { [unowned self] in selectNow(path, notify: notify) }
    }

    private func selectNow(_ path: ItemPath, notify: Bool) {
        guard let row = clamped(.row(path)), case .row(let target) = row, canSelect(target) else { return }
        selectedPath = target
        scrollToSelection()
        setNeedsDisplay()
        if notify { delegate?.listView(self, didSelectItemAt: target) }
    }

    /// `size` within 1...``StyledLine/maximumWidth``, the most a terminal reports.
    static func clampedSize(_ size: Int) -> Int { min(max(0, size), StyledLine.maximumWidth) }

    /// Reads the data source, if the list never did (no ``/CellKit/ListView/reloadData()``, no
    /// controller's `attach(to:)`): the first layout (a frame, a resize, a key) loads the
    /// data, as `UITableView`'s first layout does.
    func loadDataIfNeeded() {
        guard !hasLoadedData, dataSource != nil, !isUpdating else { return }
        reloadData()
    }

    /// Asks for a redraw.
    func setNeedsDisplay() {
        onNeedsDisplay?()
    }

    // MARK: Data

    /// Reads the counts (through the core, which caches them) and the header titles;
    /// `cached`: the core already holds the counts after a batch.
    func readCounts(cached: Bool = false) {
        sectionCounts = cached ? core.counts : core.readCounts()
        guard let dataSource else {
            headerTitles = []
            return
        }
        headerTitles = sectionCounts.indices.map { dataSource.listView(self, titleForHeaderInSection: $0) }
    }

    func mapEntry(_ entry: Entry, _ mapping: PathMapping) -> Entry? {
        func newSection(_ old: Int) -> Int? { mapping.newSections.indices.contains(old) ? mapping.newSections[old] : nil }
        switch entry {
        case .header(let s):
            return newSection(s).map(Entry.header)
        case .row(let p):
            if let mapped = mapping.newPath(of: p) { return .row(mapped) }
            // The row at the top went away: keep the position within its section.
            return newSection(p.section).map { .row(ItemPath(item: p.item, section: $0)) }
        }
    }

    /// Ends the display of every shown row and gives every cell back to the pool
    /// (a jump: the rows measured next can reuse them).
    func recycleAllCells() {
        for path in core.visibleItemPaths { core.endDisplay(at: path) }
        recyclePendingCells()
        lineCache.removeAll()
    }

    /// Puts the cells built to measure rows that were not shown back into the pool.
    func recyclePendingCells() {
        for cell in pendingCells.values { core.enqueueReusableCell(cell) }
        pendingCells.removeAll()
    }
}

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
/// ```swift
/// import CellKit
///
/// @MainActor func firstFrame(dataSource: any ListViewDataSource) -> [String] {
///     let list = TerminalListView(columns: 40, rows: 10)
///     list.dataSource = dataSource
///     list.reloadData()
///     return list.renderFrame().map { $0.plainText }
/// }
/// ```
@MainActor
public final class TerminalListView: ListView {
    /// Who answers counts and cells; held weakly.
    public weak var dataSource: (any ListViewDataSource)?
    /// Who hears about heights, selection and display; held weakly.
    public weak var delegate: (any ListViewDelegate)?

    /// The width of the list, in columns.
    public internal(set) var columns: Int
    /// The height of the list, in lines.
    public internal(set) var rows: Int

    /// The selected row, if any; moved by the navigation keys.
    public internal(set) var selectedPath: ItemPath?

    /// Called when the list needs to be drawn again (content, selection or size changed).
    public var onNeedsDisplay: (() -> Void)?
    /// Called after a layout pass changed which rows are on screen, with the new rows in order.
    public var onVisibleItemsChange: (([ItemPath]) -> Void)?

    /// The frame of animated cells (the loading row's spinner); see ``advanceAnimation()``.
    public internal(set) var animationPhase = 0

    /// How many cells the list view built (not reused) since it was created.
    public private(set) var createdCellCount = 0
    /// How many times a cell was taken from the reuse pool.
    public private(set) var reusedCellCount = 0

    // Data, as last asked from the data source.
    var sectionCounts: [Int] = []
    var headerTitles: [String?] = []

    // Viewport: the first entry drawn, and how many of its lines are above the top.
    var anchor: Entry?
    var anchorOffset = 0
    var placements: [Placement] = []
    var stickySection: Int?

    // Cells.
    var reusePool: [String: [AnyObject]] = [:]
    var reuseIdentifiers: [ObjectIdentifier: String] = [:]
    var registered: [String: CellSource] = [:]
    var cells: [ItemPath: AnyObject] = [:]
    var displayed: Set<ItemPath> = []
    var lineCache: [ItemPath: [StyledLine]] = [:]
    var lastVisible: [ItemPath] = []

    /// Creates a list of `columns` × `rows`, each clamped to 1...``StyledLine/maximumWidth``.
    public init(columns: Int = 80, rows: Int = 24) {
        self.columns = Self.clampedSize(columns)
        self.rows = Self.clampedSize(rows)
    }

    /// Changes the list's size (each clamped to 1...``StyledLine/maximumWidth``) and
    /// lays it out again, keeping the selected row on screen.
    public func resize(columns: Int, rows: Int) {
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

    public func register(_ source: CellSource) {
        registered[source.reuseIdentifier] = source
    }

    public func dequeueReusableCell(_ source: CellSource, for path: ItemPath) -> AnyObject {
        let id = source.reuseIdentifier
        if registered[id] == nil { register(source) }
        if var pool = reusePool[id], let cell = pool.popLast() {
            reusePool[id] = pool
            reusedCellCount += 1
            (cell as? TextCell)?.prepareForReuse()
            return cell
        }
        let cell: AnyObject = source.make?() ?? TextCell()
        reuseIdentifiers[ObjectIdentifier(cell)] = id
        createdCellCount += 1
        return cell
    }

    public var visibleItemPaths: [ItemPath] {
        placements.compactMap { if case .row(let p) = $0.entry { p } else { nil } }
    }

    public func cell(at path: ItemPath) -> AnyObject? {
        displayed.contains(path) ? cells[path] : nil
    }

    public func reloadData() {
        for (path, cell) in cells { recycle(cell, at: path) }
        cells.removeAll()
        lineCache.removeAll()
        readCounts()
        if let selected = selectedPath { selectedPath = clamped(selected) }
        if let anchor { self.anchor = clamped(anchor) }
        if anchor == nil { anchorOffset = 0; anchor = firstEntry(from: 0) }
        if selectedPath == nil { selectedPath = firstRow() }
        fillViewport()
        scrollToSelection()
        setNeedsDisplay()
    }

    public func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) throws {
        let oldCounts = sectionCounts
        updateData()
        readCounts()
        do {
            try changeset.validate(oldCounts: oldCounts, newCounts: sectionCounts)
        } catch {
            reloadData()
            throw error
        }
        let mapping = PathMapping(changeset, oldCounts: oldCounts, newCounts: sectionCounts)
        // Cells follow their rows; deleted and updated rows give their cells back.
        let updated = Set(changeset.itemUpdates)
        var moved: [ItemPath: AnyObject] = [:]
        var newDisplayed: Set<ItemPath> = []
        for (path, cell) in cells {
            if updated.contains(path) {
                recycle(cell, at: path)
                continue
            }
            guard let target = mapping.newPath(of: path) else {
                recycle(cell, at: path)
                continue
            }
            moved[target] = cell
            if displayed.contains(path) { newDisplayed.insert(target) }
        }
        cells = moved
        displayed = newDisplayed
        lineCache.removeAll()
        lastVisible = lastVisible.compactMap { mapping.newPath(of: $0) }

        // The selection and the top of the screen stay on the same rows.
        if let selected = selectedPath {
            selectedPath = mapping.newPath(of: selected) ?? clamped(selected)
        } else {
            selectedPath = firstRow()
        }
        anchor = anchor.flatMap { mapEntry($0, mapping) }
        if let anchor { self.anchor = clamped(anchor) } else { anchorOffset = 0; anchor = firstEntry(from: 0) }
        fillViewport()
        scrollToSelection()
        setNeedsDisplay()
    }

    public func cellDidChange(at path: ItemPath, reason: CellChangeReason) {
        lineCache[path] = nil
        setNeedsDisplay()
    }

    // MARK: Selection

    /// Selects the row at `path` and scrolls it into view; `notify` tells the delegate.
    public func select(_ path: ItemPath, notify: Bool = false) {
        guard let row = clamped(.row(path)), case .row(let target) = row else { return }
        selectedPath = target
        scrollToSelection()
        setNeedsDisplay()
        if notify { delegate?.listView(self, didSelectItemAt: target) }
    }

    /// `size` within 1...``StyledLine/maximumWidth``, the most a terminal reports.
    static func clampedSize(_ size: Int) -> Int { min(max(1, size), StyledLine.maximumWidth) }

    /// Asks for a redraw.
    func setNeedsDisplay() {
        onNeedsDisplay?()
    }

    // MARK: Data

    func readCounts() {
        guard let dataSource else {
            sectionCounts = []
            headerTitles = []
            return
        }
        let count = max(0, dataSource.numberOfSections(in: self))
        sectionCounts = (0..<count).map { max(0, dataSource.listView(self, numberOfItemsInSection: $0)) }
        headerTitles = (0..<count).map { dataSource.listView(self, titleForHeaderInSection: $0) }
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

    func recycle(_ cell: AnyObject, at path: ItemPath) {
        if displayed.remove(path) != nil {
            delegate?.listView(self, didEndDisplaying: cell, at: path)
        }
        if let id = reuseIdentifiers[ObjectIdentifier(cell)] {
            reusePool[id, default: []].append(cell)
        }
        lineCache[path] = nil
    }
}

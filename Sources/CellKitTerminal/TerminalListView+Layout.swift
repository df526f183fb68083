import CellKit

/// A line-producing thing in the list: a section header or a row.
enum Entry: Hashable, Comparable {
    case header(Int)
    case row(ItemPath)

    var section: Int {
        switch self {
        case .header(let s): s
        case .row(let p): p.section
        }
    }

    /// Order in the list: by section, the header before the rows.
    var sortKey: (Int, Int) {
        switch self {
        case .header(let s): (s, -1)
        case .row(let p): (p.section, p.item)
        }
    }

    static func < (lhs: Entry, rhs: Entry) -> Bool { lhs.sortKey < rhs.sortKey }
}

/// The lines of a row as drawn: the cell's lines, fitted, then blank lines up to the
/// row's height. The blank lines are not stored, so a row of a million lines costs
/// what its cell draws, not its height.
struct RowLines {
    /// The cell's lines, fitted to the width, at most `height` of them.
    var lines: [StyledLine]
    /// The row's height in lines (at least 1).
    var height: Int

    /// Line `index` of the row: the cell's line, or `blank` below the cell's lines.
    func line(_ index: Int, blank: StyledLine) -> StyledLine {
        index < lines.count ? lines[index] : blank
    }
}

/// Where an entry landed on screen in the last layout pass.
struct Placement: Hashable {
    let entry: Entry
    /// The first screen line.
    let y: Int
    /// How many of the entry's lines are above the top of the screen.
    let skipped: Int
    /// How many lines are on screen.
    let shown: Int
    /// The entry's full height.
    let height: Int
}

extension TerminalListView {
    // MARK: Walking the entries

    func hasHeader(_ section: Int) -> Bool {
        headerTitles.indices.contains(section) && headerTitles[section] != nil
    }

    func firstEntry(from section: Int) -> Entry? {
        var s = max(0, section)
        while s < sectionCounts.count {
            if hasHeader(s) { return .header(s) }
            if sectionCounts[s] > 0 { return .row(ItemPath(item: 0, section: s)) }
            s += 1
        }
        return nil
    }

    func lastEntry(before section: Int) -> Entry? {
        var s = min(section, sectionCounts.count) - 1
        while s >= 0 {
            if sectionCounts[s] > 0 { return .row(ItemPath(item: sectionCounts[s] - 1, section: s)) }
            if hasHeader(s) { return .header(s) }
            s -= 1
        }
        return nil
    }

    func next(_ entry: Entry) -> Entry? {
        switch entry {
        case .header(let s):
            return sectionCounts[s] > 0 ? .row(ItemPath(item: 0, section: s)) : firstEntry(from: s + 1)
        case .row(let p):
            return p.item + 1 < sectionCounts[p.section] ? .row(ItemPath(item: p.item + 1, section: p.section)) : firstEntry(from: p.section + 1)
        }
    }

    func previous(_ entry: Entry) -> Entry? {
        switch entry {
        case .header(let s):
            return lastEntry(before: s)
        case .row(let p):
            if p.item > 0 { return .row(ItemPath(item: p.item - 1, section: p.section)) }
            return hasHeader(p.section) ? .header(p.section) : lastEntry(before: p.section)
        }
    }

    func firstRow() -> ItemPath? {
        var entry = firstEntry(from: 0)
        while let e = entry {
            if case .row(let p) = e { return p }
            entry = next(e)
        }
        return nil
    }

    func lastRow() -> ItemPath? {
        var entry = lastEntry(before: sectionCounts.count)
        while let e = entry {
            if case .row(let p) = e { return p }
            entry = previous(e)
        }
        return nil
    }

    // MARK: Rows that take the selection

    /// Whether the row takes the selection (the delegate's `canSelectItemAt`; a
    /// ``/CellKit/ListController`` says no for placeholder rows that do nothing when selected).
    func canSelect(_ path: ItemPath) -> Bool {
        delegate?.listView(self, canSelectItemAt: path) ?? true
    }

    /// The first row that takes the selection.
    func firstSelectableRow() -> ItemPath? {
        guard let first = firstRow() else { return nil }
        return canSelect(first) ? first : nextRow(after: first)
    }

    /// The last row that takes the selection.
    func lastSelectableRow() -> ItemPath? {
        guard let last = lastRow() else { return nil }
        return canSelect(last) ? last : previousRow(before: last)
    }

    /// The next row after `path` that takes the selection.
    func nextRow(after path: ItemPath) -> ItemPath? {
        var entry = next(.row(path))
        while let e = entry {
            if case .row(let p) = e, canSelect(p) { return p }
            entry = next(e)
        }
        return nil
    }

    /// The row before `path` that takes the selection.
    func previousRow(before path: ItemPath) -> ItemPath? {
        var entry = previous(.row(path))
        while let e = entry {
            if case .row(let p) = e, canSelect(p) { return p }
            entry = previous(e)
        }
        return nil
    }

    /// The row that takes the selection nearest to `path` (an existing row): itself, else the next, else the previous.
    func selectableRow(near path: ItemPath) -> ItemPath? {
        canSelect(path) ? path : nextRow(after: path) ?? previousRow(before: path)
    }

    /// The nearest existing row to `path`: the same section clamped, else the last row.
    func clamped(_ path: ItemPath) -> ItemPath? {
        if sectionCounts.indices.contains(path.section), sectionCounts[path.section] > 0 {
            return ItemPath(item: min(max(0, path.item), sectionCounts[path.section] - 1), section: path.section)
        }
        if path.section < sectionCounts.count, let entry = firstEntry(from: path.section), case .row(let p) = entry { return p }
        if path.section < sectionCounts.count, let p = firstRow(), p > path { return p }
        return lastRow()
    }

    /// The nearest existing entry to `entry`.
    func clamped(_ entry: Entry) -> Entry? {
        switch entry {
        case .header(let s):
            if hasHeader(s) { return entry }
            return firstEntry(from: s) ?? lastEntry(before: sectionCounts.count)
        case .row(let p):
            if sectionCounts.indices.contains(p.section), p.item < sectionCounts[p.section], p.item >= 0 { return entry }
            return clamped(p).map(Entry.row) ?? firstEntry(from: 0)
        }
    }

    // MARK: Lines

    /// The height of `entry` in lines: 1 for a header; the delegate's height
    /// (see ``lineCount(forHeight:)``), or the cell's line count.
    ///
    /// A row with a height from the delegate needs no cell to be measured.
    func height(of entry: Entry) -> Int {
        guard case .row(let path) = entry else { return 1 }
        if let cached = lineCache[path] { return cached.height }
        if let height = delegate?.listView(self, heightForItemAt: path) {
            return Self.lineCount(forHeight: height)
        }
        return rowLines(path).height
    }

    /// A row height from the delegate in whole lines: rounded, and clamped to
    /// 1...``/CellKit/RowHeights/maximumHeight`` (NaN, zero and negative heights give 1 line,
    /// +infinity the maximum), so no height traps and a row takes at least one line.
    static func lineCount(forHeight height: Double) -> Int {
        guard height >= 1 else { return 1 }
        return max(1, Int(min(height, RowHeights.maximumHeight).rounded()))
    }

    func lines(of entry: Entry) -> RowLines {
        switch entry {
        case .header(let s):
            return RowLines(lines: [headerLine(s)], height: 1)
        case .row(let p):
            return rowLines(p)
        }
    }

    /// The entry's lines if known without making a cell; else `height` blank lines.
    private func cachedLines(of entry: Entry, height: Int) -> RowLines {
        if case .row(let path) = entry { return lineCache[path] ?? RowLines(lines: [], height: max(1, height)) }
        return lines(of: entry)
    }

    func headerLine(_ section: Int) -> StyledLine {
        let title = headerTitles.indices.contains(section) ? headerTitles[section] ?? "" : ""
        var line = StyledLine(" " + title + " ", style: TextStyle(foreground: .yellow, bold: true))
        let rule = max(0, columns - line.displayWidth)
        line.append(String(repeating: "─", count: rule), style: .dim)
        return line.fitted(to: columns)
    }

    /// The row's lines; with a height from the delegate, the cell's lines cut to it
    /// and the rest left blank (not stored: see ``RowLines``).
    func rowLines(_ path: ItemPath) -> RowLines {
        if let cached = lineCache[path] { return cached }
        let cell = acquireCell(at: path)
        var lines = CellRendering.lines(for: cell, width: columns, phase: animationPhase)
        if lines.isEmpty { lines = [StyledLine()] }
        var height = lines.count
        if let delegateHeight = delegate?.listView(self, heightForItemAt: path) {
            height = Self.lineCount(forHeight: delegateHeight)
            if lines.count > height { lines.removeLast(lines.count - height) }
        }
        let fitted = RowLines(lines: lines.map { $0.fitted(to: columns, padStyle: .plain) }, height: height)
        lineCache[path] = fitted
        return fitted
    }

    func acquireCell(at path: ItemPath) -> AnyObject {
        if let cell = core.cell(at: path) ?? pendingCells[path] { return cell }
        let cell = core.cellForItem(at: path) ?? TextCell()
        pendingCells[path] = cell
        return cell
    }

    // MARK: Layout

    /// Places entries from the anchor down until the screen is full; pins the
    /// header of the top section; hands cells that left the screen back to the pool.
    func layout() {
        // One layout pass of the core: an apply from a configure handler or display hook waits for its end.
        core.layingOut { placeEntries() }
    }

    private func placeEntries() {
        placements.removeAll(keepingCapacity: true)
        var y = 0
        var skip = anchorOffset
        var entry = anchor
        while y < rows, let e = entry {
            let height = self.height(of: e)
            if skip >= height { skip = height - 1 }
            let shown = min(height - skip, rows - y)
            placements.append(Placement(entry: e, y: y, skipped: skip, shown: shown, height: height))
            y += shown
            skip = 0
            entry = next(e)
        }
        // The header of the section at the top stays pinned while some of that
        // section shows below it; the next section's header takes its place.
        stickySection = nil
        if let first = placements.first, hasHeader(first.entry.section), pinsHeader(over: selectedPath),
           !(first.entry == .header(first.entry.section) && first.skipped == 0) {
            let section = first.entry.section
            let below = placements.first { $0.y <= 1 && 1 < $0.y + $0.shown }
            if below == nil || below?.entry.section == section && below?.entry != .header(section) {
                stickySection = section
            }
        }
        reconcileCells()
    }

    /// Whether the header of the top section may be pinned: only when the selected row
    /// still fits below it (on a short list, the row matters more than its header).
    func pinsHeader(over selected: ItemPath?) -> Bool {
        guard let selected else { return true }
        return rows >= height(of: .row(selected)) + 1
    }

    func reconcileCells() {
        let visible = visibleItemPaths
        let visibleSet = Set(visible)
        // Cells that left go back to the pool first, so the rows that came can reuse them.
        for path in core.visibleItemPaths where !visibleSet.contains(path) {
            core.endDisplay(at: path)
            lineCache[path] = nil
        }
        for (path, cell) in pendingCells where !visibleSet.contains(path) {
            core.enqueueReusableCell(cell)
            pendingCells[path] = nil
            lineCache[path] = nil
        }
        for path in visible where core.cell(at: path) == nil {
            _ = rowLines(path)
            guard let cell = pendingCells.removeValue(forKey: path) else { continue }
            core.willDisplay(cell, at: path)
        }
        if visible != lastVisible {
            lastVisible = visible
            onVisibleItemsChange?(visible)
        }
    }


    /// Moves the anchor up when the entries below it do not fill the screen.
    func fillViewport() {
        // Measuring rows configures cells: one layout pass of the core.
        core.layingOut { fillViewportFromAnchor() }
    }

    private func fillViewportFromAnchor() {
        guard var top = anchor else { return }
        var total = -anchorOffset
        var entry: Entry? = top
        while total < rows, let e = entry {
            total += height(of: e)
            entry = next(e)
        }
        guard total < rows else { return }
        // Not full: walk up from the anchor.
        total += anchorOffset
        anchorOffset = 0
        while total < rows, let before = previous(top) {
            let h = height(of: before)
            top = before
            if total + h > rows {
                anchorOffset = total + h - rows
                total = rows
            } else {
                total += h
            }
        }
        anchor = top
    }

    /// Scrolls as little as possible so the selected row is fully on screen.
    func scrollToSelection() {
        core.layingOut { scrollSelectionOnScreen() }
    }

    private func scrollSelectionOnScreen() {
        layout()
        guard let selected = selectedPath else { return }
        let target = Entry.row(selected)
        let covered = stickySection != nil ? 1 : 0
        if let placement = placements.first(where: { $0.entry == target }) {
            let fullyShown = placement.skipped == 0 && placement.y >= covered
                && (placement.y + placement.height <= rows || placement.y == covered)
            if fullyShown { return }
            if placement.skipped > 0 || placement.y < covered {
                scroll(toTop: selected)
            } else {
                scroll(toBottom: selected)
            }
        } else {
            // A jump: the cells on screen will not be needed; give them back before measuring.
            recycleAllCells()
            if let anchor, target < anchor {
                scroll(toTop: selected)
            } else {
                scroll(toBottom: selected)
            }
        }
        layout()
    }

    /// The identity of the load-more row a ``/CellKit/ListController`` adds after a paged list's
    /// content (``/CellKit/LoadMorePlaceholder``: "Loading more…", or its failed form).
    private static let loadMoreRow = ItemID(type: LoadMorePlaceholder.self, id: LoadMorePlaceholder(message: "", failureMessage: "").id)

    /// Brings the load-more row at the end of the list whole on screen when the end of the
    /// content above it is on screen (the last line of the entry before it shows), as long as
    /// the selected row stays whole on screen: the "Loading more…" row that the end coming on
    /// screen (End, ↓) started, and the failed row it turns into, show without another key.
    func showLoadMoreRowAfterVisibleEnd() {
        core.layingOut { showLoadMoreRowIfEndIsOnScreen() }
    }

    private func showLoadMoreRowIfEndIsOnScreen() {
        guard let last = lastRow(), let before = previous(.row(last)),
              dataSource?.listView(self, identityOfItemAt: last) == Self.loadMoreRow else { return }
        layout()
        if let shown = placements.first(where: { $0.entry == .row(last) }), shown.skipped == 0, shown.shown == shown.height { return }
        guard let end = placements.first(where: { $0.entry == before }), end.skipped + end.shown == end.height else { return }
        let (savedAnchor, savedOffset) = (anchor, anchorOffset)
        scroll(toBottom: last)
        layout()
        if let selected = selectedPath {
            let covered = stickySection != nil ? 1 : 0
            let keepsSelection = placements.contains { placement in
                placement.entry == .row(selected) && placement.skipped == 0 && placement.y >= covered
                    && placement.y + placement.height <= rows
            }
            if !keepsSelection {
                anchor = savedAnchor
                anchorOffset = savedOffset
                layout()
            }
        }
    }

    /// Puts `path` at the top of the screen, just below its pinned header.
    func scroll(toTop path: ItemPath) {
        if path.item == 0, hasHeader(path.section), pinsHeader(over: path) {
            anchor = .header(path.section)
            anchorOffset = 0
            return
        }
        anchor = .row(path)
        anchorOffset = 0
        if hasHeader(path.section), pinsHeader(over: path), let before = previous(.row(path)) {
            // One line of the row above hides under the pinned header.
            anchor = before
            anchorOffset = height(of: before) - 1
        }
    }

    /// Puts the last line of `path` on the last line of the screen.
    func scroll(toBottom path: ItemPath) {
        var remaining = rows - height(of: .row(path))
        var top = Entry.row(path)
        anchorOffset = 0
        if remaining <= 0 {
            anchor = top
            return
        }
        while remaining > 0, let before = previous(top) {
            let h = height(of: before)
            top = before
            if h >= remaining {
                anchorOffset = h - remaining
                remaining = 0
            } else {
                remaining -= h
            }
        }
        anchor = top
    }

    // MARK: Rendering

    /// The list as exactly ``rows`` styled lines of exactly ``columns`` columns.
    ///
    /// Lays the list out first, which may ask the data source for cells of rows that came on screen.
    /// Once the data source is gone (it is held weakly: keep the controller alive), the
    /// list has no rows: the frame is blank and ``positionDescription`` is "0/0".
    /// Called while the list lays out or runs a batch (from a configure handler), it draws
    /// the rows as they were laid out last, without laying out again inside that pass and
    /// without making cells (a row whose cell is not made yet is blank in that frame).
    public func renderFrame() -> [StyledLine] {
        lostSelection = nil   // the frame shows where the selection went
        if isUpdating { return renderLaidOutFrame(layingOut: false) }
        loadDataIfNeeded()
        var frame: [StyledLine] = []
        core.layingOut { frame = renderLaidOutFrame(layingOut: true) }
        return frame
    }

    private func renderLaidOutFrame(layingOut: Bool) -> [StyledLine] {
        if layingOut {
            forgetRowsIfDataSourceIsGone()
            layout()
        }
        var frame: [StyledLine] = []
        frame.reserveCapacity(rows)
        let highlight = TextStyle(inverse: true)
        let blank = StyledLine(String(repeating: " ", count: columns))
        for placement in placements {
            // Only the lines on screen are drawn, however tall the row.
            // Inside a pass, no cell is made (that would configure a row again): a row
            // whose lines are not known yet is blank in this frame.
            let lines = layingOut ? lines(of: placement.entry) : cachedLines(of: placement.entry, height: placement.skipped + placement.shown)
            let end = min(lines.height, placement.skipped + placement.shown)
            let isSelected = placement.entry == selectedPath.map(Entry.row)
            for i in placement.skipped..<end {
                let line = lines.line(i, blank: blank)
                frame.append(isSelected ? line.applying(highlight) : line)
            }
        }
        while frame.count < rows { frame.append(blank) }
        if let sticky = stickySection { frame[0] = headerLine(sticky) }
        return frame
    }

    /// Every row and header of the list as plain lines of at most `width` columns
    /// (clamped to 1...``StyledLine/maximumWidth``), for output that is not a terminal.
    /// Control characters in the text are shown as in ``StyledLine``. Builds a cell
    /// for every row it prints.
    ///
    /// From `firstRow` on (counting the rows of all sections in order), only the rows
    /// from that one and the headers of the sections they start: output printed as pages
    /// arrive prints each page's rows once, with `firstRow` the number of rows printed
    /// before (a section that a page continues gets no second header).
    public func plainLines(width: Int, from firstRow: Int = 0) -> [String] {
        let savedColumns = columns
        columns = max(1, Self.clampedSize(width))
        defer { columns = savedColumns; lineCache.removeAll() }
        lineCache.removeAll()
        var out: [String] = []
        var entry = firstEntry(from: 0)
        var skip = max(0, firstRow)
        for (s, count) in sectionCounts.enumerated() where skip > 0 {
            if skip < count {
                entry = .row(ItemPath(item: skip, section: s))
                skip = 0
            } else {
                skip -= count
                entry = firstEntry(from: s + 1)
            }
        }
        while let e = entry {
            switch e {
            case .header(let s):
                var text = StyledLine("== " + (headerTitles[s] ?? "") + " ==").fitted(to: columns).plainText
                while text.last == " " { text.removeLast() }
                out.append(text)
            case .row(let p):
                let cell = core.cellForItem(at: p) ?? TextCell()
                var lines = CellRendering.lines(for: cell, width: columns)
                if let h = delegate?.listView(self, heightForItemAt: p) {
                    lines = Array(lines.prefix(Self.lineCount(forHeight: h)))
                }
                for line in lines {
                    var text = line.fitted(to: columns).plainText
                    while text.last == " " { text.removeLast() }
                    out.append(text)
                }
                if core.cell(at: p) !== cell { core.enqueueReusableCell(cell) }
            }
            entry = next(e)
        }
        return out
    }

    /// A short position text, such as "12/340", for a status line: the selected row's
    /// place among the rows. "0/0" while the list shows only a placeholder row that does
    /// not take the selection (loading, no results, an error without retry), and once its
    /// data source is gone; "1/1" while it shows only an error row that retries (it is
    /// selected: Enter retries).
    public var positionDescription: String {
        guard dataSource != nil else { return "0/0" }
        let total = sectionCounts.reduce(0, +)
        if total == 1, selectedPath == nil, let only = firstRow(), isPlaceholder(core.cell(at: only) ?? pendingCells[only]) {
            return "0/0"
        }
        guard let selected = selectedPath else { return "0/\(total)" }
        var index = selected.item + 1
        for s in 0..<min(selected.section, sectionCounts.count) { index += sectionCounts[s] }
        return "\(index)/\(total)"
    }
}

extension TerminalListView {
    /// The data source (held weakly) is gone while the list still has rows: forget them,
    /// as a reload with no data source would, instead of drawing cells nobody configures.
    func forgetRowsIfDataSourceIsGone() {
        guard dataSource == nil, !sectionCounts.isEmpty else { return }
        reloadAll()
    }

    /// Whether `cell` is one of the placeholder rows' default cells.
    func isPlaceholder(_ cell: AnyObject?) -> Bool {
        cell is LoadingCell || cell is NoResultsCell || cell is ErrorCell
    }

    /// Whether a row on screen animates (the loading row's spinner): a driver needs
    /// to call ``advanceAnimation()`` only while this is true, and can sleep otherwise.
    public var isAnimating: Bool {
        visibleItemPaths.contains { (core.cell(at: $0) as? LoadingCell)?.isAnimating == true }
    }

    /// Advances the animation of the visible cells that animate (the loading
    /// row's spinner) by one frame; returns whether any row changed.
    @discardableResult
    public func advanceAnimation() -> Bool {
        let animating = visibleItemPaths.filter { (core.cell(at: $0) as? LoadingCell)?.isAnimating == true }
        guard !animating.isEmpty else { return false }
        animationPhase &+= 1
        for path in animating { cellDidChange(at: path, reason: .reconfigured) }
        return true
    }
}

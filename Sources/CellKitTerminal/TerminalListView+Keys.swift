import CellKit

extension TerminalListView {
    /// Handles a navigation key: arrows and j/k, PgUp/PgDn, Home/End (and g/G),
    /// Enter (select). Returns whether the key was used.
    ///
    /// The selection moves over the rows that take it only: placeholder rows that do
    /// nothing when selected ("Loading…", "No results", an error without retry) are
    /// skipped, so a list showing only such a row has no selection.
    ///
    /// Handled while the list lays out rows or runs a batch (a configure handler or display
    /// hook that sends a key), the key runs once that pass is over, after the selection
    /// moves waiting (see ``resize(columns:rows:)``); the result says whether it will be used.
    @discardableResult
    public func handle(_ key: Key) -> Bool {
        guard let action = Navigation(key) else { return false }
        guard isUpdating else {
            loadDataIfNeeded()
            perform(action)
            return true
        }
        core.performViewportChange(.scrollBy) { [unowned self] in perform(action) }
        return true
    }

    /// What a navigation key does: the one list of keys ``handle(_:)`` takes, whether it
    /// runs the key now or once a pass is over.
    private enum Navigation {
        case down, up, pageDown, pageUp, first, last, activate

        init?(_ key: Key) {
            switch key {
            case .down, .character("j"), .control("n"): self = .down
            case .up, .character("k"), .control("p"): self = .up
            case .pageDown, .character(" "), .control("f"): self = .pageDown
            case .pageUp, .character("b"), .control("b"): self = .pageUp
            case .home, .character("g"): self = .first
            case .end, .character("G"): self = .last
            case .enter: self = .activate
            default: return nil
            }
        }
    }

    private func perform(_ action: Navigation) {
        forgetRowsIfDataSourceIsGone()
        switch action {
        case .down:
            moveSelectionNow(by: 1)
        case .up:
            moveSelectionNow(by: -1)
        case .pageDown:
            page(down: true)
        case .pageUp:
            page(down: false)
        case .first:
            guard let first = firstSelectableRow() else { return }
            selectedPath = first
            anchor = firstEntry(from: 0)
            anchorOffset = 0
            scrollToSelection()
            setNeedsDisplay()
        case .last:
            guard let last = lastSelectableRow() else { return }
            selectedPath = last
            scrollToSelection()
            setNeedsDisplay()
        case .activate:
            guard let selected = selectedPath else { return }
            delegate?.listView(self, didSelectItemAt: selected)
        }
    }

    /// Moves the selection `count` rows down (negative: up), skipping headers; it
    /// stops at the first or last row, so any count is accepted (`Int.min` and
    /// `Int.max` select the first and the last row). Called while the list lays out rows
    /// (from a configure handler or display hook), it runs once that pass is over, after
    /// the selection moves waiting (see ``resize(columns:rows:)``).
    public func moveSelection(by count: Int) {
        guard isUpdating else { return moveSelectionNow(by: count) }  // no closure when idle
        core.performViewportChange(.scrollBy) { [unowned self] in moveSelectionNow(by: count) }
    }

    private func moveSelectionNow(by count: Int) {
        guard var path = selectedPath ?? firstSelectableRow() else { return }
        if selectedPath != nil {
            // `magnitude`: `abs(Int.min)` does not fit an `Int`. The loop ends at the edge.
            for _ in 0..<count.magnitude {
                guard let next = count > 0 ? nextRow(after: path) : previousRow(before: path) else { break }
                path = next
            }
        }
        selectedPath = path
        scrollToSelection()
        setNeedsDisplay()
    }

    /// Moves the selection by about one screen, and scrolls the screen with it.
    func page(down: Bool) {
        guard var path = selectedPath ?? firstSelectableRow() else { return }
        // About a screen away: the cells on screen now are free for the rows measured next.
        recycleAllCells()
        var travelled = 0
        let screen = max(1, rows - 1)
        while true {
            guard let next = down ? nextRow(after: path) : previousRow(before: path) else { break }
            travelled += height(of: .row(next))
            if travelled > screen, path != selectedPath { break }
            path = next
            if travelled >= screen { break }
        }
        selectedPath = path
        // The page starts at the selected row; the cells measured on the way go back to the pool.
        recycleAllCells()
        anchor = .row(path)
        anchorOffset = 0
        fillViewport()
        scrollToSelection()
        setNeedsDisplay()
    }
}

extension TerminalListView {
    /// The screen line (0-based, within the list) where the selected row starts, if it is on screen.
    public var selectedScreenLine: Int? {
        guard let selected = selectedPath else { return nil }
        return placements.first { $0.entry == .row(selected) }.map { $0.y - $0.skipped }
    }

    /// Selects the row at `path` and scrolls so that it starts on screen line `line`
    /// (as far as the list allows): after new rows arrive above, the row the
    /// user was on stays where it was. Called while the list lays out rows (from a configure
    /// handler or display hook), it runs once that pass is over and replaces the selection
    /// moves still waiting (see ``resize(columns:rows:)``).
    public func select(_ path: ItemPath, atScreenLine line: Int) {
        guard isUpdating else { return selectNow(path, atScreenLine: line) }
        core.performViewportChange(.scroll) { [unowned self] in selectNow(path, atScreenLine: line) }
    }

    private func selectNow(_ path: ItemPath, atScreenLine line: Int) {
        guard let entry = clamped(.row(path)), case .row(let target) = entry, canSelect(target) else { return }
        selectedPath = target
        var top = Entry.row(target)
        var remaining = max(0, min(line, rows - 1))
        anchorOffset = 0
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
        fillViewport()
        scrollToSelection()
        setNeedsDisplay()
    }
}

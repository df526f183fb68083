import CellKit

extension TerminalListView {
    /// Handles a navigation key: arrows and j/k, PgUp/PgDn, Home/End (and g/G),
    /// Enter (select). Returns whether the key was used.
    @discardableResult
    public func handle(_ key: Key) -> Bool {
        switch key {
        case .down, .character("j"), .control("n"):
            moveSelection(by: 1)
        case .up, .character("k"), .control("p"):
            moveSelection(by: -1)
        case .pageDown, .character(" "), .control("f"):
            page(down: true)
        case .pageUp, .character("b"), .control("b"):
            page(down: false)
        case .home, .character("g"):
            guard let first = firstRow() else { return true }
            selectedPath = first
            anchor = firstEntry(from: 0)
            anchorOffset = 0
            scrollToSelection()
            setNeedsDisplay()
        case .end, .character("G"):
            guard let last = lastRow() else { return true }
            selectedPath = last
            scrollToSelection()
            setNeedsDisplay()
        case .enter:
            guard let selected = selectedPath else { return true }
            delegate?.listView(self, didSelectItemAt: selected)
        default:
            return false
        }
        return true
    }

    /// Moves the selection `count` rows down (negative: up), skipping headers.
    public func moveSelection(by count: Int) {
        guard var path = selectedPath ?? firstRow() else { return }
        if selectedPath != nil {
            for _ in 0..<abs(count) {
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
        guard var path = selectedPath ?? firstRow() else { return }
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
        scrollToSelection()
        setNeedsDisplay()
    }
}

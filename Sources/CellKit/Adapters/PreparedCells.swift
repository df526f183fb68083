/// The platform-owned cells a ``ListViewCore`` handed out for rows they are not
/// displayed at (prepared ahead of display, or kept after their display ended),
/// one per row: what a reconfigure of that row must hand back.
///
/// Cells are held weakly (a cell the platform dropped is not kept alive). A cell
/// belongs to one row at a time: handing it out for another row, or showing it,
/// takes it from the row it had. Dead entries are swept once the table has doubled
/// since the last sweep, so remembering stays amortised O(1).
struct PreparedCells {
    private struct Entry { weak var cell: AnyObject? }

    private var cells: [ItemPath: Entry] = [:]
    /// The row each remembered cell belongs to; may name rows of cells that died since
    /// (an identifier can be reused by a new object), so it is checked against `cells`.
    private var rows: [ObjectIdentifier: ItemPath] = [:]
    private var sweepAt = 64

    /// Whether no row has a remembered cell.
    var isEmpty: Bool { cells.isEmpty }

    /// `cell` was handed out for `path`: it is that row's cell now, and no other row's.
    mutating func remember(_ cell: AnyObject, at path: ItemPath) {
        forget(cell, at: path)
        cells[path] = Entry(cell: cell)
        rows[ObjectIdentifier(cell)] = path
        if cells.count >= sweepAt { sweep() }
    }

    /// `cell` is shown at `path` (or handed out for it): neither the row it was
    /// remembered for nor `path` keeps a remembered cell.
    mutating func forget(_ cell: AnyObject, at path: ItemPath) {
        guard !cells.isEmpty else { return }
        let id = ObjectIdentifier(cell)
        if let old = rows.removeValue(forKey: id), let entry = cells[old], entry.cell == nil || entry.cell === cell {
            cells[old] = nil
        }
        if let entry = cells.removeValue(forKey: path), let other = entry.cell, rows[ObjectIdentifier(other)] == path {
            rows[ObjectIdentifier(other)] = nil
        }
    }

    /// The live cell remembered for `path`, unless `visible` (cell → row shown)
    /// shows it at another row.
    func cell(at path: ItemPath, visible: [ObjectIdentifier: ItemPath]) -> AnyObject? {
        guard let cell = cells[path]?.cell else { return nil }
        let id = ObjectIdentifier(cell)
        guard rows[id] == path, visible[id].map({ $0 == path }) ?? true else { return nil }
        return cell
    }

    /// Moves the remembered cells to their rows' new paths; cells of rows that left are forgotten.
    /// - Complexity: O(*p*), *p* the remembered cells; nothing when there are none.
    mutating func follow(_ mapping: PathMapping, newCounts: [Int]) {
        guard !cells.isEmpty else { return }
        var moved: [ItemPath: Entry] = [:]
        moved.reserveCapacity(cells.count)
        rows.removeAll(keepingCapacity: true)
        for (old, entry) in cells {
            guard let cell = entry.cell, let new = mapping.newPath(of: old),
                  new.section < newCounts.count, new.item < newCounts[new.section] else { continue }
            moved[new] = entry
            rows[ObjectIdentifier(cell)] = new
        }
        cells = moved
    }

    /// Forgets every cell (a reload: the platform drops the cells it prepared).
    mutating func removeAll() {
        cells.removeAll()
        rows.removeAll()
    }

    private mutating func sweep() {
        cells = cells.filter { $0.value.cell != nil }
        rows.removeAll(keepingCapacity: true)
        for (path, entry) in cells { if let cell = entry.cell { rows[ObjectIdentifier(cell)] = path } }
        sweepAt = max(64, cells.count * 2)
    }
}

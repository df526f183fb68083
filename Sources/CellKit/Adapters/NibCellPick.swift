/// Which of a nib's top-level objects is the cell (the Carbon Five factory's
/// `createCellWithOwner:` loop): the first one of the cell class whose reuse
/// identifier is ``identifier``, or of the class alone when ``identifier`` is `nil`.
/// One nib can so hold several cells.
public struct NibCellPick: Sendable {
    /// The nib's name, for the message when it holds no matching cell.
    public let nibName: String
    /// The reuse identifier the cell must carry; `nil`: any.
    public let identifier: String?

    /// A pick of the cell with `identifier` (`nil`: any) in the nib `nibName`.
    public init(nibName: String, identifier: String?) {
        self.nibName = nibName
        self.identifier = identifier
    }

    /// The first object of `objects` that is a `Cell` whose `reuseIdentifier` matches.
    public func cell<Cell: AnyObject>(
        _ cellType: Cell.Type, in objects: [Any], reuseIdentifier: (Cell) -> String?
    ) -> Cell? {
        for case let cell as Cell in objects where identifier == nil || reuseIdentifier(cell) == identifier {
            return cell
        }
        return nil
    }

    /// What went wrong when the nib holds no matching cell: names the nib, the class and the identifier.
    public func missingMessage(_ cellType: Any.Type, found objects: [Any]) -> String {
        let wanted = identifier.map { "a \(cellType) with reuse identifier \"\($0)\"" } ?? "a \(cellType)"
        let found = objects.isEmpty ? "nothing" : objects.map { String(describing: type(of: $0)) }.joined(separator: ", ")
        return "CellKit: the nib \"\(nibName)\" holds no \(wanted) among its top-level objects (found: \(found))"
    }
}

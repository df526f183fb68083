/// The position of an item in a sectioned list: a section and an item within it.
///
/// `ItemPath` plays the role of Foundation's `IndexPath` for lists, without
/// importing Foundation. `row` is an alias of `item`, for table-style code.
/// Its `description` is `[section, item]`, section first, as `IndexPath` prints;
/// CellKit's diagnostics spell positions out instead (`row 1 of section 0`).
///
/// ```swift
/// let path = ItemPath(item: 3, section: 1)
/// assert(path.row == 3)
/// ```
public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section index.
    public var section: Int
    /// The item index within the section.
    public var item: Int

    /// Creates a path to `item` in `section`.
    @inlinable
    public init(item: Int, section: Int) {
        self.item = item
        self.section = section
    }

    /// Creates a path to `row` in `section` (table-style spelling).
    @inlinable
    public init(row: Int, section: Int) {
        self.init(item: row, section: section)
    }

    /// The item index, under its table-view name.
    @inlinable
    public var row: Int {
        get { item }
        set { item = newValue }
    }

    @inlinable
    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        lhs.section != rhs.section ? lhs.section < rhs.section : lhs.item < rhs.item
    }

    public var description: String { "[\(section), \(item)]" }
}

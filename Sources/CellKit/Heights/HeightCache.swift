/// Measured row heights, keyed by the row's identity and the width it was
/// measured at, and valid only while the row's content stays the same.
///
/// A lookup compares the row's content with the content it was measured with
/// (``ListItem/isContentEqual(to:)``), so an update of the row invalidates its
/// height without any bookkeeping; ``invalidate(_:)`` and ``removeAll()`` do it
/// by hand (after a font size change, say).
///
/// ```swift
/// struct Message: Identifiable, Equatable, Sendable { let id: Int; var text: String }
/// var cache = HeightCache()
/// let row = ListItem(Message(id: 1, text: "hi"))
/// cache.store(60, for: row, width: 320)
/// assert(cache.height(for: row, width: 320) == 60)
/// assert(cache.height(for: row, width: 400) == nil)
/// assert(cache.height(for: ListItem(Message(id: 1, text: "hello, longer")), width: 320) == nil)
/// ```
public struct HeightCache: Sendable {
    private struct Key: Hashable, Sendable {
        let id: ItemID
        let width: Double
    }
    private var entries: [Key: (item: ListItem, height: Double)] = [:]

    /// Creates an empty cache.
    public init() {}

    /// The number of heights kept.
    public var count: Int { entries.count }

    /// The height measured for `item` at `width`, if its content has not changed since.
    public func height(for item: ListItem, width: Double) -> Double? {
        guard let entry = entries[Key(id: item.id, width: width)], entry.item.isContentEqual(to: item) else { return nil }
        return entry.height
    }

    /// Keeps `height` as the height of `item` at `width`; a width that is not finite
    /// and positive keeps nothing (no lookup could find it: NaN equals nothing).
    public mutating func store(_ height: Double, for item: ListItem, width: Double) {
        guard width.isFinite, width > 0 else { return }
        entries[Key(id: item.id, width: width)] = (item, height)
    }

    /// Forgets the heights of the rows showing the object with identity `id`, at every
    /// width: the rows with that identity (a duplicate's too) and the rows made with an
    /// explicit id (``ListItem/init(_:id:)``) whose model's own identity it is.
    public mutating func invalidate(_ id: ItemID) {
        entries = entries.filter { $0.key.id != id && !$0.value.item.showsObject(id) }
    }

    /// Forgets every height.
    public mutating func removeAll() { entries.removeAll() }
}

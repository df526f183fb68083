/// Measured row heights, keyed by the row's identity and the width it was
/// measured at, and valid only while the row's content stays the same.
///
/// A lookup compares the row's content with the content it was measured with
/// (``ListItem/isContentEqual(to:)``), so an update of the row invalidates its
/// height without any bookkeeping; ``invalidate(_:)`` and ``removeAll()`` do it
/// by hand (after a font size change, say).
///
/// Rows that share an identity and show different content (duplicates: the diff keeps
/// later occurrences as distinct rows) each keep their height: up to four contents per
/// identity and width, after which the content stored longest ago is forgotten. So asking
/// for one duplicate's height does not measure the other again. An updated row's old
/// content counts among the four until it is pushed out.
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
    /// A height measured for one content of a row.
    private struct Measured: Sendable {
        let item: ListItem
        let height: Double
    }
    /// The heights of one identity at one width: the content stored last, then the other
    /// contents stored before it, newest first.
    private struct Entry: Sendable {
        var latest: Measured
        var others: [Measured] = []   // empty (no allocation) unless rows share the identity
    }
    private var entries: [Key: Entry] = [:]

    /// How many contents of one identity keep a height at one width (see the type's discussion).
    static let contentsPerIdentity = 4

    /// Creates an empty cache.
    public init() {}

    /// The number of heights kept.
    public private(set) var count = 0

    /// The height measured for `item` at `width`, if its content has not changed since.
    ///
    /// - Complexity: O(1): at most four content comparisons (see the type's discussion).
    public func height(for item: ListItem, width: Double) -> Double? {
        guard let entry = entries[Key(id: item.id, width: width)] else { return nil }
        if entry.latest.item.isContentEqual(to: item) { return entry.latest.height }
        for measured in entry.others where measured.item.isContentEqual(to: item) { return measured.height }
        return nil
    }

    /// Keeps `height` as the height of `item` at `width`; a width that is not finite
    /// and positive keeps nothing (no lookup could find it: NaN equals nothing).
    public mutating func store(_ height: Double, for item: ListItem, width: Double) {
        guard width.isFinite, width > 0 else { return }
        let key = Key(id: item.id, width: width)
        let new = Measured(item: item, height: height)
        guard var entry = entries.removeValue(forKey: key) else {
            entries[key] = Entry(latest: new)
            count += 1
            return
        }
        if entry.latest.item.isContentEqual(to: item) {
            entry.latest = new
        } else {
            if let same = entry.others.firstIndex(where: { $0.item.isContentEqual(to: item) }) {
                entry.others.remove(at: same)
                count -= 1
            }
            entry.others.insert(entry.latest, at: 0)
            entry.latest = new
            count += 1
            if entry.others.count >= Self.contentsPerIdentity {
                entry.others.removeLast()
                count -= 1
            }
        }
        entries[key] = entry
    }

    /// Forgets the heights of the rows showing the object with identity `id`, at every
    /// width: the rows with that identity (a duplicate's too) and the rows made with an
    /// explicit id (``ListItem/init(_:id:)``) whose model's own identity it is.
    public mutating func invalidate(_ id: ItemID) {
        var kept: [Key: Entry] = [:]
        kept.reserveCapacity(entries.count)
        var total = 0
        for (key, entry) in entries where key.id != id {
            guard entry.latest.item.showsObject(id) || entry.others.contains(where: { $0.item.showsObject(id) }) else {
                kept[key] = entry
                total += 1 + entry.others.count
                continue
            }
            let rest = ([entry.latest] + entry.others).filter { !$0.item.showsObject(id) }
            guard let latest = rest.first else { continue }
            kept[key] = Entry(latest: latest, others: Array(rest.dropFirst()))
            total += rest.count
        }
        entries = kept
        count = total
    }

    /// Forgets every height.
    public mutating func removeAll() {
        entries.removeAll()
        count = 0
    }
}

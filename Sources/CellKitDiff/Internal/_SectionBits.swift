/// One bit per row of a sectioned list, each section starting on a word boundary:
/// the cheap set of paths that batch validation and path mapping use when the
/// list is not much larger than the batch (a `Set<ItemPath>` hashes every path).
///
/// Paths must be in range (`0 <= section < counts.count`, `0 <= item < counts[section]`);
/// callers check before they insert. A class over one allocation, so that
/// setting a bit checks no uniqueness; it never leaves the function that made it.
final class _SectionBits {
    /// For each section, its first word; one more entry for the end (`sections + 1` entries).
    private let wordStart: UnsafeMutablePointer<Int>
    private let sections: Int
    private let words: UnsafeMutablePointer<UInt64>
    private let wordCount: Int

    /// A bitmap for `counts` rows per section, all clear; `nil` when it would need
    /// more than `maxWords` words (then a hashed set costs less).
    ///
    /// - Complexity: O(*s* + words), *s* the number of sections.
    init?(counts: [Int], maxWords: Int) {
        var total = 0
        for count in counts {
            let rows = max(0, count)
            total += (rows >> 6) + (rows & 63 == 0 ? 0 : 1)   // no overflow near Int.max
            if total > maxWords { return nil }
        }
        sections = counts.count
        wordStart = .allocate(capacity: counts.count + 1)
        total = 0
        for (section, count) in counts.enumerated() {
            (wordStart + section).initialize(to: total)
            let rows = max(0, count)
            total += (rows >> 6) + (rows & 63 == 0 ? 0 : 1)
        }
        (wordStart + counts.count).initialize(to: total)
        wordCount = total
        words = .allocate(capacity: max(1, total))
        words.initialize(repeating: 0, count: total)
    }

    deinit {
        words.deallocate()
        wordStart.deallocate()
    }

    /// The number of words a bitmap worth building may take for a batch of
    /// `changes` changes: a few words per change, so that clearing and scanning
    /// it costs about as much as the changes themselves.
    static func wordBudget(changes: Int) -> Int { 4 &* changes &+ 64 }

    /// Sets the bit of `path`; returns whether it was clear.
    @inline(__always)
    func insert(_ path: ItemPath) -> Bool {
        let word = words + (wordStart[path.section] &+ (path.item &>> 6))
        let bit = UInt64(1) &<< UInt64(truncatingIfNeeded: path.item & 63)
        let old = word.pointee
        word.pointee = old | bit
        return old & bit == 0
    }

    /// Whether the bit of `path` is set.
    @inline(__always)
    func contains(_ path: ItemPath) -> Bool {
        words[wordStart[path.section] &+ (path.item &>> 6)] & (UInt64(1) &<< UInt64(truncatingIfNeeded: path.item & 63)) != 0
    }

    /// The paths whose bit is set, ascending.
    ///
    /// - Complexity: O(words + *s* + *k*), *k* the paths returned.
    func sortedPaths(count: Int) -> [ItemPath] {
        // Never `unsafeUninitializedCapacity: 0`: it writes the shared empty array (see `_exactArray`).
        guard count > 0 else { return [] }
        return [ItemPath](unsafeUninitializedCapacity: count) { buffer, initialized in
            var next = 0
            for section in 0..<sections {
                let first = wordStart[section]
                for index in first..<wordStart[section + 1] {
                    var word = words[index]
                    while word != 0, next < count {
                        buffer.initializeElement(at: next, to: ItemPath(item: (index &- first) &<< 6 | word.trailingZeroBitCount, section: section))
                        next &+= 1
                        word &= word &- 1
                    }
                }
            }
            initialized = next
        }
    }

    /// The destinations of `moves` in the order of their sources, whose bits are
    /// the ones set: a move's place is the number of sources before its bit.
    ///
    /// - Complexity: O(words + *m*), *m* the number of moves.
    func destinationsBySource(_ moves: [Move<ItemPath>]) -> [ItemPath] {
        let before = UnsafeMutablePointer<Int>.allocate(capacity: max(1, wordCount))
        defer { before.deallocate() }
        var total = 0
        for index in 0..<wordCount {
            (before + index).initialize(to: total)
            total &+= words[index].nonzeroBitCount
        }
        guard !moves.isEmpty else { return [] }  // never capacity 0 (see `_exactArray`)
        return [ItemPath](unsafeUninitializedCapacity: moves.count) { buffer, initialized in
            for move in moves {
                let index = wordStart[move.from.section] &+ (move.from.item &>> 6)
                let below = (UInt64(1) &<< UInt64(truncatingIfNeeded: move.from.item & 63)) &- 1
                buffer.initializeElement(at: before[index] &+ (words[index] & below).nonzeroBitCount, to: move.to)
            }
            initialized = moves.count
        }
    }
}

/// A set of in-range paths: a ``_SectionBits`` bitmap when the list is small next
/// to the batch, a ``_PathTable`` otherwise, so the cost follows the changes.
struct _PathMarks {
    private let bits: _SectionBits?
    private let table: _PathTable?
    /// How many paths were added.
    private(set) var count = 0

    /// An empty set of paths of a list with `counts` rows per section, for a batch of
    /// `changes` changes (at most that many paths are added).
    init(counts: [Int], changes: Int) {
        bits = _SectionBits(counts: counts, maxWords: _SectionBits.wordBudget(changes: changes))
        table = bits == nil ? _PathTable(capacity: changes) : nil
    }

    /// Adds `path`; returns whether it was absent.
    @inline(__always)
    mutating func insert(_ path: ItemPath) -> Bool {
        let inserted = bits?.insert(path) ?? table.unsafelyUnwrapped.insert(path)
        if inserted { count &+= 1 }
        return inserted
    }

    /// Whether `path` was added.
    @inline(__always)
    func contains(_ path: ItemPath) -> Bool {
        count != 0 && (bits?.contains(path) ?? table.unsafelyUnwrapped.contains(path))
    }
}

/// A fixed-size open-addressing set of paths with `section >= 0` (linear probing,
/// at most half full): what ``_PathMarks`` uses when a bitmap of the rows would
/// be large next to the batch. Cheaper than `Set<ItemPath>`, which hashes with
/// SipHash; like ``_SectionBits``, it never leaves the function that made it.
final class _PathTable {
    private let slots: UnsafeMutablePointer<ItemPath>
    private let size: Int
    private let shift: UInt64
    private var stored = 0
    private let capacity: Int

    /// An empty table for at most `capacity` paths.
    init(capacity: Int) {
        var size = 16, bits: UInt64 = 4
        while size < 2 &* max(capacity, 1) { size <<= 1; bits += 1 }
        self.size = size
        self.capacity = capacity
        shift = 64 - bits
        slots = .allocate(capacity: size)
        slots.initialize(repeating: ItemPath(item: 0, section: -1), count: size)
    }

    deinit { slots.deallocate() }

    @inline(__always)
    private func home(_ path: ItemPath) -> Int {
        let mixed = (UInt64(bitPattern: Int64(path.section)) &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(bitPattern: Int64(path.item))
        return Int(truncatingIfNeeded: (mixed &* 0xBF58_476D_1CE4_E5B9) >> shift)
    }

    /// Adds `path` (`section >= 0`); returns whether it was absent.
    func insert(_ path: ItemPath) -> Bool {
        var index = home(path)
        while true {
            let slot = slots[index]
            if slot.section < 0 {
                precondition(stored < capacity, "_PathTable: more paths than its capacity")
                slots[index] = path
                stored &+= 1
                return true
            }
            if slot == path { return false }
            index = (index &+ 1) & (size &- 1)
        }
    }

    /// Whether `path` was added.
    func contains(_ path: ItemPath) -> Bool {
        var index = home(path)
        while true {
            let slot = slots[index]
            if slot.section < 0 { return false }
            if slot == path { return true }
            index = (index &+ 1) & (size &- 1)
        }
    }
}

/// Puts a batch's paths in order without a comparison sort of every change:
/// lists the diff made are in order already (two of them are merged); others go
/// through a bitmap of the rows (one bit a row, read back in order) when the list
/// is small next to the batch, through `sorted()` otherwise. SPI for CellKit's
/// `PathMapping`, not API.
@_spi(Adapters) public enum _PathSorting {
    /// The paths of `first` and `second` together, ascending (duplicates kept);
    /// `secondAscends` when the caller knows that `second` ascends.
    ///
    /// - Complexity: O(*k*) when each list ascends; O(*k* + *s*) through a bitmap
    ///   when they are distinct, in range of `counts` and the rows number at most
    ///   a few hundred per path; O(*k* log *k*) otherwise.
    public static func ascending(
        _ first: [ItemPath], _ second: [ItemPath] = [], secondAscends: Bool = false, counts: [Int]
    ) -> [ItemPath] {
        let firstAscends = isAscending(first)
        if second.isEmpty, firstAscends { return first }
        let secondAscends = secondAscends || isAscending(second)
        if first.isEmpty, secondAscends { return second }
        if firstAscends, secondAscends { return merged(first, second) }
        let paths = first + second
        if let bits = _SectionBits(counts: counts, maxWords: _SectionBits.wordBudget(changes: paths.count)),
           bits.insertAll(paths, counts: counts) {
            return bits.sortedPaths(count: paths.count)
        }
        return paths.sorted()
    }

    /// The sources of `moves`, ascending, and each one's destination at the same index.
    ///
    /// - Complexity: as ``ascending(_:_:secondAscends:counts:)``, over the sources.
    public static func bySource(_ moves: [Move<ItemPath>], counts: [Int]) -> (sources: [ItemPath], destinations: [ItemPath]) {
        let sources = moves.map(\.from)
        if isAscending(sources) { return (sources, moves.map(\.to)) }
        if let bits = _SectionBits(counts: counts, maxWords: _SectionBits.wordBudget(changes: moves.count)),
           bits.insertAll(sources, counts: counts) {
            return (bits.sortedPaths(count: moves.count), bits.destinationsBySource(moves))
        }
        let sorted = moves.sorted { $0.from < $1.from }
        return (sorted.map(\.from), sorted.map(\.to))
    }

    /// Whether `paths` strictly ascend.
    private static func isAscending(_ paths: [ItemPath]) -> Bool {
        paths.withUnsafeBufferPointer { buffer in
            var index = 1
            while index < buffer.count {
                if !(buffer[index &- 1] < buffer[index]) { return false }
                index &+= 1
            }
            return true
        }
    }

    /// The ascending `first` and `second` merged.
    private static func merged(_ first: [ItemPath], _ second: [ItemPath]) -> [ItemPath] {
        // Never `unsafeUninitializedCapacity: 0` (see `_exactArray`).
        if first.isEmpty { return second }
        if second.isEmpty { return first }
        return first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in
                [ItemPath](unsafeUninitializedCapacity: a.count + b.count) { result, initialized in
                    var i = 0, j = 0, k = 0
                    while i < a.count, j < b.count {
                        if b[j] < a[i] {
                            result.initializeElement(at: k, to: b[j]); j &+= 1
                        } else {
                            result.initializeElement(at: k, to: a[i]); i &+= 1
                        }
                        k &+= 1
                    }
                    while i < a.count { result.initializeElement(at: k, to: a[i]); i &+= 1; k &+= 1 }
                    while j < b.count { result.initializeElement(at: k, to: b[j]); j &+= 1; k &+= 1 }
                    initialized = k
                }
            }
        }
    }
}

extension _SectionBits {
    /// Sets the bits of `paths`; `false` (some bits set) when one is out of range of `counts` or repeated.
    fileprivate func insertAll(_ paths: [ItemPath], counts: [Int]) -> Bool {
        for p in paths {
            guard p.section >= 0, p.section < counts.count, p.item >= 0, p.item < counts[p.section],
                  insert(p) else { return false }
        }
        return true
    }
}

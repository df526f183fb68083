// The diff's hot path: matching identifiers through a flat open-addressing table,
// and the longest increasing subsequence that decides which matched items stay.
// Everything here is `@inlinable` so that it is specialised for the caller's
// identifier type in the caller's module.

/// A later occurrence of an identifier, and the position of its first occurrence.
@usableFromInline
internal struct _DuplicateRecord {
    /// Whether the duplicate is in the new snapshot (else the old one).
    @usableFromInline var isNew: Bool
    /// Index of the first occurrence, in the same snapshot.
    @usableFromInline var first: Int
    /// Index of this later occurrence.
    @usableFromInline var later: Int

    @inlinable
    init(isNew: Bool, first: Int, later: Int) {
        self.isNew = isNew
        self.first = first
        self.later = later
    }
}

/// Which old element matches which new one (by identifier, first occurrence wins).
@usableFromInline
internal struct _Matching {
    /// For each old index: the matching new index, or -1.
    @usableFromInline var oldToNew: [Int32]
    /// For each new index: the matching old index, or -1.
    @usableFromInline var newToOld: [Int32]
    /// Every later occurrence of an identifier, in scan order.
    @usableFromInline var duplicates: [_DuplicateRecord]
    /// The number of matched pairs (non-negative entries of either map), as matched.
    @usableFromInline var matchedCount: Int

    @inlinable
    init(oldToNew: [Int32], newToOld: [Int32], duplicates: [_DuplicateRecord], matchedCount: Int) {
        self.oldToNew = oldToNew
        self.newToOld = newToOld
        self.duplicates = duplicates
        self.matchedCount = matchedCount
    }
}

/// An identifier alone, as a differentiable element (for matching section ids).
@usableFromInline
internal struct _Identified<ID: Hashable>: Differentiable {
    @usableFromInline let differenceIdentifier: ID

    @inlinable
    init(_ id: ID) { differenceIdentifier = id }

    @inlinable
    func isContentEqual(to other: _Identified<ID>) -> Bool { true }
}

/// The hash the identifier table uses: the identifier's own `hashValue`, except
/// for the standard fixed-width integer types, whose bits are mixed here with a
/// per-process random seed (taken from `Hasher`) instead of going through
/// SipHash once per element, and for `String` identifiers when every identifier
/// of the diff is ASCII (``asciiStrings``), whose UTF-8 bytes are mixed a word at a
/// time. Only the probe sequence depends on the hash; every match is still
/// decided by `==` (for all-ASCII `String`s, by equal 64-bit hashes, each such
/// decision then checked by equal UTF-8 bytes, which is the same as `==`, the whole
/// matching done again with `==` if one does not hold: see `_matchIdentifiers`), so
/// the result is the same for every input.
///
/// The `String` fast path needs every identifier on both sides to be ASCII: only
/// then is `==` (canonical equivalence) the same as equal bytes. A non-ASCII
/// string can equal an ASCII one ("\u{212A}", the Kelvin sign, == "K"), so one
/// non-ASCII identifier anywhere sends the whole diff through `hashValue`.
@usableFromInline
internal struct _IdentifierHash<ID: Hashable> {
    @usableFromInline let seed: UInt64
    /// Whether `ID` is `String` and every identifier of this diff is ASCII (the
    /// matcher checks them all first).
    @usableFromInline let asciiStrings: Bool

    @inlinable
    init(asciiStrings: Bool = false) {
        self.asciiStrings = asciiStrings
        if Self.isInteger || asciiStrings {
            var hasher = Hasher()
            hasher.combine(0x5EED as UInt64)
            seed = UInt64(truncatingIfNeeded: hasher.finalize())
        } else {
            seed = 0
        }
    }

    /// Whether `ID` is one of the integer types hashed here (folded away when specialised).
    @inlinable
    static var isInteger: Bool {
        ID.self == Int.self || ID.self == UInt.self || ID.self == Int64.self || ID.self == UInt64.self
            || ID.self == Int32.self || ID.self == UInt32.self
    }

    /// A seeded bijection on 64-bit words (one xorshift–multiply round): the
    /// product's upper half depends on every bit of the word (the xorshift brings
    /// the upper bits down first), and the table takes both the slot (its low bits)
    /// and the tag (its high bits) from that half (see ``home(of:)``). Where `Int`
    /// has 32 bits, the halves are folded together instead (a last xorshift).
    @inlinable @inline(__always)
    func mix(_ x: UInt64) -> Int {
        var z = x &+ seed
        z = (z ^ (z &>> 32)) &* 0xD6E8_FEB8_6659_FD93
        #if _pointerBitWidth(_64)
        return Int(truncatingIfNeeded: z)
        #else
        return Int(truncatingIfNeeded: z ^ (z &>> 32))
        #endif
    }

    /// The bits of a hash the table takes the slot (low bits) and the tag (high
    /// bits) from: the upper half where `Int` has 64 bits, else the hash itself.
    @inlinable @inline(__always)
    static func home(of hash: Int) -> UInt32 {
        let bits = UInt64(UInt(bitPattern: hash))
        return UInt32(truncatingIfNeeded: UInt.bitWidth == 64 ? bits &>> 32 : bits)
    }

    /// The bytes of a string whose UTF-8 is stored contiguously, folded a word at a
    /// time with the seed (`_foldASCII`).
    @inlinable
    func asciiHash(_ string: String) -> Int {
        let folded: UInt64? = string.utf8.withContiguousStorageIfAvailable { _foldASCII($0, seed: seed) } ?? nil
        // (The fallback is not reached: every identifier was checked.)
        return finish(folded ?? UInt64(truncatingIfNeeded: string.hashValue))
    }

    /// A folded string hash as the table reads it: as it is where `Int` has 64 bits,
    /// else its halves folded together.
    @inlinable @inline(__always)
    func finish(_ folded: UInt64) -> Int {
        #if _pointerBitWidth(_64)
        return Int(truncatingIfNeeded: folded)
        #else
        return Int(truncatingIfNeeded: folded ^ (folded &>> 32))
        #endif
    }

    @inlinable @inline(__always)
    func callAsFunction(_ id: ID) -> Int {
        if ID.self == Int.self { return mix(UInt64(truncatingIfNeeded: unsafeBitCast(id, to: Int.self))) }
        if ID.self == UInt.self { return mix(UInt64(truncatingIfNeeded: unsafeBitCast(id, to: UInt.self))) }
        if ID.self == Int64.self { return mix(UInt64(truncatingIfNeeded: unsafeBitCast(id, to: Int64.self))) }
        if ID.self == UInt64.self { return mix(unsafeBitCast(id, to: UInt64.self)) }
        if ID.self == Int32.self { return mix(UInt64(truncatingIfNeeded: unsafeBitCast(id, to: Int32.self))) }
        if ID.self == UInt32.self { return mix(UInt64(unsafeBitCast(id, to: UInt32.self))) }
        if ID.self == String.self && asciiStrings { return asciiHash(unsafeBitCast(id, to: String.self)) }
        // The two halves swapped where `Int` has 64 bits: the table reads the upper
        // half (see `home(of:)`), and a hand-written `hashValue` may leave it zero.
        let h = UInt(bitPattern: id.hashValue)
        return Int(bitPattern: UInt.bitWidth == 64 ? h &<< 32 | h &>> 32 : h)
    }
}

/// Whether two strings are equal, for strings known to be ASCII: compares their
/// UTF-8 bytes a word at a time. Only for ASCII is that the same as `==`, which
/// compares by canonical equivalence (no ASCII string is canonically equivalent
/// to any other string of ASCII characters); a string whose UTF-8 is not stored
/// contiguously is compared with `==`.
@inlinable @inline(__always)
internal func _asciiEqual(_ a: String, _ b: String) -> Bool {
    let equal: Bool?? = a.utf8.withContiguousStorageIfAvailable { x in
        b.utf8.withContiguousStorageIfAvailable { y in
            let n = x.count
            guard n == y.count else { return false }
            guard let p = x.baseAddress, let q = y.baseAddress, p != q else { return true }
            let l = UnsafeRawPointer(p)
            let r = UnsafeRawPointer(q)
            if n >= 8 {
                // Words from the front, then the last word (overlapping the one before it).
                var offset = 0
                while offset &+ 8 < n {
                    if l.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        != r.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
                    offset &+= 8
                }
                return l.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
                    == r.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            }
            if n >= 4 {
                return l.loadUnaligned(as: UInt32.self) == r.loadUnaligned(as: UInt32.self)
                    && l.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
                        == r.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            }
            for k in 0..<n where l.load(fromByteOffset: k, as: UInt8.self) != r.load(fromByteOffset: k, as: UInt8.self) {
                return false
            }
            return true
        }
    }
    if let equal, let equal { return equal }
    return a == b
}

/// The bytes of an ASCII string folded a word at a time into a seeded hash (the last word
/// overlapping the one before it when the length is not a multiple of 8; strings of fewer
/// than 8 bytes as one word that holds every byte: `_foldShortASCII`), as `_IdentifierHash.asciiHash` hashes
/// them; nil if a byte is not ASCII. Each word goes through one full-width multiply whose
/// two halves are folded together, so every bit of the result depends on every bit of
/// the word and of the bytes before it.
@inlinable @inline(__always)
internal func _foldASCII(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64? {
    let n = bytes.count
    var h = seed ^ UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15
    guard let base = bytes.baseAddress, n > 0 else { return _foldWord(h) }
    let raw = UnsafeRawPointer(base)
    var high: UInt64
    if n >= 8 {
        // Every word but the last, then the last one (ending at the last byte).
        high = 0
        var offset = 0
        while offset &+ 8 < n {
            let w = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            high |= w
            h = _foldWord(h ^ w)
            offset &+= 8
        }
        let w = raw.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        high |= w
        h = _foldWord(h ^ w)
    } else {
        return _foldShortASCII(raw, n, h)
    }
    return high & 0x8080_8080_8080_8080 == 0 ? h : nil
}

/// `_foldASCII` of 1 to 7 bytes, from the state `h`: the first and the last four bytes
/// (which overlap) for 4 to 7, the first, middle and last byte for 1 to 3; with the length
/// (in `h`), either word gives every byte back. Out of line, so that `_foldASCII` stays
/// small enough to be inlined where `String.withUTF8` calls it (twice: a large string's
/// bytes and a small string's copy): that saves a call on every id of 8 bytes or more
/// and costs one on shorter ids (100k rows of `String` ids, 10% mix: 21-byte ids −6.3%,
/// 5-byte ids +1.2% instructions).
@inlinable @inline(never)
internal func _foldShortASCII(_ raw: UnsafeRawPointer, _ n: Int, _ h: UInt64) -> UInt64? {
    let w: UInt64 = n >= 4
        ? UInt64(raw.loadUnaligned(as: UInt32.self))
            | UInt64(raw.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)) &<< 32
        : UInt64(raw.load(as: UInt8.self)) | UInt64(raw.load(fromByteOffset: n &>> 1, as: UInt8.self)) &<< 8
            | UInt64(raw.load(fromByteOffset: n &- 1, as: UInt8.self)) &<< 16
    return w & 0x8080_8080_8080_8080 == 0 ? _foldWord(h ^ w) : nil
}

/// One round of the ASCII fold: the word times an odd constant, full width, its halves
/// folded together.
@inlinable @inline(__always)
internal func _foldWord(_ x: UInt64) -> UInt64 {
    let p = x.multipliedFullWidth(by: 0xD6E8_FEB8_6659_FD93)
    return p.high ^ p.low
}

/// Whether every identifier of `elements` is an ASCII `String` stored as contiguous
/// UTF-8 (false for any other identifier type).
@inlinable
internal func _allASCIIStrings<E: Differentiable>(_ elements: UnsafeBufferPointer<E>) -> Bool {
    guard let hashes = _asciiHashes(elements, _IdentifierHash<E.DifferenceIdentifier>(asciiStrings: true)) else {
        return false
    }
    hashes.deallocate()
    return true
}

/// The hash of every identifier of `elements` (`hashOf(id)`, as `hashOf` hashes an
/// ASCII string), if every one is an ASCII `String` stored as contiguous UTF-8, else
/// nil (always nil for other identifier types). Each string is checked and hashed in
/// one pass over its bytes, a word at a time. The caller deallocates the result.
@inlinable
internal func _asciiHashes<E: Differentiable>(
    _ elements: UnsafeBufferPointer<E>, _ hashOf: _IdentifierHash<E.DifferenceIdentifier>
) -> UnsafeMutablePointer<Int>? {
    guard E.DifferenceIdentifier.self == String.self else { return nil }
    let hashes = UnsafeMutablePointer<Int>.allocate(capacity: elements.count)
    for k in 0..<elements.count {
        var id = unsafeBitCast(elements[k].differenceIdentifier, to: String.self)
        guard id.isContiguousUTF8 else {
            hashes.deallocate()
            return nil
        }
        // The folded bytes, as `asciiHash` folds them, or nil if a byte is not ASCII
        // (`withUTF8` does not copy a contiguous string).
        let folded = id.withUTF8 { _foldASCII($0, seed: hashOf.seed) }
        guard let folded else {
            hashes.deallocate()
            return nil
        }
        hashes[k] = hashOf.finish(folded)
    }
    return hashes
}

/// The identifier hash of a diff and, for `String` identifiers that are all ASCII
/// (both sides), every identifier's hash (see `_asciiHashes`); `ascii: false` takes
/// the `hashValue` path for every identifier type.
@inlinable
internal func _identifierHashes<E: Differentiable>(
    _ old: UnsafeBufferPointer<E>, _ new: UnsafeBufferPointer<E>, ascii: Bool = true
) -> (_IdentifierHash<E.DifferenceIdentifier>, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int>?) {
    if E.DifferenceIdentifier.self == String.self && ascii {
        let ascii = _IdentifierHash<E.DifferenceIdentifier>(asciiStrings: true)
        if let o = _asciiHashes(old, ascii) {
            if let n = _asciiHashes(new, ascii) { return (ascii, o, n) }
            o.deallocate()
        }
    }
    return (_IdentifierHash(), nil, nil)
}

/// Matches the elements of two snapshots by identifier through a flat
/// open-addressing table.
///
/// Every old identifier is hashed once into a table with a power-of-two
/// capacity and linear probing. A slot is one 32-bit word: the entry in the low
/// bits (old index + 1, or old count + 1 + new index for an identifier seen only
/// in the new snapshot, kept to detect duplicates there; 0 is empty) and, in the
/// bits left over, a tag taken from the upper half of the hash, which spares reading
/// the identifier on most collisions. The new snapshot is then walked with a
/// cursor into the old one: while the next old element (or the one after it,
/// or the one where the cursor was before its last jump, or the one before the
/// last match, for runs that were reversed) carries the same
/// identifier, the pair is matched without hashing, so runs that kept their
/// order cost one comparison per element; only the elements after a disruption
/// are looked up. The first occurrence of an identifier on each side keeps the
/// identity; later ones stay unmatched and are recorded as duplicates. The
/// result is the same as matching every element through the table.
///
/// `String` identifiers that are all ASCII (both sides; `asciiHashes`, false for
/// the second try) are hashed once each, up front, and compared by those hashes
/// alone; every pair found equal (each match, each duplicate) is then checked byte
/// by byte (`_asciiMatchesHold`), and if one is not, the matching is done again
/// through `hashValue` and `==`.
///
/// - Complexity: O(*n* + *m*) expected, *n* and *m* the two counts.
@inlinable
internal func _matchIdentifiers<E: Differentiable>(
    _ old: UnsafeBufferPointer<E>, _ new: UnsafeBufferPointer<E>, asciiHashes: Bool = true
) -> _Matching {
    let nOld = old.count
    let nNew = new.count
    precondition(nOld &+ nNew < Int(Int32.max), "CellKitDiff handles fewer than 2^31 elements in all")
    // -1: unmatched; -2: a later occurrence of an old identifier (never matched).
    // Neither map is filled beforehand: the inserts into the table write every entry
    // of `oldToNew` before the walk over new reads any, and that walk writes every
    // entry of `newToOld`.
    var oldToNew: [Int32] = []
    var duplicates: [_DuplicateRecord] = []
    if nOld == 0 && nNew == 0 {
        return _Matching(oldToNew: oldToNew, newToOld: [], duplicates: duplicates, matchedCount: 0)
    }
    // Slot layout: entry in the low `entryBits` bits, tag above.
    let entryBits = Swift.max(1, UInt32.bitWidth &- UInt32(truncatingIfNeeded: nOld &+ nNew &+ 1).leadingZeroBitCount)
    let entryMask: UInt32 = entryBits >= 32 ? ~0 : (1 << UInt32(entryBits)) &- 1
    let tagMask = ~entryMask
    // The slot and the tag come from the same 32 bits of the hash (see
    // `_IdentifierHash.home(of:)`): the slot from the low bits (as many as the table
    // has slot bits), the tag from those above the entry bits. They overlap only by
    // the bits the table has beyond the entries' (at most 2, or a table of 16 slots),
    // which makes the tag a little less selective there, never wrong.
    @inline(__always)
    func tag(of hash: Int) -> UInt32 {
        _IdentifierHash<E.DifferenceIdentifier>.home(of: hash) & tagMask
    }
    @inline(__always)
    func home(of hash: Int) -> Int {
        Int(truncatingIfNeeded: _IdentifierHash<E.DifferenceIdentifier>.home(of: hash))
    }
    // `String` identifiers that are all ASCII (both sides): hashed once each, up front,
    // in the same pass over their bytes as the check; their hashes then also decide
    // most comparisons (equal bytes are compared only when the hashes are equal).
    let (hashOf, oldHashes, newHashes) = _identifierHashes(old, new, ascii: asciiHashes)
    defer {
        oldHashes?.deallocate()
        newHashes?.deallocate()
    }
    var matchedCount = 0

    // Whether two identifiers are equal: `==` (not used for ASCII `String`s, below).
    @inline(__always)
    func same(_ a: E.DifferenceIdentifier, _ b: E.DifferenceIdentifier) -> Bool {
        a == b
    }
    // Whether old element `i` and new element `j` (whose identifier is `id`) have
    // equal identifiers. For ASCII `String`s, taken to be so when their 64-bit hashes
    // are equal: strings with equal bytes have equal hashes, so "different" is always
    // right, and every "equal" taken from the hashes (each pair matched, each duplicate
    // recorded) is checked byte by byte after the walk; if one is wrong (two ids with
    // equal hashes), the whole matching is done again with `==` (see the end).
    @inline(__always)
    func sameAt(_ i: Int, _ j: Int, _ id: E.DifferenceIdentifier) -> Bool {
        if E.DifferenceIdentifier.self == String.self, let oldHashes, let newHashes {
            return oldHashes[i] == newHashes[j]
        }
        return old[i].differenceIdentifier == id
    }
    @inline(__always)
    func oldHash(_ i: Int) -> Int {
        if E.DifferenceIdentifier.self == String.self, let oldHashes { return oldHashes[i] }
        return hashOf(old[i].differenceIdentifier)
    }
    @inline(__always)
    func newHash(_ j: Int, _ id: E.DifferenceIdentifier) -> Int {
        if E.DifferenceIdentifier.self == String.self, let newHashes { return newHashes[j] }
        return hashOf(id)
    }

    @inline(__always)
    func identifier(ofEntry entry: UInt32) -> E.DifferenceIdentifier {
        let value = Int(entry & entryMask)
        return value <= nOld ? old[value &- 1].differenceIdentifier : new[value &- nOld &- 1].differenceIdentifier
    }

    let newToOld: [Int32] = _exactArray(count: nNew) { n2o in
        oldToNew = _exactArray(count: nOld) { o2n in
            // The table's state is local to this closure, so that it stays in registers.
            // Load factor at most 1/2 for the old identifiers, or for as many new-only
            // ones as the new snapshot has rows beyond the old one's count, if more (a
            // first load: no growth); grows if more new ones arrive.
            var capacity = 16
            let expected = Swift.max(nOld, nNew &- nOld)
            while capacity < 2 &* expected { capacity &<<= 1 }
            var mask = capacity &- 1
            // Zeroed just before the inserts, so that it is still in cache when they start.
            var table = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
            defer { table.deallocate() }
            var entries = 0
            // A large table (more than 2^18 slots, i.e. more than 1 MB, a core's L2 on the
            // reference machine): partition the old identifiers by the region of the table
            // they land in (256 regions), then insert region by region, so that inserts
            // hit a cache-resident part of the table instead of missing the cache on
            // every element. Identifiers keep their relative order inside a region, so
            // first occurrences still win. A table that fits a core's cache is filled
            // in order.
            let slotBits = capacity.trailingZeroBitCount
            let partitioned = slotBits >= 19
            // Each old element's table word (tag | index + 1) in the low half and its
            // first slot in the high half, in region order.
            var partitionedWords: UnsafeMutablePointer<UInt64>? = nil
            defer { partitionedWords?.deallocate() }
            if partitioned {
                let shift = slotBits &- 8
                let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: nOld)
                defer { keys.deallocate() }
                let words = UnsafeMutablePointer<UInt64>.allocate(capacity: nOld)
                partitionedWords = words
                var starts = [Int](repeating: 0, count: 257)
                starts.withUnsafeMutableBufferPointer { starts in
                    for i in 0..<nOld {
                        let hash = oldHash(i)
                        let slot = home(of: hash) & mask
                        keys[i] = UInt64(truncatingIfNeeded: slot) &<< 32 | UInt64(tag(of: hash))
                        o2n[i] = -1
                        starts[(slot &>> shift) &+ 1] &+= 1
                    }
                    for b in 0..<256 { starts[b &+ 1] &+= starts[b] }
                    for i in 0..<nOld {
                        let key = keys[i]
                        let b = Int(truncatingIfNeeded: key &>> 32) &>> shift
                        let p = starts[b]
                        starts[b] = p &+ 1
                        words[p] = key | UInt64(truncatingIfNeeded: i &+ 1)
                    }
                }
            }
            table.initialize(repeating: 0, count: capacity)
            // Inserts `word` (tag | old index + 1) from `slot` on.
            @inline(__always)
            func insert(_ word: UInt32, from slot: Int) {
                let t = word & tagMask
                var slot = slot
                while true {
                    let entry = table[slot]
                    if entry == 0 {
                        table[slot] = word
                        return
                    }
                    if entry & tagMask == t {
                        let first = Int(entry & entryMask) &- 1
                        let i = Int(word & entryMask) &- 1
                        let id = old[i].differenceIdentifier
                        if E.DifferenceIdentifier.self == String.self && oldHashes != nil
                            ? oldHashes.unsafelyUnwrapped[first] == oldHashes.unsafelyUnwrapped[i]
                            : same(old[first].differenceIdentifier, id) {
                            duplicates.append(_DuplicateRecord(isNew: false, first: first, later: i))
                            o2n[i] = -2
                            return
                        }
                        // An identifier equal to nothing, itself included (`Double.nan`): it matches
                        // no row, so it stays out of the table, where every such one would have
                        // probed past all the others (they hash alike): n² comparisons.
                        if !(id == id) { return }
                    }
                    slot = (slot &+ 1) & mask
                }
            }
            if let words = partitionedWords {
                for k in 0..<nOld {
                    let word = words[k]
                    insert(UInt32(truncatingIfNeeded: word), from: Int(truncatingIfNeeded: word &>> 32))
                }
            } else {
                for i in 0..<nOld {
                    o2n[i] = -1
                    let hash = oldHash(i)
                    insert(tag(of: hash) | UInt32(truncatingIfNeeded: i &+ 1), from: home(of: hash) & mask)
                }
            }
            // Every old element is in the table but the later occurrences (the only
            // duplicates recorded so far).
            entries = nOld &- duplicates.count

            // `cursor`: the old element after the last match; `resume`: where the
            // cursor was before the last jump (a far move pulls the cursor away, and
            // the elements after the moved one usually continue from `resume`).
            var cursor = 0
            var resume = 0
            // New elements left unmatched (seen only in the new snapshot, or later
            // occurrences there): every other one is matched.
            var unmatched = 0
            @inline(__always)
            func claims(_ i: Int, _ j: Int, _ id: E.DifferenceIdentifier) -> Bool {
                i < nOld && o2n[i] == -1 && sameAt(i, j, id)
            }
            var j = 0
            while j < nNew {
                let id = new[j].differenceIdentifier
                if claims(cursor, j, id) {
                    // A run that kept its order: matched in a loop of its own while the
                    // next old element carries the next new identifier.
                    // `j` and `cursor` advance together: one bound for both ends.
                    // Addressed from the run's start, so that the loop keeps few values
                    // live (both sides have elements here, so every base address exists).
                    let length = Swift.min(nNew &- j, nOld &- cursor)
                    let oldRun = old.baseAddress.unsafelyUnwrapped + cursor
                    let newRun = new.baseAddress.unsafelyUnwrapped + j
                    let o2nRun = o2n.baseAddress.unsafelyUnwrapped + cursor
                    let n2oRun = n2o.baseAddress.unsafelyUnwrapped + j
                    var newIndex = Int32(truncatingIfNeeded: j)
                    var oldIndex = Int32(truncatingIfNeeded: cursor)
                    var t = 0
                    repeat {
                        o2nRun[t] = newIndex
                        n2oRun[t] = oldIndex
                        newIndex &+= 1
                        oldIndex &+= 1
                        t &+= 1
                    } while t < length && o2nRun[t] == -1
                        && (E.DifferenceIdentifier.self == String.self && oldHashes != nil
                            ? sameAt(cursor &+ t, j &+ t, newRun[t].differenceIdentifier)
                            : same(oldRun[t].differenceIdentifier, newRun[t].differenceIdentifier))
                    cursor &+= t
                    j &+= t
                    resume = cursor
                    continue
                }
                var candidate = -1
                if claims(cursor &+ 1, j, id) {
                    candidate = cursor &+ 1  // one old element skipped (deleted or moved)
                } else if resume != cursor && claims(resume, j, id) {
                    candidate = resume
                } else if resume != cursor && claims(resume &+ 1, j, id) {
                    candidate = resume &+ 1
                } else if cursor >= 2 && claims(cursor &- 2, j, id) {
                    // The old element before the last match: a run that was reversed,
                    // matched in a loop of its own while the old element before the
                    // last match carries the next new identifier.
                    var i = cursor &- 2
                    repeat {
                        o2n[i] = Int32(truncatingIfNeeded: j)
                        n2o[j] = Int32(truncatingIfNeeded: i)
                        i &-= 1
                        j &+= 1
                    } while j < nNew && i >= 0 && o2n[i] == -1
                        && sameAt(i, j, new[j].differenceIdentifier)
                    cursor = i &+ 2
                    resume = cursor
                    continue
                }
                if candidate >= 0 {
                    o2n[candidate] = Int32(truncatingIfNeeded: j)
                    n2o[j] = Int32(truncatingIfNeeded: candidate)
                    cursor = candidate &+ 1
                    resume = cursor
                    j &+= 1
                    continue
                }
                n2o[j] = -1  // until the table matches it
                let hash = newHash(j, id)
                let t = tag(of: hash)
                var slot = home(of: hash) & mask
                while true {
                    let entry = table[slot]
                    if entry == 0 {
                        // Seen only in the new snapshot so far: remember it for duplicates.
                        unmatched &+= 1
                        if (entries &+ 1) &* 4 > capacity &* 3 {
                            let newCapacity = capacity &<< 1
                            let newMask = newCapacity &- 1
                            let grown = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity)
                            grown.initialize(repeating: 0, count: newCapacity)
                            for s in 0..<capacity where table[s] != 0 {
                                let value = Int(table[s] & entryMask)
                                var u = home(of: value <= nOld ? oldHash(value &- 1)
                                    : newHash(value &- nOld &- 1, new[value &- nOld &- 1].differenceIdentifier)) & newMask
                                while grown[u] != 0 { u = (u &+ 1) & newMask }
                                grown[u] = table[s]
                            }
                            table.deallocate()
                            table = grown
                            capacity = newCapacity
                            mask = newMask
                            slot = home(of: hash) & mask
                        }
                        while table[slot] != 0 { slot = (slot &+ 1) & mask }
                        table[slot] = t | UInt32(truncatingIfNeeded: nOld &+ 1 &+ j)
                        entries &+= 1
                        break
                    }
                    let sameTag = entry & tagMask == t
                    if sameTag && (E.DifferenceIdentifier.self == String.self && oldHashes != nil
                        ? (Int(entry & entryMask) <= nOld ? sameAt(Int(entry & entryMask) &- 1, j, id)
                            : newHashes.unsafelyUnwrapped[Int(entry & entryMask) &- nOld &- 1] == hash)
                        : same(identifier(ofEntry: entry), id)) {
                        let value = Int(entry & entryMask)
                        if value <= nOld {
                            let i = value &- 1
                            let matched = Int(o2n[i])
                            if matched < 0 {
                                o2n[i] = Int32(truncatingIfNeeded: j)
                                n2o[j] = Int32(truncatingIfNeeded: i)
                                resume = cursor
                                cursor = i &+ 1
                            } else {
                                unmatched &+= 1
                                duplicates.append(_DuplicateRecord(isNew: true, first: matched, later: j))
                            }
                        } else {
                            unmatched &+= 1
                            duplicates.append(_DuplicateRecord(isNew: true, first: value &- nOld &- 1, later: j))
                        }
                        break
                    }
                    if sameTag && !(id == id) {
                        // Equal to nothing (`Double.nan`): unmatched, and kept out of the table (see `insert`).
                        unmatched &+= 1
                        break
                    }
                    slot = (slot &+ 1) & mask
                }
                j &+= 1
            }
            matchedCount = nNew &- unmatched
            return nOld
        }
        return nNew
    }
    if E.DifferenceIdentifier.self == String.self && oldHashes != nil
        && !_asciiMatchesHold(old, new, oldToNew, duplicates) {
        // Two different ids with equal hashes were taken as one: match again with `==`.
        return _matchIdentifiers(old, new, asciiHashes: false)
    }
    return _Matching(oldToNew: oldToNew, newToOld: newToOld, duplicates: duplicates, matchedCount: matchedCount)
}

/// Whether every pair of ASCII `String` identifiers the matcher took as equal by their
/// hashes is equal byte by byte: each matched pair (`oldToNew`) and each duplicate with
/// its first occurrence.
@inlinable
internal func _asciiMatchesHold<E: Differentiable>(
    _ old: UnsafeBufferPointer<E>, _ new: UnsafeBufferPointer<E>,
    _ oldToNew: [Int32], _ duplicates: [_DuplicateRecord]
) -> Bool {
    @inline(__always)
    func equal(_ a: E.DifferenceIdentifier, _ b: E.DifferenceIdentifier) -> Bool {
        _asciiEqual(unsafeBitCast(a, to: String.self), unsafeBitCast(b, to: String.self))
    }
    let pairsHold = oldToNew.withUnsafeBufferPointer { o2n in
        for i in 0..<o2n.count {
            let j = Int(o2n[i])
            if j >= 0 && !equal(old[i].differenceIdentifier, new[j].differenceIdentifier) { return false }
        }
        return true
    }
    guard pairsHold else { return false }
    for d in duplicates {
        let side = d.isNew ? new : old
        if !equal(side[d.first].differenceIdentifier, side[d.later].differenceIdentifier) { return false }
    }
    return true
}

/// Marks the members of one longest strictly increasing subsequence of the
/// non-negative entries of `values` (negative entries are skipped) in `marks`,
/// and returns its length.
///
/// - Complexity: O(*n* log *n*), *n* = `values.count`.
@inlinable @discardableResult
internal func _markLongestIncreasingSubsequence(
    _ values: UnsafeBufferPointer<Int32>, _ marks: UnsafeMutableBufferPointer<Bool>
) -> Int {
    _longestIncreasingSubsequence(values, marks: marks)
}

/// Marks the members of one longest strictly increasing subsequence of the
/// non-negative entries of `values` (negative entries are skipped) in place, as
/// `-2 - value` (so -1 still means "no value" and every member is at most -2),
/// and returns its length.
///
/// - Complexity: O(*n* log *n*), *n* = `values.count`.
@inlinable @discardableResult
internal func _markLongestIncreasingSubsequenceInPlace(_ values: UnsafeMutableBufferPointer<Int32>) -> Int {
    _longestIncreasingSubsequence(UnsafeBufferPointer(values), marks: nil)
}

/// Finds one longest strictly increasing subsequence of the non-negative
/// entries of `values` (negative entries are skipped), marks its members in
/// `marks` or, when `marks` is nil, in `values` itself (as `-2 - value`, which
/// needs `values` to be writable memory), and returns its length.
///
/// - Complexity: O(*n* log *n*), *n* = `values.count`.
@inlinable
internal func _longestIncreasingSubsequence(
    _ values: UnsafeBufferPointer<Int32>, marks: UnsafeMutableBufferPointer<Bool>?
) -> Int {
    let links = _LongestIncreasingSubsequence(values)
    defer { links.deallocate() }
    var k = links.last
    if let marks {
        while k >= 0 {
            marks[k] = true
            k = Int(links.previous[k])
        }
    } else if k >= 0 {
        let members = UnsafeMutablePointer(mutating: values.baseAddress!)
        while k >= 0 {
            members[k] = -2 &- members[k]
            k = Int(links.previous[k])
        }
    }
    return links.length
}

/// One longest strictly increasing subsequence of the non-negative entries of
/// a list of values (negative entries are skipped), as links: its length, the
/// position of its last member (-1 if it is empty) and, for each member, the
/// position of the member before it (`previous[k]`, -1 for the first; the
/// entries of other positions mean nothing; `previous[-1]` is -1 as well, so
/// that a walk back along consecutive members stops at row 0). Owns `previous`: call
/// ``deallocate()`` when done.
@usableFromInline
internal struct _LongestIncreasingSubsequence {
    @usableFromInline let length: Int
    @usableFromInline let last: Int
    @usableFromInline let previous: UnsafeMutablePointer<Int32>

    /// Patience sorting with predecessor links; a value greater than the current
    /// longest tail is appended without a search, which makes mostly-sorted input
    /// (the usual diff) nearly linear; nor is a new smallest value (a descending
    /// run) searched for.
    ///
    /// - Complexity: O(*n* log *n*), *n* = `values.count`.
    @inlinable
    init(_ values: UnsafeBufferPointer<Int32>) {
        let n = values.count
        // tails[k]: index of the smallest value ending an increasing run of length k + 1;
        // tailValues[k]: that value (kept beside it so the search reads one array).
        // `previous` outlives them: allocated first, so that the memory they free is
        // the heap's top, which the caller's next allocations reuse.
        // (`previous[-1]` is -1 too: a walk back along a run of consecutive members
        // stops there without a test of its own; see `deallocate()`.)
        let previous = UnsafeMutablePointer<Int32>.allocate(capacity: n &+ 1) + 1
        previous[-1] = -1
        // Both from index -1, which holds -1: the tail before the first (no row, and a
        // value below every value kept), so that the longest run's last tail is always
        // `[length - 1]`, read where it is needed instead of kept in a variable.
        let tails = UnsafeMutablePointer<Int32>.allocate(capacity: n &+ 1) + 1
        let tailValues = UnsafeMutablePointer<Int32>.allocate(capacity: n &+ 1) + 1
        tails[-1] = -1
        tailValues[-1] = -1
        defer {
            (tails - 1).deallocate()
            (tailValues - 1).deallocate()
        }
        var length = 0
        for x in 0..<n {
            let v = values[x]
            let xi = Int32(truncatingIfNeeded: x)
            if tailValues[length &- 1] < v {  // (so v is not negative)
                // Extends the longest run: no search.
                previous[x] = tails[length &- 1]
                tails[length] = xi
                tailValues[length] = v
                length &+= 1
                continue
            }
            if v < 0 { continue }  // skipped
            var lo: Int
            if length >= 2 && tailValues[length &- 2] < v {
                lo = length &- 1  // replaces the last tail (common after a far move)
            } else if v <= tailValues[0] {
                lo = 0  // a new smallest value (a descending run)
            } else {
                // Smallest position whose tail is ≥ v. The tails grow roughly linearly
                // (most of them are unmoved items in order), so start where linear
                // interpolation puts v, gallop outwards to bracket it, then bisect the
                // bracket: a far move costs a few nearby reads instead of log₂ n
                // scattered ones.
                let first = Int(tailValues[0])
                let span = Int(tailValues[length &- 1]) &- first
                var guess = span > 0 ? (Int(v) &- first) &* (length &- 1) / span : 0
                guess = Swift.min(Swift.max(guess, 0), length &- 1)
                var low: Int   // tailValues[low] < v, or low == -1
                var high: Int  // tailValues[high] ≥ v
                if tailValues[guess] < v {
                    low = guess
                    var step = 1
                    high = guess &+ 1
                    while high < length &- 1 && tailValues[high] < v {
                        low = high
                        step &<<= 1
                        high = Swift.min(high &+ step, length &- 1)
                    }
                } else {
                    high = guess
                    var step = 1
                    low = guess &- 1
                    while low >= 0 && tailValues[low] >= v {
                        high = low
                        step &<<= 1
                        low = Swift.max(low &- step, -1)
                    }
                }
                // Invariant: tailValues[low] < v ≤ tailValues[high] (low may be -1).
                while high &- low > 1 {
                    let mid = (low &+ high) &>> 1
                    if tailValues[mid] < v { low = mid } else { high = mid }
                }
                lo = high
            }
            tails[lo] = xi
            tailValues[lo] = v
            previous[x] = tails[lo &- 1]
        }
        self.length = length
        self.last = Int(tails[length &- 1])
        self.previous = previous
    }

    @inlinable
    func deallocate() { (previous - 1).deallocate() }
}

/// Groups duplicate records into one diagnostic per identifier and side.
@inlinable
internal func _duplicateDiagnostics<E: Differentiable>(
    _ records: [_DuplicateRecord],
    kind: DuplicateIdentifier.Kind,
    old: UnsafeBufferPointer<E>, new: UnsafeBufferPointer<E>,
    oldPath: (Int) -> ItemPath, newPath: (Int) -> ItemPath
) -> [DuplicateIdentifier] {
    if records.isEmpty { return [] }
    var byKey: [Int: Int] = [:]  // (first << 1 | isNew) → result index
    var result: [DuplicateIdentifier] = []
    for record in records {
        let key = record.first << 1 | (record.isNew ? 1 : 0)
        let path = record.isNew ? newPath(record.later) : oldPath(record.later)
        if let index = byKey[key] {
            result[index].positions.append(path)
        } else {
            let firstPath = record.isNew ? newPath(record.first) : oldPath(record.first)
            let id = record.isNew ? new[record.first].differenceIdentifier : old[record.first].differenceIdentifier
            byKey[key] = result.count
            result.append(DuplicateIdentifier(
                side: record.isNew ? .new : .old, kind: kind,
                identifier: String(describing: id), positions: [firstPath, path]
            ))
        }
    }
    return result
}

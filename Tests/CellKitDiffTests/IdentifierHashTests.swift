import Synchronization
import Testing
@testable import CellKitDiff

/// The identifier table hashes the standard integer types (and `String`s when every
/// identifier is ASCII) itself and every other type through `hashValue`; all must
/// give the same diff. Also covers the
/// partitioned table (more than 2^18 slots, i.e. more than 131,072 old elements).
@Suite("Identifier hashing")
struct IdentifierHashTests {
    /// An identifier that is not one of the integer types: hashed through `hashValue`.
    struct Boxed: Hashable { var raw: Int }

    struct BoxedItem: Differentiable, Equatable {
        var id: Int
        var content: Int
        var differenceIdentifier: Boxed { Boxed(raw: id) }
    }

    struct NarrowItem: Differentiable, Equatable {
        var id: Int32
        var content: Int
        var differenceIdentifier: Int32 { id }
    }

    /// Changesets and duplicate positions (the identifier text differs by type).
    static func shape<D>(_ changes: StagedChangeset<D>) -> ([Changeset], [[ItemPath]], Bool) {
        (changes.stages.map(\.changeset), changes.duplicates.map(\.positions), changes.isReload)
    }

    @Test("integer fast path and hashValue path give the same diff", arguments: [UInt64(0), 1, 2, 3])
    func samePaths(range: UInt64) {
        for seed in range * 1_000..<(range + 1) * 1_000 {
            let (old, new) = randomFlatPair(seed: seed)
            let options = DiffOptions(trimsIdenticalEnds: seed % 2 == 0)
            let reference = Self.shape(StagedChangeset(from: old, to: new, options: options))
            let boxed = Self.shape(StagedChangeset(
                from: old.map { BoxedItem(id: $0.id, content: $0.content) },
                to: new.map { BoxedItem(id: $0.id, content: $0.content) }, options: options
            ))
            let narrow = Self.shape(StagedChangeset(
                from: old.map { NarrowItem(id: Int32($0.id), content: $0.content) },
                to: new.map { NarrowItem(id: Int32($0.id), content: $0.content) }, options: options
            ))
            #expect(reference == boxed, "seed \(seed)")
            #expect(reference == narrow, "seed \(seed)")
        }
    }

    struct TextItem: Differentiable, Equatable {
        var id: String
        var content: Int
        var differenceIdentifier: String { id }
    }

    /// Distinct text for each integer, 2 to 30 bytes long (short strings, whole words,
    /// and lengths in between).
    static func text(_ n: Int) -> String { "\(n)-" + String(repeating: "x", count: abs(n) % 23) }

    @Test("ASCII String ids (the word-at-a-time hash) give the integer ids' diff", arguments: [UInt64(0), 1])
    func asciiStrings(range: UInt64) {
        for seed in range * 1_000..<(range + 1) * 1_000 {
            let (old, new) = randomFlatPair(seed: seed)
            let options = DiffOptions(trimsIdenticalEnds: seed % 2 == 0)
            let reference = Self.shape(StagedChangeset(from: old, to: new, options: options))
            let strings = Self.shape(StagedChangeset(
                from: old.map { TextItem(id: Self.text($0.id), content: $0.content) },
                to: new.map { TextItem(id: Self.text($0.id), content: $0.content) }, options: options
            ))
            #expect(reference == strings, "seed \(seed)")
        }
    }

    /// Long ids sharing a prefix of `prefix` bytes, so that two ids differ only
    /// near their end (or only in length), stored apart (built from parts).
    static func longText(_ n: Int, prefix: Int) -> String {
        String(repeating: "p", count: prefix) + "-\(n)" + String(repeating: "x", count: abs(n) % 11)
    }

    @Test("ASCII String ids with long shared prefixes (compared by their bytes) give the integer ids' diff",
          arguments: [0, 5, 8, 15, 16, 24])
    func sharedPrefixes(prefix: Int) {
        for seed: UInt64 in 0..<1_000 {
            let (old, new) = randomFlatPair(seed: seed)
            let options = DiffOptions(trimsIdenticalEnds: seed % 2 == 0)
            let reference = Self.shape(StagedChangeset(from: old, to: new, options: options))
            let strings = Self.shape(StagedChangeset(
                from: old.map { TextItem(id: Self.longText($0.id, prefix: prefix), content: $0.content) },
                to: new.map { TextItem(id: Self.longText($0.id, prefix: prefix), content: $0.content) }, options: options
            ))
            #expect(reference == strings, "seed \(seed), prefix \(prefix)")
        }
    }

    @Test("the hashes taken with the ASCII check are the identifier hash's, at every length")
    func asciiHashes() {
        let hashOf = _IdentifierHash<String>(asciiStrings: true)
        for length in 0...40 {
            let ids = [String(repeating: "q", count: length), String(repeating: "r", count: length / 2) + String(length)]
            let items = ids.map { TextItem(id: $0, content: 0) }
            guard let hashes = items.withUnsafeBufferPointer({ _asciiHashes($0, hashOf) }) else {
                Issue.record("length \(length): not taken as ASCII")
                continue
            }
            #expect(hashes[0] == hashOf(ids[0]), "length \(length)")
            #expect(hashes[1] == hashOf(ids[1]), "length \(length)")
            hashes.deallocate()
        }
    }

    @Test("the byte comparison of ASCII strings agrees with == at every length and position")
    func asciiEquality() {
        for length in 0...40 {
            // Built from parts, so that the equal strings of more than 15 bytes are two storages.
            let plain = String(repeating: "a", count: length / 2) + String(repeating: "b", count: length - length / 2)
            let copy = String(repeating: "a", count: length / 2) + String(repeating: "b", count: length - length / 2)
            #expect(_asciiEqual(plain, copy), "length \(length)")
            #expect(_asciiEqual(plain, plain), "length \(length)")
            #expect(!_asciiEqual(plain, plain + "c"), "length \(length)")
            #expect(!_asciiEqual(plain + "c", plain), "length \(length)")
            for position in 0..<length {
                var bytes = Array(plain.utf8)
                bytes[position] = UInt8(ascii: "z")
                let other = String(decoding: bytes, as: UTF8.self)
                #expect(!_asciiEqual(plain, other), "length \(length), position \(position)")
                #expect(!_asciiEqual(other, plain), "length \(length), position \(position)")
            }
        }
    }

    @Test("String ids mixing ASCII and non-ASCII (a few canonically equivalent pairs) match as ==",
          arguments: [UInt64(0), 1])
    func nonASCIIMixtures(range: UInt64) {
        // Odd ids become text whose non-ASCII spelling differs in bytes but is == ("é" as one
        // scalar on one side, "e" + combining acute on the other): the whole diff must take
        // the hashValue path and still match them.
        func spelled(_ n: Int, composed: Bool) -> String {
            n % 2 == 0 ? Self.text(n) : Self.text(n) + (composed ? "\u{E9}" : "e\u{301}")
        }
        for seed in range * 1_000..<(range + 1) * 1_000 {
            let (old, new) = randomFlatPair(seed: seed)
            let options = DiffOptions(trimsIdenticalEnds: seed % 2 == 0)
            let reference = Self.shape(StagedChangeset(from: old, to: new, options: options))
            let strings = Self.shape(StagedChangeset(
                from: old.map { TextItem(id: spelled($0.id, composed: true), content: $0.content) },
                to: new.map { TextItem(id: spelled($0.id, composed: false), content: $0.content) }, options: options
            ))
            #expect(reference == strings, "seed \(seed)")
        }
    }

    struct Measure: Differentiable, Equatable {
        var id: Double
        var content: Int
        var differenceIdentifier: Double { id }
        // NaN ids: compare by bit pattern, so that a row is content-equal to itself.
        static func == (a: Measure, b: Measure) -> Bool { a.id.bitPattern == b.id.bitPattern && a.content == b.content }
    }

    // The CellKitDiff overview's promise: 0.0 and -0.0 are one identity, NaN is no identity.
    @Test("Double ids: -0.0 is 0.0; a NaN row is deleted and inserted by every diff, never a duplicate")
    func doubleIdentities() {
        // Trimming off, so that the rows go through the table.
        let options = DiffOptions(trimsIdenticalEnds: false)
        let zero = StagedChangeset(from: [Measure(id: 0.0, content: 1)], to: [Measure(id: -0.0, content: 2)], options: options)
        #expect(zero.stages.flatMap(\.changeset.itemUpdates) == [ItemPath(item: 0, section: 0)])
        #expect(zero.stages.flatMap(\.changeset.itemDeletes).isEmpty)
        let rows = [Measure(id: 1, content: 0), Measure(id: .nan, content: 0), Measure(id: .nan, content: 0), Measure(id: 2, content: 0)]
        for trims in [false, true] {
            let same = StagedChangeset(from: rows, to: rows, options: DiffOptions(trimsIdenticalEnds: trims))
            #expect(same.duplicates.isEmpty)
            #expect(same.stages.flatMap(\.changeset.itemDeletes) == [ItemPath(item: 1, section: 0), ItemPath(item: 2, section: 0)])
            #expect(same.stages.flatMap(\.changeset.itemInserts) == [ItemPath(item: 1, section: 0), ItemPath(item: 2, section: 0)])
        }
        let shifted = StagedChangeset(from: rows, to: [Measure(id: 0, content: 0)] + rows, options: options)
        #expect(shifted.stages.flatMap(\.changeset.itemDeletes).count == 2)
        #expect(shifted.stages.flatMap(\.changeset.itemInserts).count == 3)
        #expect(shifted.duplicates.isEmpty)
    }

    /// A `Double` identifier that counts its `==` calls (the comparisons of the diff).
    struct CountedDouble: Hashable {
        static let comparisons = Mutex(0)
        var value: Double
        static func == (a: CountedDouble, b: CountedDouble) -> Bool {
            comparisons.withLock { $0 += 1 }
            return a.value == b.value
        }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    struct CountedItem: Differentiable, Equatable {
        var id: Double
        var differenceIdentifier: CountedDouble { CountedDouble(value: id) }
        static func == (a: CountedItem, b: CountedItem) -> Bool { a.id.bitPattern == b.id.bitPattern }
    }

    // Outside check 9c, d3: every NaN hashes alike and was compared with every earlier one
    // (4,000 rows: 32 million `==`), so the diff of NaN rows was quadratic.
    @Test("NaN identifiers cost the diff a few comparisons each, not one per earlier NaN")
    func nanIdentifiersStayLinear() {
        let n = 4_000
        let rows = (0..<n).map { CountedItem(id: $0 % 2 == 0 ? .nan : Double($0)) }
        CountedDouble.comparisons.withLock { $0 = 0 }
        let changes = StagedChangeset(from: rows, to: rows.reversed(), options: DiffOptions(trimsIdenticalEnds: false))
        let comparisons = CountedDouble.comparisons.withLock { $0 }
        #expect(comparisons < 10 * n, "\(comparisons) comparisons for \(n) rows")
        let all = changes.stages.map(\.changeset)
        #expect(all.flatMap(\.itemDeletes).count == n / 2)
        #expect(all.flatMap(\.itemInserts).count == n / 2)
        #expect(changes.duplicates.isEmpty)
    }

    @Test("a non-ASCII id equal to an ASCII one (the Kelvin sign is K) is matched, on either side")
    func kelvinSign() {
        let kelvin = "\u{212A}"
        #expect(kelvin == "K")
        for (oldIDs, newIDs) in [(["a", "b", "K"], [kelvin, "a", "b"]), ([kelvin, "a", "b"], ["a", "b", "K"])] {
            let changes = StagedChangeset(
                from: oldIDs.map { TextItem(id: $0, content: 0) }, to: newIDs.map { TextItem(id: $0, content: 0) }
            )
            let all = changes.stages.map(\.changeset)
            #expect(all.flatMap(\.itemDeletes).isEmpty, "\(oldIDs) → \(newIDs)")
            #expect(all.flatMap(\.itemInserts).isEmpty, "\(oldIDs) → \(newIDs)")
            #expect(all.flatMap(\.itemMoves).count == 1, "\(oldIDs) → \(newIDs)")
            #expect(changes.duplicates.isEmpty)
        }
        // Many rows, so that the id is found through the table, far from the cursor.
        let old = (0..<5_000).map { TextItem(id: Self.text($0), content: 0) } + [TextItem(id: "K", content: 0)]
        let new = [TextItem(id: kelvin, content: 0)] + old.dropLast()
        let changes = StagedChangeset(from: old, to: new)
        #expect(changes.stages.map(\.changeset.changeCount) == [1])
        #expect(changes.stages.first?.changeset.itemMoves.count == 1)
    }

    @Test("the ASCII check finds a non-ASCII character at any position of any length")
    func asciiCheck() {
        func allASCII(_ ids: [String]) -> Bool {
            let items = ids.map { TextItem(id: $0, content: 0) }
            return items.withUnsafeBufferPointer { _allASCIIStrings($0) }
        }
        for length in 0...33 {
            let plain = String(repeating: "a", count: length)
            #expect(allASCII([plain, "b"]), "length \(length)")
            for position in 0...length {
                var characters = Array(plain)
                characters.insert("é", at: position)
                #expect(!allASCII(["b", String(characters)]), "length \(length), position \(position)")
            }
        }
        #expect(![BoxedItem(id: 1, content: 0)].withUnsafeBufferPointer { _allASCIIStrings($0) })
    }

    @Test("150k items with duplicate ids take the partitioned table")
    func partitioned() throws {
        let (old, new) = LargeDiffTests.largePair(seed: 11, n: 150_000, duplicates: true)
        try checkFlat(old: old, new: new, options: DiffOptions(trimsIdenticalEnds: false))
    }

    /// Two different 16-byte ASCII strings whose hashes are equal under this process's
    /// seed: their first words differ, and their second words undo the difference the
    /// first ones left in the fold (searched until that difference is ASCII in every byte).
    static func collidingPair() -> (String, String) {
        let seed = _IdentifierHash<String>(asciiStrings: true).seed
        let start = seed ^ 16 &* 0x9E37_79B9_7F4A_7C15
        func word(_ text: String) -> UInt64 {
            text.utf8.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        func text(_ word: UInt64) -> String {
            String(decoding: (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }, as: UTF8.self)
        }
        let first = word("aaaaaaaa")
        let second = word("bbbbbbbb")
        var k: UInt64 = 0
        while true {
            // Lower-case letters spelling k in base 26.
            var other: UInt64 = 0
            var rest = k
            for position in 0..<8 {
                other |= (0x61 + rest % 26) << (8 * UInt64(position))
                rest /= 26
            }
            let difference = _foldWord(start ^ first) ^ _foldWord(start ^ other)
            if other != first && difference & 0x8080_8080_8080_8080 == 0 {
                return (text(first) + text(second), text(other) + text(second ^ difference))
            }
            k += 1
        }
    }

    @Test("ASCII ids with equal hashes but different bytes are not matched, nor reported as duplicates")
    func equalHashes() {
        let (a, b) = Self.collidingPair()
        let hashOf = _IdentifierHash<String>(asciiStrings: true)
        #expect(a != b)
        #expect(hashOf(a) == hashOf(b), "\(a) and \(b) should collide")
        let rows = (0..<50).map { TextItem(id: Self.text($0), content: 0) }
        let later = (50..<100).map { TextItem(id: Self.text($0), content: 0) }
        // Each pair: the expected stages' change counts (deletes + updates, inserts + moves).
        let cases: [([TextItem], [TextItem], [Int])] = [
            ([TextItem(id: a, content: 0)], [TextItem(id: b, content: 0)], [1, 1]),
            (rows + [TextItem(id: a, content: 0)] + later, rows + [TextItem(id: b, content: 0)] + later, [1, 1]),
            ([TextItem(id: a, content: 0)] + rows, rows + [TextItem(id: b, content: 0)], [1, 1]),
        ]
        for (old, new, counts) in cases {
            let changes = StagedChangeset(from: old, to: new, options: DiffOptions(trimsIdenticalEnds: false))
            #expect(changes.stages.map(\.changeset.changeCount) == counts, "\(old.count) → \(new.count) rows")
            #expect(changes.duplicates.isEmpty)
            #expect(changes.finalData == new)
        }
        // Both in one snapshot: two ids, no duplicate; the other snapshot matches each.
        let both = [TextItem(id: a, content: 0), TextItem(id: b, content: 0)] + rows
        for (old, new) in [(both, Array(both.reversed())), (rows, both), (both, rows)] {
            let changes = StagedChangeset(from: old, to: new, options: DiffOptions(trimsIdenticalEnds: false))
            let reference = StagedChangeset(
                from: old.map { BoxedText(id: $0.id, content: $0.content) },
                to: new.map { BoxedText(id: $0.id, content: $0.content) }, options: DiffOptions(trimsIdenticalEnds: false)
            )
            #expect(Self.shape(changes) == Self.shape(reference))
            #expect(changes.duplicates.isEmpty)
        }
        // A matched pair and a duplicate record that do not hold are found.
        let pair = [TextItem(id: a, content: 0)]
        let other = [TextItem(id: b, content: 0)]
        pair.withUnsafeBufferPointer { old in
            other.withUnsafeBufferPointer { new in
                #expect(!_asciiMatchesHold(old, new, [0], []))
                #expect(_asciiMatchesHold(old, old, [0], []))
            }
        }
        let twoOld = [TextItem(id: a, content: 0), TextItem(id: b, content: 0)]
        twoOld.withUnsafeBufferPointer { old in
            #expect(!_asciiMatchesHold(old, old, [-1, -2], [_DuplicateRecord(isNew: false, first: 0, later: 1)]))
        }
    }

    /// A `String` id wrapped in a type of its own: hashed through `hashValue`, compared with `==`.
    struct BoxedText: Differentiable, Equatable {
        struct ID: Hashable { var text: String }
        var id: String
        var content: Int
        var differenceIdentifier: ID { ID(text: id) }
    }

    @Test("equal ASCII ids match however they are stored: small and large, empty, shared")
    func storageKinds() {
        func large(_ text: String) -> String {
            var s = String()
            s.reserveCapacity(64)  // native storage of its own, even for a few bytes
            s.append(text)
            return s
        }
        for text in ["", "a", "abc", "abcdefg", "abcdefgh", "abcdefghijklmno", "abcdefghijklmnop", "item-0123456789abcdef"] {
            let pairs: [(String, String)] = [(text, large(text)), (large(text), text), (large(text), large(text)), (text, text)]
            for (x, y) in pairs {
                #expect(_asciiEqual(x, y), "\(text.utf8.count) bytes")
                #expect(!_asciiEqual(x, y + "z"), "\(text.utf8.count) bytes")
                let old = [TextItem(id: "first", content: 0), TextItem(id: x, content: 0), TextItem(id: "last", content: 0)]
                let new = [TextItem(id: "last", content: 0), TextItem(id: y, content: 0), TextItem(id: "first", content: 0)]
                let changes = StagedChangeset(from: old, to: new, options: DiffOptions(trimsIdenticalEnds: false))
                // Every id is matched: moves only, no delete or insert.
                #expect(changes.stages.map { $0.changeset.itemMoves.count } == [2], "\(text.utf8.count) bytes")
                #expect(changes.stages.map(\.changeset.changeCount) == [2], "\(text.utf8.count) bytes")
                #expect(changes.duplicates.isEmpty)
            }
        }
    }
}

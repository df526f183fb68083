import Testing
@testable import CellKitDiff

/// The identifier table hashes the standard integer types itself and every other
/// type through `hashValue`; both must give the same diff. Also covers the
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

    @Test("150k items with duplicate ids take the partitioned table")
    func partitioned() throws {
        let (old, new) = LargeDiffTests.largePair(seed: 11, n: 150_000, duplicates: true)
        try checkFlat(old: old, new: new, options: DiffOptions(trimsIdenticalEnds: false))
    }
}

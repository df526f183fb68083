import Testing
@testable import CellKitDiff

/// Diffs where a side, a window or a change list is empty, run from many tasks at
/// once. Such a diff used to write the count of the standard library's shared
/// empty-array storage (`Array(unsafeUninitializedCapacity: 0)`), which every thread
/// shares: Thread Sanitizer reports it as a data race. `.ci/run` runs this suite
/// under `swift test --sanitize=thread`; in the normal suite it checks the results.
@Suite("Diffs with empty sides")
struct EmptySideTests {
    static let items = (0..<6).map { TItem(id: $0, content: 0) }

    /// Pairs whose diff has at least one empty side, window or change list.
    static let flatPairs: [(old: [TItem], new: [TItem])] = [
        ([], []),
        ([], items),
        (items, []),
        (items, items),                                     // nothing changes
        (items, items.map { TItem(id: $0.id, content: 1) }), // updates only
        (items, Array(items.reversed())),                   // moves only
        (items, Array(items.dropLast(2))),                  // deletes only
        (Array(items.dropLast(2)), items),                  // inserts only
    ]

    static let sectionedPairs: [(old: [TSection], new: [TSection])] = [
        ([], []),
        ([], [TSection(id: 1, content: 0, elements: items)]),
        ([TSection(id: 1, content: 0, elements: items)], []),
        ([TSection(id: 1, content: 0, elements: [])], [TSection(id: 1, content: 0, elements: [])]),
        ([TSection(id: 1, content: 0, elements: [])], [TSection(id: 1, content: 1, elements: [])]),
        ([TSection(id: 1, content: 0, elements: items)], [TSection(id: 2, content: 0, elements: [])]),
    ]

    @Test("flat diffs with an empty side, window or change list, from many tasks at once")
    func flatConcurrently() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 {
                        for pair in Self.flatPairs {
                            try checkFlat(old: pair.old, new: pair.new)
                            try checkFlat(old: pair.old, new: pair.new, options: DiffOptions(trimsIdenticalEnds: false))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("sectioned diffs with empty sides or empty sections, from many tasks at once")
    func sectionedConcurrently() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 {
                        for pair in Self.sectionedPairs { try checkSectioned(old: pair.old, new: pair.new) }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("an empty side gives one stage of pure inserts or pure deletes")
    func emptySideStages() {
        let inserted = StagedChangeset(from: [], to: Self.items)
        #expect(inserted.stages.map(\.changeset) == [Changeset(itemInserts: (0..<6).map { ItemPath(item: $0, section: 0) })])
        let deleted = StagedChangeset(from: Self.items, to: [])
        #expect(deleted.stages.map(\.changeset) == [Changeset(itemDeletes: (0..<6).map { ItemPath(item: $0, section: 0) })])
        #expect(StagedChangeset(from: [TItem](), to: []).stages.isEmpty)
    }
}

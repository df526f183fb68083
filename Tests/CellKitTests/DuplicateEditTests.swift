@testable import CellKit
import CellKitTesting
import Testing

/// Local edits on rows that share an identity (duplicate ids; outside check 13c, defects 6–8).
/// Which row an edit removed is read from what it left (content, then order): a nested edit is
/// replayed so, and later fetches skip the server's copy of the row removed, not every row of
/// its id nor none. Before the fix, a nested edit removing one of two rows of an id showed the
/// other twice or dropped the removal, and a refresh brought the removed row back.
@MainActor
@Suite("Data sources: local edits on rows that share an identity")
struct DuplicateEditTests {
    /// The four sources that take edits, holding `rows` (paged and remote ones loaded).
    @MainActor struct Sources {
        let simple: SimpleDataSource
        let sectioned: SectionedDataSource<Post, Int>
        let paged: PaginatedDataSource<Post>
        let remote: RemoteDataSource<Post>

        static func holding(_ rows: [Post]) async -> Sources {
            let sources = Sources(
                simple: SimpleDataSource(rows), sectioned: SectionedDataSource(rows, sectionBy: { _ in 0 }),
                paged: PaginatedDataSource(prefetchDistance: 0) { _ in Page(rows, hasMore: false) },
                remote: RemoteDataSource { rows })
            await sources.paged.load().value
            await sources.remote.load().value
            return sources
        }

        /// Each source's texts, in the order shown.
        var texts: [[String]] {
            [simple.model.sections.flatMap { $0.items.compactMap { $0.model(as: Post.self)?.text } },
             sectioned.items.map(\.text), paged.items.map(\.text), remote.items.map(\.text)]
        }

        /// Runs `outer` as an edit of every source, with `inner` as an edit nested in it (the
        /// simple source's rows edited as an array of posts in one section).
        func nestedEdit(_ outer: @escaping (inout [Post]) -> Void, inner: @escaping (inout [Post]) -> Void) {
            func asModel(_ change: @escaping (inout [Post]) -> Void) -> (inout TableModel) -> Void {
                { model in
                    var posts = model.sections[0].items.compactMap { $0.model(as: Post.self) }
                    change(&posts)
                    model.sections[0] = TableSection(id: model.sections[0].id, items: posts.map { ListItem($0) })
                }
            }
            simple.edit { model in
                simple.edit(asModel(inner))
                asModel(outer)(&model)
            }
            sectioned.edit { items in
                sectioned.edit(inner)
                outer(&items)
            }
            paged.edit { items in
                paged.edit(inner)
                outer(&items)
            }
            remote.edit { items in
                remote.edit(inner)
                outer(&items)
            }
        }
    }

    static let aBADup = [Post(1, "a"), Post(2, "b"), Post(1, "a dup")]

    @Test func aNestedEditThatRemovesOneOfTwoRowsOfAnIDShowsTheOtherOnce() async {
        let sources = await Sources.holding(Self.aBADup)
        sources.nestedEdit({ $0.append(Post(9, "z")) }, inner: { _ = $0.remove(at: 0) })
        for texts in sources.texts { #expect(texts == ["b", "a dup", "z"]) }
    }

    @Test func aNestedEditKeepsTheInnerEditsRemovalOfADuplicate() async {
        let sources = await Sources.holding(Self.aBADup)
        sources.nestedEdit({ $0.swapAt(0, 1) }, inner: { _ = $0.remove(at: 2) })
        for texts in sources.texts { #expect(texts == ["b", "a"]) }

        let both = await Sources.holding(Self.aBADup)
        both.nestedEdit({ _ = $0.remove(at: 2) }, inner: { _ = $0.remove(at: 0) })
        for texts in both.texts { #expect(texts == ["b"], "each edit removed one of the two") }
    }

    @Test func aNestedEditMovesTheDuplicateItMoved() async {
        let sources = await Sources.holding(Self.aBADup + [Post(3, "c")])
        // The inner edit moves "a dup" to the top; the outer edit removes "c".
        sources.nestedEdit({ _ = $0.remove(at: 3) }, inner: { $0.insert($0.remove(at: 2), at: 0) })
        for texts in sources.texts { #expect(texts == ["a dup", "a", "b"]) }
    }

    @Test func sectionsThatShareAnIDAreToldApartByOrderInANestedEdit() {
        func section(_ posts: [Post]) -> TableSection { TableSection(id: 0, items: posts.map { ListItem($0) }) }
        let source = SimpleDataSource(model: TableModel(sections: [section([Post(1, "a")]), section([Post(2, "b"), Post(3, "c")])]))
        source.edit { model in
            source.edit { inner in _ = inner.remove(at: ItemPath(item: 1, section: 1)) }   // "c", in the second section 0
            _ = model.insert([ListItem(Post(4, "d"))], at: ItemPath(item: 1, section: 0))
        }
        #expect(source.model.sections.map { $0.items.compactMap { $0.model(as: Post.self)?.text } } == [["a", "d"], ["b"]])
    }

    /// The texts of a paged and a remote source that loaded `first`, took `edit`, then fetched
    /// `refreshed` (a refresh).
    static func refreshed(_ first: [Post], edit: @escaping (inout [Post]) -> Void, then refreshed: [Post]) async -> [[String]] {
        await Self.refreshed(first, edits: [edit], then: refreshed)
    }

    /// ``refreshed(_:edit:then:)`` with several edits, one after the other.
    static func refreshed(_ first: [Post], edits: [(inout [Post]) -> Void], then refreshed: [Post]) async -> [[String]] {
        let fetches = Fetches(pages: [first, refreshed])
        let paged = PaginatedDataSource<Post>(prefetchDistance: 0) { _ in Page(await fetches.paged(), hasMore: false) }
        let remote = RemoteDataSource<Post> { await fetches.remote() }
        await paged.load().value
        await remote.load().value
        for edit in edits {
            paged.edit(edit)
            remote.edit(edit)
        }
        await paged.refresh().value
        await remote.refresh().value
        return [paged.items.map(\.text), remote.items.map(\.text)]
    }

    /// What the server sends: `pages` in turn, the last one again after them, counted per source.
    actor Fetches {
        let pages: [[Post]]
        var pagedCalls = 0
        var remoteCalls = 0
        init(pages: [[Post]]) { self.pages = pages }
        func paged() -> [Post] {
            defer { pagedCalls += 1 }
            return pages[min(pagedCalls, pages.count - 1)]
        }
        func remote() -> [Post] {
            defer { remoteCalls += 1 }
            return pages[min(remoteCalls, pages.count - 1)]
        }
    }

    static let xyb = [Post(1, "x"), Post(1, "y"), Post(2, "b")]

    @Test func aRemovedDuplicateDoesNotComeBackOnRefresh() async {
        // The removed row is told apart from the other row of its id by content: the second one,
        // or the first one.
        for texts in await Self.refreshed(Self.xyb, edit: { _ = $0.remove(at: 1) }, then: Self.xyb) {
            #expect(texts == ["x", "b"])
        }
        for texts in await Self.refreshed(Self.xyb, edit: { _ = $0.remove(at: 0) }, then: Self.xyb) {
            #expect(texts == ["y", "b"])
        }
        // Rows of one id with equal content cannot be told apart: one of two goes, one stays.
        let twins = [Post(1, "p"), Post(1, "p"), Post(2, "b")]
        for texts in await Self.refreshed(twins, edit: { _ = $0.remove(at: 1) }, then: twins) {
            #expect(texts == ["p", "b"])
        }
        // A removed row that was moved first is still the one removed.
        for texts in await Self.refreshed(Self.xyb, edit: { $0.swapAt(0, 1); _ = $0.remove(at: 0) }, then: Self.xyb) {
            #expect(texts == ["x", "b"])
        }
    }

    @Test func aFetchSkipsOnlyTheRemovedRowsCopy() async {
        // The server deleted the removed row (it got the delete): the other row of the id stays.
        for texts in await Self.refreshed(Self.xyb, edit: { _ = $0.remove(at: 0) }, then: [Post(1, "y"), Post(2, "b")]) {
            #expect(texts == ["y", "b"])
        }
        // The server sends the removed row changed: it still takes the removed row's place.
        for texts in await Self.refreshed(Self.xyb, edit: { _ = $0.remove(at: 1) }, then: [Post(1, "x"), Post(1, "y, edited"), Post(2, "b")]) {
            #expect(texts == ["x", "b"])
        }
        // A row of the id that the server adds shows.
        for texts in await Self.refreshed(Self.xyb, edit: { _ = $0.remove(at: 1) }, then: Self.xyb + [Post(1, "w")]) {
            #expect(texts == ["x", "b", "w"])
        }
        // The server deleted the row that stayed: the removed one stays removed.
        for texts in await Self.refreshed(Self.xyb, edit: { _ = $0.remove(at: 1) }, then: [Post(1, "y"), Post(2, "b")]) {
            #expect(texts == ["b"])
        }
    }

    @Test func removingEveryRowOfAnIDAndInsertingOneAgain() async {
        // No row of id 1 left: every row of it is skipped, whatever its content.
        for texts in await Self.refreshed(Self.xyb, edit: { $0.removeAll { $0.id == 1 } }, then: Self.xyb + [Post(1, "w")]) {
            #expect(texts == ["b"])
        }
        // One of them inserted again: that one shows (the server's copy), the other stays removed.
        for texts in await Self.refreshed(Self.xyb, edit: { items in
            items.removeAll { $0.id == 1 }
            items.insert(Post(1, "y"), at: 0)
        }, then: Self.xyb) {
            #expect(texts == ["y", "b"])
        }
        // Removed one at a time ("y", then "x"), then a row of id 1 inserted with other content: it
        // lifts the removal of the one removed last, "x", whose server copy then shows; "y" stays removed.
        for texts in await Self.refreshed(Self.xyb, edits: [{ _ = $0.remove(at: 1) }, { _ = $0.remove(at: 0) },
                                                            { $0.insert(Post(1, "x, rewritten"), at: 0) }], then: Self.xyb) {
            #expect(texts == ["x", "b"])
        }
    }

    @Test func aRowInsertedWithAnIDThatShowsGoesAtTheNextFetch() async {
        let xb = [Post(1, "x"), Post(2, "b")]
        for texts in await Self.refreshed(xb, edit: { $0.insert(Post(1, "x again"), at: 1) }, then: xb) {
            #expect(texts == ["x", "b"], "the server's rows of id 1")
        }
        // Two rows inserted with an id no row showed stay in place until a fetch returns it.
        for texts in await Self.refreshed([Post(2, "b")], edit: { $0 += [Post(5, "draft 1"), Post(5, "draft 2")] }, then: [Post(2, "b")]) {
            #expect(texts == ["b", "draft 1", "draft 2"])
        }
    }

    @Test func aLaterPageDoesNotBringARemovedDuplicateBack() async {
        let xyb = Self.xyb
        let source = PaginatedDataSource<Post>(prefetchDistance: 0) { page in
            page == 0 ? Page(xyb, hasMore: true) : Page([Post(1, "y"), Post(3, "c")], hasMore: false)
        }
        await source.load().value
        source.edit { _ = $0.remove(at: 1) }
        await source.loadNextPage()?.value
        #expect(source.items.map(\.text) == ["x", "b", "c"])
        // The refreshed first page says more follow: "c" stays below it until page 1 returns it.
        await source.refresh().value
        #expect(source.items.map(\.text) == ["x", "b", "c"])
        await source.loadNextPage()?.value
        #expect(source.items.map(\.text) == ["x", "b", "c"])
    }

    @Test func rowsOfOneIDAreMatchedByContentThenOrder() {
        func match(_ base: [String], _ rows: [String]) -> [Int?] { RowMatching.match(base, rows, isContentEqual: ==) }
        #expect(match(["x", "y"], ["y"]) == [1], "the row left is the one with its content")
        #expect(match(["x", "y"], ["y", "x"]) == [1, 0], "swapped")
        #expect(match(["x", "y"], ["z"]) == [0], "no equal content: the first row left")
        #expect(match(["x", "y"], ["y", "z", "w"]) == [1, 0, nil], "rows beyond them are new")
        #expect(match(["p", "p"], ["p"]) == [0])
        // Many rows of one id, a few removed and two moved: each keeps its row.
        let base = (0..<3000).map(String.init)
        var rows = base.filter { Int($0)! % 700 != 3 }
        rows.swapAt(10, 2000)
        #expect(match(base, rows) == rows.map { Int($0)! })
    }

    /// Random removals and moves, in nested edits too, on lists whose ids repeat (each row's
    /// text is its own): every source leaves exactly the rows no edit removed, each once, and a
    /// refresh with the server unchanged shows them in the server's order.
    @Test func randomEditsOnDuplicatesRemoveExactlyTheRowsRemoved() async {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("randomEditsOnDuplicatesRemoveExactlyTheRowsRemoved seed \(seed)")
        var random = SplitMix64(seed: seed)
        for round in 0..<40 {
            let count = Int.random(in: 2...12, using: &random)
            let ids = Int.random(in: 1...4, using: &random)
            let server = (0..<count).map { Post(Int.random(in: 0..<ids, using: &random), "r\($0)") }
            let sources = await Sources.holding(server)
            var removedTexts = Set<String>()
            for _ in 0..<3 {
                // An edit (and maybe one nested in it) that removes or moves a random row.
                func randomChange(_ random: inout SplitMix64) -> (inout [Post]) -> Void {
                    let remove = Bool.random(using: &random)
                    let pick = Int.random(in: 0..<1000, using: &random)
                    let to = Int.random(in: 0..<1000, using: &random)
                    return { items in
                        guard !items.isEmpty else { return }
                        let row = items.remove(at: pick % items.count)
                        if !remove { items.insert(row, at: to % (items.count + 1)) }
                    }
                }
                let outer = randomChange(&random)
                let inner = Bool.random(using: &random) ? randomChange(&random) : nil
                // What each change removes, seen on the content before the edit (both run on it).
                let shown = sources.paged.items
                for change in [outer, inner].compactMap({ $0 }) {
                    var copy = shown
                    change(&copy)
                    removedTexts.formUnion(Set(shown.map(\.text)).subtracting(copy.map(\.text)))
                }
                if let inner {
                    sources.nestedEdit(outer, inner: inner)
                } else {
                    sources.nestedEdit(outer, inner: { _ in })
                }
                let expected = Set(server.map(\.text)).subtracting(removedTexts)
                let texts = sources.texts
                let wrong = zip(["simple", "sectioned", "paged", "remote"], texts).filter { Set($1) != expected || $1.count != expected.count }
                #expect(wrong.isEmpty && Set(texts.map { $0 }).count == 1,
                        "seed \(seed), round \(round): \(server.map { "\($0.id):\($0.text)" }) shows \(texts), expected \(expected.sorted())")
                if !wrong.isEmpty { return }
            }
            await sources.paged.refresh().value
            await sources.remote.refresh().value
            let expected = server.map(\.text).filter { !removedTexts.contains($0) }
            #expect(sources.paged.items.map(\.text) == expected && sources.remote.items.map(\.text) == expected,
                    "seed \(seed), round \(round): after a refresh of \(server.map { "\($0.id):\($0.text)" }), \(sources.paged.items.map(\.text)) (paged) and \(sources.remote.items.map(\.text)) (remote), expected \(expected)")
        }
    }
}

// The controller benchmarks' workloads, free of the benchmark harness so that
// they can also run from a plain executable.
@_spi(Benchmarks) import CellKit
import CellKitTesting
#if canImport(Glibc)
import Glibc
#endif

/// The element of every benchmark: an id and a content counter (DESIGN.md's `Item`).
public struct BenchItem: Identifiable, Equatable, Sendable {
    public let id: Int
    public var content: Int
    public init(id: Int, content: Int) { self.id = id; self.content = content }
}

/// Random-looking unique ids.
public func benchIDs(_ count: Int) -> [Int] { (0..<count).map { ($0 &* 2_654_435_761) & 0x7FFF_FFFF } }

/// The bare diff's view of a row: its `id`, and `==` for content.
extension BenchItem: Differentiable {
    public var differenceIdentifier: Int { id }
}

/// `old` with 10% of the rows each deleted, inserted, moved and updated (disjoint, seeded).
public func tenPercentChanged(_ old: [BenchItem], seed: UInt64 = 42) -> [BenchItem] {
    changed(old, each: old.count / 10, seed: seed)
}

/// `old` with `k` rows each deleted, inserted, moved and updated (disjoint, seeded).
public func changed(_ old: [BenchItem], each k: Int, seed: UInt64 = 42) -> [BenchItem] {
    var rng = SplitMix64(seed: seed)  // seeded: every run sees the same changes
    let n = old.count
    var indices = Array(0..<n)
    indices.shuffle(using: &rng)
    let deleted = Set(indices[0..<k]), updated = Set(indices[k..<2 * k]), moved = Set(indices[2 * k..<3 * k])
    var new: [BenchItem] = []
    new.reserveCapacity(n)
    var movers: [BenchItem] = []
    for (i, item) in old.enumerated() {
        if deleted.contains(i) { continue }
        if moved.contains(i) { movers.append(item); continue }
        new.append(updated.contains(i) ? BenchItem(id: item.id, content: item.content + 1) : item)
    }
    for mover in movers { new.insert(mover, at: Int(rng.next() % UInt64(new.count + 1))) }
    for j in 0..<k { new.insert(BenchItem(id: -1 - j, content: 0), at: Int(rng.next() % UInt64(new.count + 1))) }
    return new
}

/// A controller driving a headless list view, with rows of varying height.
@MainActor
public func makeBenchScreen(viewportHeight: Double = 800) -> (ListController, HeadlessListView) {
    let controller = ListController(diagnostics: .ignore)
    controller.register(TextCell.self, for: BenchItem.self) { cell, item in cell.text = "\(item.id)" }
    controller.rowHeights.set(BenchItem.self, .measured { item, _ in 30 + Double(item.id % 7) * 9 })
    let listView = HeadlessListView(viewportHeight: viewportHeight, rowHeight: 44)
    listView.isLoggingEnabled = false
    controller.attach(to: listView)
    return (controller, listView)
}

/// Scrolls `listView` by `frames` steps of `step` points, bouncing at the ends; returns the rows seen.
@MainActor
public func scrollFrames(_ listView: HeadlessListView, frames: Int, step: Double = 23) -> Int {
    var seen = 0
    var direction = 1.0
    for _ in 0..<frames {
        let before = listView.contentOffset
        listView.scroll(by: step * direction)
        if listView.contentOffset == before { direction = -direction }
        seen &+= listView.visibleItemPaths.count
    }
    return seen
}

/// Finds the visible rows of a frame in a bare ``RowOffsetIndex``, `frames` times.
public func indexFrames(_ index: RowOffsetIndex, frames: Int, viewport: Double = 800, step: Double = 23) -> Int {
    var offset = 0.0, seen = 0
    let end = index.totalHeight - viewport
    for _ in 0..<frames {
        offset += step
        if offset > end { offset = 0 }
        seen &+= index.rows(from: offset, to: offset + viewport).count
    }
    return seen
}

/// Four model types mixed in one feed (issue 12 target d).
public struct FeedSuggestion: Identifiable, Equatable, Sendable { public let id: Int; public var content: Int; public init(id: Int, content: Int) { self.id = id; self.content = content } }
public struct FeedAd: Identifiable, Equatable, Sendable { public let id: Int; public var content: Int; public init(id: Int, content: Int) { self.id = id; self.content = content } }
public struct FeedNote: Identifiable, Equatable, Sendable { public let id: Int; public var content: Int; public init(id: Int, content: Int) { self.id = id; self.content = content } }

/// The row of `item` in a heterogeneous feed: its type follows its id, so an
/// updated row keeps its type.
public func feedRow(_ item: BenchItem) -> ListItem {
    switch (item.id & 0x7FFF_FFFF) % 4 {
    case 0: ListItem(item)
    case 1: ListItem(FeedSuggestion(id: item.id, content: item.content))
    case 2: ListItem(FeedAd(id: item.id, content: item.content))
    default: ListItem(FeedNote(id: item.id, content: item.content))
    }
}

/// A row like ``BenchItem`` (16 bytes, the same id and content), for the control of
/// the main-actor cases: the row whose content carries ``sweepMark`` reads a large
/// buffer when the diff compares it, so that the caches (and TLB) are as cold after
/// a small diff as after a 1M-row one. Every diff of such rows compares that row
/// once or twice, on the diff's own thread; nothing else changes.
public struct SweepingItem: Identifiable, Sendable, Equatable {
    public let id: Int
    public var content: Int
    public init(id: Int, content: Int) { self.id = id; self.content = content }

    /// The content bit of the row that sweeps.
    public static let sweepMark = 1 << 40

    public static func == (lhs: SweepingItem, rhs: SweepingItem) -> Bool {
        // The sum is tested so that the reads stay (it is never Int.min: every word is 1).
        if lhs.content & sweepMark != 0, cacheSweeper.sweep() == .min { return false }
        return lhs.id == rhs.id && lhs.content == rhs.content
    }
}

/// A 256 MB buffer read once in order (the data caches) and once a line per page in a
/// scattered order (the TLB), as a 1M-row diff streams its rows and hash tables.
public final class CacheSweeper: Sendable {
    nonisolated(unsafe) private let words: UnsafeMutablePointer<Int>
    private let count = 256 << 17

    init() {
        words = .allocate(capacity: count)
        words.initialize(repeating: 1, count: count)
    }

    /// Reads the whole buffer; returns a sum so the reads stay.
    public func sweep() -> Int {
        var sum = 0, index = 0
        while index < count { sum &+= words[index]; index &+= 8 }
        let pages = count / 512
        for step in 0..<pages { sum &+= words[((step &* 40_503) % pages) &* 512 &+ (step & 63) &* 8] }
        return sum
    }
}

/// The sweeper of ``SweepingItem`` (its buffer is made resident when first used).
public let cacheSweeper = CacheSweeper()

/// A row like ``BenchItem``, for the second control of the main-actor cases: the first
/// comparison of the marked row after ``armed`` is set sleeps ``idleMicroseconds`` on
/// the diff's thread, so that a small diff keeps the main actor idle as long as a
/// 1M-row diff does, without reading any memory. Nothing else changes.
public struct IdlingItem: Identifiable, Sendable, Equatable {
    public let id: Int
    public var content: Int
    public init(id: Int, content: Int) { self.id = id; self.content = content }

    /// The content bit of the row that sleeps.
    public static let idleMark = 1 << 40
    /// About as long as the diff of 100 changes in 1M rows (the `Pb) bare diff` case).
    public static let idleMicroseconds: UInt32 = 20_000
    /// Set on the main actor before the measured diff; the diff's first comparison of the
    /// marked row clears it (the hops between them order the accesses).
    nonisolated(unsafe) public static var armed = false

    public static func == (lhs: IdlingItem, rhs: IdlingItem) -> Bool {
        if lhs.content & idleMark != 0, armed {
            armed = false
            #if canImport(Glibc)
            usleep(idleMicroseconds)
            #endif
        }
        return lhs.id == rhs.id && lhs.content == rhs.content
    }
}

/// A controller driving a headless list view, every row type at a fixed height.
@MainActor
public func makeFixedHeightScreen() -> (ListController, HeadlessListView) {
    let controller = ListController(diagnostics: .ignore)
    controller.register(TextCell.self, for: BenchItem.self) { cell, item in cell.text = "\(item.id)" }
    controller.register(TextCell.self, for: FeedSuggestion.self) { cell, item in cell.text = "\(item.id)" }
    controller.register(TextCell.self, for: FeedAd.self) { cell, item in cell.text = "\(item.id)" }
    controller.register(TextCell.self, for: FeedNote.self) { cell, item in cell.text = "\(item.id)" }
    controller.rowHeights.set(BenchItem.self, .fixed(44))
    controller.rowHeights.set(FeedSuggestion.self, .fixed(44))
    controller.rowHeights.set(FeedAd.self, .fixed(44))
    controller.rowHeights.set(FeedNote.self, .fixed(44))
    controller.register(TextCell.self, for: SweepingItem.self) { cell, item in cell.text = "\(item.id)" }
    controller.rowHeights.set(SweepingItem.self, .fixed(44))
    controller.register(TextCell.self, for: IdlingItem.self) { cell, item in cell.text = "\(item.id)" }
    controller.rowHeights.set(IdlingItem.self, .fixed(44))
    let listView = HeadlessListView(viewportHeight: 800, rowHeight: 44)
    listView.isLoggingEnabled = false
    controller.attach(to: listView)
    return (controller, listView)
}

/// A fixed-height screen showing `old`, and the model to show next.
@MainActor
public final class PipelineFixture {
    public let controller: ListController
    public let listView: HeadlessListView
    public let next: TableModel

    public init(old: TableModel, next: TableModel) {
        (controller, listView) = makeFixedHeightScreen()
        self.next = next
        controller.apply(old)
    }

    /// `rows` rows of `BenchItem`, then `each` rows of each kind of change (homogeneous or the 4-type feed).
    public convenience init(rows: Int, each: Int, feed: Bool = false) {
        let old = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
        let new = changed(old, each: each)
        if feed {
            self.init(old: TableModel(sections: [TableSection(id: 0, items: old.map(feedRow))]),
                      next: TableModel(sections: [TableSection(id: 0, items: new.map(feedRow))]))
        } else {
            self.init(old: TableModel(old), next: TableModel(new))
        }
    }

    /// ``init(rows:each:)`` with ``SweepingItem`` rows: one row kept unchanged sweeps
    /// the caches when the diff compares it.
    public convenience init(sweepingRows rows: Int, each: Int) {
        let old = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
        let new = changed(old, each: each)
        // A row kept as it was (same id and content on both sides) carries the mark.
        let kept = Set(old.map(\.id)).intersection(new.filter { $0.content == 0 }.map(\.id)).min()!
        func sweeping(_ items: [BenchItem]) -> [SweepingItem] {
            items.map { SweepingItem(id: $0.id, content: $0.id == kept ? SweepingItem.sweepMark : $0.content) }
        }
        _ = cacheSweeper.sweep()  // resident before anything is measured
        self.init(old: TableModel(sweeping(old)), next: TableModel(sweeping(new)))
    }

    /// ``init(rows:each:)`` with ``IdlingItem`` rows: one row kept unchanged keeps the
    /// diff's thread asleep (the main actor idle) for ``IdlingItem/idleMicroseconds``.
    public convenience init(idlingRows rows: Int, each: Int) {
        let old = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
        let new = changed(old, each: each)
        let kept = Set(old.map(\.id)).intersection(new.filter { $0.content == 0 }.map(\.id)).min()!
        func idling(_ items: [BenchItem]) -> [IdlingItem] {
            items.map { IdlingItem(id: $0.id, content: $0.id == kept ? IdlingItem.idleMark : $0.content) }
        }
        self.init(old: TableModel(idling(old)), next: TableModel(idling(new)))
        IdlingItem.armed = true  // after the first load: only the measured diff sleeps
    }

    public func apply() { controller.apply(next) }

    /// Shows `next` through the bound-data-source path; returns the main-actor time it took (µs).
    public func submitAndSettle() async -> Int {
        let before = controller.mainActorApplyTime
        controller.submit(ListSnapshot(next, state: .loaded))
        await controller.settle()
        let spent = controller.mainActorApplyTime - before
        return Int(spent.components.seconds * 1_000_000 + spent.components.attoseconds / 1_000_000_000_000)
    }
}

/// The two snapshots of a bare diff.
public func bareDiffInput(rows: Int, each: Int) -> (old: [BenchItem], new: [BenchItem]) {
    let old = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
    return (old, changed(old, each: each))
}


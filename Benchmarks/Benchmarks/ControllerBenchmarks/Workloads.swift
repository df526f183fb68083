// The controller benchmarks' workloads, free of the benchmark harness so that
// they can also run from a plain executable.
import CellKit
import CellKitTesting

/// The element of every benchmark: an id and a content counter (DESIGN.md's `Item`).
struct BenchItem: Identifiable, Equatable, Sendable {
    let id: Int
    var content: Int
}

/// A seeded generator, so every run sees the same changes.
struct BenchRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random-looking unique ids.
func benchIDs(_ count: Int) -> [Int] { (0..<count).map { ($0 &* 2_654_435_761) & 0x7FFF_FFFF } }

/// The bare diff's view of a row: its `id`, and `==` for content.
extension BenchItem: Differentiable {
    var differenceIdentifier: Int { id }
}

/// `old` with 10% of the rows each deleted, inserted, moved and updated (disjoint, seeded).
func tenPercentChanged(_ old: [BenchItem], seed: UInt64 = 42) -> [BenchItem] {
    changed(old, each: old.count / 10, seed: seed)
}

/// `old` with `k` rows each deleted, inserted, moved and updated (disjoint, seeded).
func changed(_ old: [BenchItem], each k: Int, seed: UInt64 = 42) -> [BenchItem] {
    var rng = BenchRandom(state: seed)
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
func makeBenchScreen(viewportHeight: Double = 800) -> (ListController, HeadlessListView) {
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
func scrollFrames(_ listView: HeadlessListView, frames: Int, step: Double = 23) -> Int {
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
func indexFrames(_ index: RowOffsetIndex, frames: Int, viewport: Double = 800, step: Double = 23) -> Int {
    var offset = 0.0, seen = 0
    let end = index.totalHeight - viewport
    for _ in 0..<frames {
        offset += step
        if offset > end { offset = 0 }
        seen &+= index.rows(from: offset, to: offset + viewport).count
    }
    return seen
}

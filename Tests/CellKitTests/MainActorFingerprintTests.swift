import CellKit
import CellKitTesting
import Testing

/// The pattern ContentFingerprinting's doc shows for an object mutated in place: a main-actor
/// class (so `Sendable` without `@unchecked`), whose conformance is isolated to the main actor
/// (outside check 12b, doc gap 1).
@MainActor final class MainActorCounter: Identifiable, @MainActor ContentFingerprinting {
    nonisolated let id: Int
    var count = 0
    var contentFingerprint: Int { count }
    init(id: Int) { self.id = id }
}

@MainActor
@Suite("ContentFingerprinting: a main-actor object mutated in place")
struct MainActorFingerprintTests {
    @Test func aMainActorObjectMutatedInPlaceIsSeenAsChanged() async throws {
        let counters = (0..<3).map { MainActorCounter(id: $0) }
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: MainActorCounter.self) { cell, counter in cell.text = "\(counter.id):\(counter.count)" }
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.apply(TableModel(counters))
        counters[1].count += 1
        controller.apply(TableModel(counters))                      // built on the main actor
        #expect(listView.visibleTexts == ["0:0", "1:1", "2:0"])
        counters[2].count += 1
        controller.submit(ListSnapshot(TableModel(counters), state: .loaded))
        await controller.settle()
        #expect(listView.visibleTexts == ["0:0", "1:1", "2:1"])
        try listView.checkConsistency()
    }

    /// What the doc says of it: built off the main actor, a row does not see the main-actor
    /// conformance and compares the object by identity, so its changes go unseen there.
    @Test func builtOffTheMainActorTheConformanceIsNotSeen() async {
        let counter = MainActorCounter(id: 1)
        let before = await Task.detached { ListItem(counter) }.value
        counter.count += 1
        let after = await Task.detached { ListItem(counter) }.value
        #expect(before.isContentEqual(to: after))
        let onMain = ListItem(counter)
        counter.count += 1
        #expect(!onMain.isContentEqual(to: ListItem(counter)))
    }
}

import CellKit
import CellKitTesting
import Synchronization
import Testing

/// A fetch the test finishes by hand: each call waits until the test resumes it.
actor FetchGate<Value: Sendable> {
    private var calls: [(argument: Int, continuation: CheckedContinuation<Value, any Error>?)] = []
    private var callWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// The arguments of every call so far (page numbers; 0 for plain fetches).
    var arguments: [Int] { calls.map(\.argument) }
    /// How many calls are waiting to be resumed.
    var waitingCount: Int { calls.filter { $0.continuation != nil }.count }

    func fetch(_ argument: Int = 0) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            calls.append((argument, continuation))
            let ready = callWaiters.filter { $0.count <= calls.count }
            callWaiters.removeAll { $0.count <= calls.count }
            for waiter in ready { waiter.continuation.resume() }
        }
    }

    /// Returns once `count` calls were made in all.
    func waitForCalls(_ count: Int) async {
        guard calls.count < count else { return }
        await withCheckedContinuation { callWaiters.append((count, $0)) }
    }

    /// Finishes call number `index` (0 first) with `result`.
    func resume(_ index: Int, with result: Result<Value, any Error>) {
        guard let continuation = calls[index].continuation else { return }
        calls[index].continuation = nil
        continuation.resume(with: result)
    }

    /// Finishes the first waiting call made with `argument`.
    func resume(argument: Int, returning value: Value) {
        guard let index = calls.firstIndex(where: { $0.argument == argument && $0.continuation != nil }) else { return }
        resume(index, with: .success(value))
    }

    func resume(_ index: Int, returning value: Value) { resume(index, with: .success(value)) }
    func resume(_ index: Int, throwing error: any Error) { resume(index, with: .failure(error)) }
}

struct Post: Identifiable, Equatable, Sendable {
    let id: Int
    var text: String
    init(_ id: Int, _ text: String? = nil) {
        self.id = id
        self.text = text ?? "post \(id)"
    }
}

struct FetchFailed: Error, CustomStringConvertible {
    var reason = "offline"
    var description: String { "fetch failed: \(reason)" }
}

/// A controller and headless list view wired for posts, with diagnostics and errors collected.
@MainActor
final class PostScreen {
    let controller: ListController
    let listView: HeadlessListView
    let errors = Box<[String]>([])

    init(viewportHeight: Double = 440, rowHeight: Double = 44, prefetchDistance: Int = 0) {
        controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Post.self) { cell, post in cell.text = post.text }
        listView = HeadlessListView(viewportHeight: viewportHeight, rowHeight: rowHeight, prefetchDistance: prefetchDistance)
        let errors = errors
        controller.onError = { errors.value.append("\($0)") }
        controller.attach(to: listView)
    }

    /// The ids of the content rows shown, in order.
    var shownIDs: [Int] { controller.displayed.sections.flatMap(\.items).compactMap { $0.model(as: Post.self)?.id } }

    /// The single placeholder row shown, if any.
    var placeholder: Any? {
        guard controller.displayed.sections.count == 1, controller.displayed.sections[0].id == .placeholder else { return nil }
        return controller.displayed.sections[0].items.first?.model
    }

    /// Checks that no batch was refused and the list view agrees with the controller.
    func expectConsistent(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let rejected = listView.log.filter { if case .rejected = $0 { true } else { false } }
        #expect(rejected.isEmpty, "refused batches: \(rejected)", sourceLocation: sourceLocation)
        try listView.checkConsistency()
    }
}

func posts(_ ids: some Sequence<Int>) -> [Post] { ids.map { Post($0) } }

/// A remote data source fetching through `gate`, bound to a new screen, its first load started:
/// the fetch was called and waits for the test to resume call 0 of `gate`.
@MainActor
func loadingRemoteScreen(gate: FetchGate<[Post]>) async -> (RemoteDataSource<Post>, PostScreen, Task<Void, Never>) {
    let source = RemoteDataSource { try await gate.fetch() }
    let screen = PostScreen()
    screen.controller.bind(to: source)
    let load = source.load()
    await gate.waitForCalls(1)
    return (source, screen, load)
}

/// A remote data source fetching through `gate`, bound to a new screen, its first load of `initial` done.
@MainActor
func loadedRemoteScreen(gate: FetchGate<[Post]>, initial: [Post]) async -> (RemoteDataSource<Post>, PostScreen) {
    let (source, screen, load) = await loadingRemoteScreen(gate: gate)
    await gate.resume(0, returning: initial)
    await load.value
    return (source, screen)
}

/// A paginated data source fetching through a new gate, bound to a new screen, its first page
/// (`firstPage`, with `hasMore`) loaded; the screen is not settled yet.
@MainActor
func loadedPagedScreen(
    prefetchDistance: Int, firstPage: [Post], hasMore: Bool
) async -> (FetchGate<Page<Post>>, PaginatedDataSource<Post>, PostScreen) {
    let gate = FetchGate<Page<Post>>()
    let source = PaginatedDataSource<Post>(prefetchDistance: prefetchDistance) { try await gate.fetch($0) }
    let screen = PostScreen()
    screen.controller.bind(to: source)
    let load = source.load()
    await gate.waitForCalls(1)
    await gate.resume(0, returning: Page(firstPage, hasMore: hasMore))
    await load.value
    return (gate, source, screen)
}

/// The diagnostics a handler received, for a test that checks them.
final class CollectedDiagnostics: Sendable {
    private let store = Mutex<[Diagnostic]>([])
    /// Every diagnostic so far, in order.
    var all: [Diagnostic] { store.withLock { $0 } }
    /// A handler that collects here.
    var handler: DiagnosticHandler { DiagnosticHandler { diagnostic in self.store.withLock { $0.append(diagnostic) } } }
}

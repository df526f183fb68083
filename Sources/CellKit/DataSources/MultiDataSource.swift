/// A data source made of child data sources, one after the other, each child's
/// sections shown as soon as that child has content (Instant Cocoa's multi data source).
///
/// The state is `.loading` while no child has content and one is still loading,
/// `.failed` when none has content and one failed, and `.loaded` or `.empty`
/// otherwise. Loading, refreshing and cancelling go to every child; a row about
/// to show is reported to the child it belongs to. The end of the list on screen that the
/// controller reports (``visibleEndIsOnScreen(at:in:)``) goes only to a child that waits
/// for it: a paged child held by ``cancel()`` loads nothing for it.
///
/// Two children that list the same object (a user who is both a friend and a
/// suggestion) make a duplicate identity: the ``ListController`` reports it once as a
/// ``Diagnostic/Kind/duplicateIdentifier`` diagnostic and shows both rows, and each
/// row still gets the object's resources (``ListController/provideResource(_:key:value:)``,
/// ``ResourceLoader``).
///
/// A child that fails while another shows rows makes the snapshot `.failed` with
/// those rows, once: the controller keeps them, announces the error and calls
/// ``ListController/onError``, but the failed child gets no error row of its own
/// (retry with ``refresh()``, or that child's own `load()`).
///
/// When no child has content yet, one still loads and another failed, loading
/// wins: the state is `.loading` (rows may still come). The failure is not lost: once
/// the loading child shows rows, the snapshot is `.failed` with those rows, once, as
/// above (the first such failure, unless that child loaded since); if no child brings
/// rows, the state is `.failed` and the controller shows the error row (a
/// ``Diagnostic/Kind/loadFailed`` diagnostic reports it). A cancelled child
/// (`CancellationError`) is not reported this way, nor as an error while a sibling shows
/// rows: a child's load that was cancelled leaves the state as the siblings make it. With
/// nothing showing, a cancelled first load (``cancel()``, or its task cancelled) shows the
/// "Loading was cancelled." row with its retry, as a single source's does.
///
/// The controller's ``Diagnostic/Kind/loadFailed`` diagnostics name the child that
/// failed, by its position and type, after the multi source:
/// `MultiDataSource (child 1: RemoteDataSource<Suggestion>)` (a multi source inside
/// another one names its own child in turn).
///
/// One source given twice (`MultiDataSource([recent, recent])`) shows twice: both
/// sections follow it, and its rows are duplicates the controller reports.
///
/// ```swift
/// struct Friend: Identifiable, Equatable, Sendable { let id: Int }
/// struct Suggestion: Identifiable, Equatable, Sendable { let id: Int }
///
/// let source = MultiDataSource([
///     SimpleDataSource([Friend(id: 1), Friend(id: 2)]),
///     RemoteDataSource { [Suggestion(id: 1)] },
/// ])
/// Task { @MainActor in
///     await source.load().value
///     assert(source.snapshot.model.sections.map(\.items.count) == [2, 1])
/// }
/// ```
@MainActor
public final class MultiDataSource: ListDataSource {
    public private(set) var snapshot = ListSnapshot()
    public var onSnapshot: (@MainActor (ListSnapshot) -> Void)?
    /// The children, in the order their sections appear.
    public let children: [any ListDataSource]
    /// For each section of ``snapshot``: the child and the child's own section index.
    private var origins: [(child: Int, section: Int)] = []
    /// Children that failed while no child had content and another still loaded: their
    /// failure is reported once a sibling shows rows (or as the error row if none does).
    private var unreportedFailures: Set<Int> = []
    /// For each child whose snapshot is `.failed`: the name of that failure (the child's own
    /// ``ListSnapshot/failureID``, or one given when the child published it), so that the
    /// failure a sibling's change publishes again is reported once.
    private var childFailureIDs: [Int: Int] = [:]

    /// Creates a source showing `children` one after the other.
    public init(_ children: [any ListDataSource]) {
        self.children = children
        for (index, child) in children.enumerated() {
            child.onSnapshot = { [weak self] _ in self?.recompose(changed: index) }
        }
        recompose(changed: nil)
    }

    /// Loads every child; the task ends when every child's load has ended, and cancelling
    /// it cancels them.
    @discardableResult
    public func load() -> Task<Void, Never> { all(children.map { $0.load() }) }

    /// Refreshes every child; the task ends when every refresh has ended, and cancelling
    /// it cancels them.
    @discardableResult
    public func refresh() -> Task<Void, Never> { all(children.map { $0.refresh() }) }

    /// Cancels every child.
    public func cancel() { for child in children { child.cancel() } }

    /// Whether a child waits to hear the last row on screen (see ``ListDataSource/awaitsVisibleEnd``).
    public var awaitsVisibleEnd: Bool { children.contains { $0.awaitsVisibleEnd } }

    /// Reports the row to the child whose section it is in, in the child's coordinates.
    public func willDisplayItem(at path: ItemPath, in model: TableModel) {
        guard origins.indices.contains(path.section) else { return }
        let origin = origins[path.section]
        let child = children[origin.child]
        child.willDisplayItem(at: ItemPath(item: path.item, section: origin.section), in: child.snapshot.model)
    }

    /// Reports the end of the list on screen to the child whose row it is, in the child's
    /// coordinates, when that child waits for it (``ListDataSource/awaitsVisibleEnd``); another
    /// child hears nothing (a paged child held by ``cancel()`` would take it for a row coming on
    /// screen and load its next page).
    public func visibleEndIsOnScreen(at path: ItemPath, in model: TableModel) {
        guard origins.indices.contains(path.section) else { return }
        let origin = origins[path.section]
        let child = children[origin.child]
        guard child.awaitsVisibleEnd else { return }
        child.visibleEndIsOnScreen(at: ItemPath(item: path.item, section: origin.section), in: child.snapshot.model)
    }

    /// Asks the children whose next page failed for it again; without such a
    /// child, the last child with more pages for its next page. Cancelling the task
    /// returned cancels those pages.
    @discardableResult
    public func loadNextPage() -> Task<Void, Never>? {
        var failed = children.filter { $0.snapshot.nextPageError != nil }
        if failed.isEmpty, let last = children.last(where: { $0.snapshot.hasMore }) { failed = [last] }
        let tasks = failed.compactMap { $0.loadNextPage() }
        return tasks.isEmpty ? nil : all(tasks)
    }

    /// The child whose snapshot failed with `error` (same type and text), by position and
    /// type ("child 1: RemoteDataSource<Suggestion>"), for the controller's diagnostics;
    /// `nil` when no child holds it.
    func failedChild(with error: any Error) -> String? {
        let text = "\(error)"
        for (index, child) in children.enumerated() {
            guard let failure = child.snapshot.state.error ?? child.snapshot.nextPageError,
                  type(of: failure) == type(of: error), "\(failure)" == text else { continue }
            let inner = (child as? MultiDataSource)?.failedChild(with: error).map { " (\($0))" } ?? ""
            return "child \(index): \(type(of: child))\(inner)"
        }
        return nil
    }

    /// A task that ends when every one of `tasks` has; cancelling it cancels them (the
    /// children's loads, as ``ListDataSource`` says of the task a load returns).
    private func all(_ tasks: [Task<Void, Never>]) -> Task<Void, Never> {
        Task {
            await withTaskCancellationHandler {
                for task in tasks { await task.value }
            } onCancel: {
                for task in tasks { task.cancel() }
            }
        }
    }

    private func recompose(changed: Int?) {
        for index in children.indices {
            let snapshot = children[index].snapshot
            if snapshot.state.error == nil {
                childFailureIDs[index] = nil
            } else if index == changed || childFailureIDs[index] == nil {
                // A child's publish of a failure is a new one unless it names it as one it published before.
                if let own = snapshot.failureID, childFailureIDs[index] == own { continue }
                childFailureIDs[index] = snapshot.failureID ?? FailureIDs.next()
            }
        }
        var sections: [TableSection] = []
        var origins: [(child: Int, section: Int)] = []
        var anyLoading = false
        var firstError: (any Error)?
        var firstFailureID: Int?, firstFailedPage: Int?
        var activity = ListActivity.idle
        var hasMore = false
        var nextPageError: (any Error)?
        for (index, child) in children.enumerated() {
            let snapshot = child.snapshot
            for (s, section) in snapshot.model.sections.enumerated() {
                var section = section
                section.id = SectionID(ChildSectionID(child: index, section: section.id))
                sections.append(section)
                origins.append((index, s))
            }
            if snapshot.state.isLoading { anyLoading = true }
            if firstError == nil, let error = snapshot.state.error, snapshot.model.isEmpty {
                firstError = error
                firstFailureID = childFailureIDs[index]
                firstFailedPage = snapshot.failedPage
            }
            if snapshot.activity != .idle, activity == .idle { activity = snapshot.activity }
            hasMore = hasMore || snapshot.hasMore
            if nextPageError == nil { nextPageError = snapshot.nextPageError }
        }
        let model = TableModel(sections: sections, sectionIndexStyle: children.first?.snapshot.model.sectionIndexStyle ?? .none)
        // A child that no longer fails (it loaded again) has nothing left to report.
        unreportedFailures = unreportedFailures.filter { children[$0].snapshot.state.error != nil }
        let state: ContentState
        // The child's name for the failure reported, if it has one: a failure a paged child
        // publishes again (an edit emptied it after its page failed) is reported once.
        var failureID: Int?, failedPage: Int?
        if !model.isEmpty {
            // A child that failed while another has content: report it once, on its own change;
            // one that failed while nothing showed and a sibling loaded, once that sibling shows rows.
            if let changed, case .failed(let error) = children[changed].snapshot.state, !(error is CancellationError) {
                state = .failed(error)
                failureID = children[changed].snapshot.failureID
                failedPage = children[changed].snapshot.failedPage
                unreportedFailures.removeAll()
            } else if let first = unreportedFailures.min(), let error = children[first].snapshot.state.error {
                state = .failed(error)
                unreportedFailures.removeAll()
            } else {
                state = .loaded
            }
        } else if anyLoading {
            // Loading wins over a failure while nothing shows; the failure waits to be reported.
            if let changed, let error = children[changed].snapshot.state.error, !(error is CancellationError) {
                unreportedFailures.insert(changed)
            }
            state = .loading
        } else if let firstError {
            state = .failed(firstError)
            failureID = firstFailureID
            failedPage = firstFailedPage
            unreportedFailures.removeAll()
        } else {
            state = .empty
        }
        self.origins = origins
        var published = ListSnapshot(model, state: state, activity: activity, hasMore: hasMore, nextPageError: nextPageError)
        published.failureID = failureID
        published.failedPage = failedPage
        snapshot = published
        onSnapshot?(published)
    }
}

/// A section of a child of a ``MultiDataSource``: unique across children.
struct ChildSectionID: Hashable, Sendable {
    let child: Int
    let section: SectionID
}

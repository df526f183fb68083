/// The platform glue under a ``ListViewCore``: what a table view, a collection
/// view, the terminal list view or the headless test view does when the core
/// has decided.
///
/// A backend holds no list logic: the core keeps the counts the view believes
/// it has, validates each batch once, plans it, follows the visible cells and
/// keeps the reuse pools. The backend only replays.
///
/// ```swift
/// @MainActor final class PrintingBackend: ListViewBackend {
///     var hasWindow: Bool { true }
///     func performBatch(animated: Bool, _ body: () -> Changeset) {
///         let batch = body()   // inside the platform's update closure
///         print("replay", batch.changeCount, "changes")
///     }
///     func reconfigureItems(at paths: [ItemPath]) { print("reconfigure", paths) }
///     func reloadAll() { print("reload") }
///     func viewportOffset(ofItemAt path: ItemPath) -> Double? { Double(path.item) * 44 }
///     func scrollItem(at path: ItemPath, toViewportOffset offset: Double) {}
///     func makeCell(_ source: CellSource, for path: ItemPath) -> AnyObject { source.make?() ?? TextCell() }
/// }
/// ```
@MainActor
public protocol ListViewBackend: AnyObject {
    /// Whether the view is in a window; outside one, batches become reloads
    /// (UIKit has nothing to animate and may not have asked for its counts).
    var hasWindow: Bool { get }
    /// Runs one structural batch: calls `body` *inside* the platform's update
    /// closure (it switches the data source to the data after the batch and
    /// returns the changes to replay, with UIKit's batch semantics), then
    /// replays what it returned. `animated` is `false` when rows arrived above
    /// the ones the user reads and they must not slide.
    func performBatch(animated: Bool, _ body: () -> Changeset)
    /// Configures the rows at `paths` again in place (coordinates after the
    /// batch); each cell comes from ``ListViewCore/cellForItem(at:)``, which hands
    /// back the cell already showing the row. With core-owned cells, `paths` are
    /// the visible rows; with platform-owned cells (``ListViewCore/CellOwnership/platform``),
    /// every updated row that survived the batch: the platform reconfigures the
    /// cells it has, including cells it prepared ahead of display, and skips the others.
    /// The core hands back a prepared row's cell only while this call runs (ask for
    /// those cells before returning); the cells of visible rows, until they are asked for.
    func reconfigureItems(at paths: [ItemPath])
    /// Forgets what is shown and asks the core for counts and cells again, now
    /// or on the next layout pass (then call ``ListViewCore/readCounts()`` first).
    func reloadAll()
    /// How far below the top of the viewport the row at `path` starts (negative:
    /// above it); `nil` when the row does not exist.
    func viewportOffset(ofItemAt path: ItemPath) -> Double?
    /// Scrolls so that the row at `path` starts `offset` below the top of the
    /// viewport (clamped to the content): keeps the row the user reads in place.
    func scrollItem(at path: ItemPath, toViewportOffset offset: Double)
    /// A platform cell of `source` for `path`: a new one, or, for platforms
    /// that keep their own reuse pools, one dequeued from them.
    func makeCell(_ source: CellSource, for path: ItemPath) -> AnyObject
}

/// A list view that owns a ``ListViewCore``: its ``ListView`` requirements that
/// are the core's (dequeuing, visible rows, cells, reloading) come with it.
@MainActor
public protocol ListViewCoreOwner: ListView {
    /// The core this list view owns.
    var core: ListViewCore { get }
}

extension ListViewCoreOwner {
    /// Makes `source`'s cells known to the core.
    public func register(_ source: CellSource) { core.register(source) }
    /// A cell from the core: the one showing `path` during a reconfigure, a pooled one, or a new one.
    public func dequeueReusableCell(_ source: CellSource, for path: ItemPath) -> AnyObject { core.dequeueReusableCell(source, for: path) }
    /// The rows on screen, in order, as the core follows them.
    public var visibleItemPaths: [ItemPath] { core.visibleItemPaths }
    /// The cell showing `path`, if that row is on screen.
    public func cell(at path: ItemPath) -> AnyObject? { core.cell(at: path) }
    /// Reloads through the core (after the batch, when called inside one).
    public func reloadData() { core.reloadData() }
    /// Whether the core is in a batch, a reconfigure or a layout pass.
    public var isUpdating: Bool { core.isUpdating }
    /// Runs `body` once the core's batch, reconfigure or layout pass is over.
    public func performWhenIdle(_ body: @escaping @MainActor () -> Void) { core.performWhenIdle(body) }
}

/// What became of one batch handed to ``ListView/performBatchUpdates(_:updateData:)``.
///
/// ```swift
/// let outcome = BatchOutcome.reloaded(.notInWindow)
/// assert(outcome.error == nil && !outcome.isAnimated)
/// ```
public enum BatchOutcome: Hashable, Sendable {
    /// The batch was animated (structural changes, then reconfigures in place).
    case animated
    /// The data was switched and the list reloaded instead, for the reason given.
    case reloaded(BatchPlan.ReloadReason)
    /// The batch was refused before anything changed: the data source was not
    /// switched (`updateData` did not run). The message names the call.
    case refused(String)

    /// The broken batch-update rule, when the batch was invalid.
    public var error: BatchUpdateError? {
        if case .reloaded(.invalid(let error)) = self { return error }
        return nil
    }

    /// Whether the batch was animated.
    public var isAnimated: Bool { self == .animated }
}

/// Something a ``ListViewCore`` did, in order (the headless list view's log).
public enum ListViewEvent: Hashable, Sendable, CustomStringConvertible {
    /// A new cell was built for `reuseIdentifier` at `path`.
    case created(reuseIdentifier: String, path: ItemPath)
    /// A cell was taken from the reuse pool for `path`.
    case dequeued(reuseIdentifier: String, path: ItemPath)
    /// The data source handed back the configured cell for `path`.
    case configured(ItemPath)
    /// The row at `path` came on screen.
    case displayed(ItemPath)
    /// The row at `path` left the screen; its cell went to the pool.
    case endedDisplay(ItemPath)
    /// A visible cell was reconfigured in place (its content changed).
    case reconfigured(ItemPath)
    /// A visible cell was updated in place with a resource.
    case resourceUpdated(ItemPath, key: ResourceKey)
    /// A batch update was applied: the changes the core replayed to the backend, which are
    /// not always the batch asked for.
    ///
    /// It is ``BatchPlan``'s structural step (``BatchPlan/Steps/structural``): item updates are
    /// not in it (each visible row whose content changed follows as a ``reconfigured(_:)``
    /// entry), and a section that moves while rows in it change is a delete and an insert of
    /// that section. A batch that moves only rows the user already dragged there is an empty
    /// changeset. A batch that breaks a rule is not applied: ``rejected(_:)`` and ``reloaded``
    /// follow instead.
    case batch(Changeset)
    /// A batch update was refused; the list reloaded.
    case rejected(BatchUpdateError)
    /// A call broke a list-view contract and was refused or deferred; the message names it.
    case refused(String)
    /// The list reloaded everything.
    case reloaded
    /// The row at `path` was selected.
    case selected(ItemPath)
    /// The controller asked for an announcement to assistive technologies (``ListView/announce(_:)``).
    case announced(ListAnnouncement)

    public var description: String {
        switch self {
        case .created(let id, let p): "created \(id) at \(p)"
        case .dequeued(let id, let p): "dequeued \(id) at \(p)"
        case .configured(let p): "configured \(p)"
        case .displayed(let p): "displayed \(p)"
        case .endedDisplay(let p): "ended display \(p)"
        case .reconfigured(let p): "reconfigured \(p)"
        case .resourceUpdated(let p, let key): "resource \(key) at \(p)"
        case .batch(let c): "batch of \(c.changeCount) changes"
        case .rejected(let e): "rejected: \(e)"
        case .refused(let message): "refused: \(message)"
        case .reloaded: "reloaded"
        case .selected(let p): "selected \(p)"
        case .announced(let a): a.description
        }
    }
}

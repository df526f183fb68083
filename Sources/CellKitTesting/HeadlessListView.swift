import CellKit

/// A list view with `UITableView`'s semantics that runs anywhere, for tests of
/// screens without a simulator.
///
/// It runs on the same ``/CellKit/ListViewCore`` as the UIKit adapters and the terminal
/// list view: a reuse pool per reuse identifier, cells only for rows inside its
/// viewport, every batch checked once with UIKit's rules against the counts it
/// cached (an invalid batch reloads and ``performBatchUpdates(_:updateData:)``
/// returns the `BatchUpdateError` naming the rule, section and row instead of
/// crashing), and what happened recorded in ``log``.
///
/// It refuses what UIKit refuses, so a suite on Linux fails where a device
/// would: a data source that returns a different cell when a row is
/// reconfigured, data changed outside a batch's update closure, counts that
/// disagree with its cached ones, a batch while a reload's layout is pending
/// (``defersLayoutAfterReload``), a data source that dequeues outside the view's
/// request for a cell, for another row, twice for one row, or does not return the cell it
/// dequeued, a scroll to or a selection of a row it does not have, a batch started while it
/// lays out rows (a scroll, a resize, a scroll to a row: a ``/CellKit/ListController``'s apply
/// from a hook waits for the end of that pass instead), NaN and negative heights from its
/// delegate. Refusals show in ``log`` as ``/CellKit/ListViewEvent/refused(_:)`` and make
/// ``checkConsistency()`` throw. Tolerated, logged as refused without making it throw: a
/// scroll asked from a hook to a row gone once the pass is over, a delegate's height above
/// the maximum, and the height properties below set out of range.
///
/// Heights are asked as `UITableView` asks them with estimated heights: only for
/// rows that come into the viewport; other rows count as ``rowHeight``. Rows measured
/// shorter than their estimate pull more rows into the viewport, and those are asked
/// too, until every row in it has had its height asked, however far the estimate is
/// off. A scroll to a row (``scrollToItem(at:)``) asks the heights of the rows that come
/// into view there before it clamps the offset to the content, so near the end of the
/// list a row taller than its estimate lands at the top. A viewport of height 0 shows no rows.
///
/// A row is in the viewport when it ends below the viewport's top edge and starts above
/// its bottom edge. A row of height 0 strictly inside the viewport gets a cell; one on
/// the top edge covers none of it and gets none: rows of height 0 at the very top of
/// the list show no cell, as with a ``rowHeight`` of 0.
///
/// Every height it uses (a row's from the delegate, ``rowHeight``,
/// ``sectionHeaderHeight``, ``viewportHeight``) is clamped to
/// `0...`\``/CellKit/RowHeights/maximumHeight``: NaN and negative heights count as 0
/// (`UITableView` rejects them), larger ones and +infinity as the maximum. A height
/// outside that range is logged as a ``/CellKit/ListViewEvent/refused(_:)`` naming the
/// property, or the section and row, so ``contentHeight`` is never negative or NaN; a NaN
/// or negative height from the delegate also makes ``checkConsistency()`` throw
/// (`UITableView` raises "Invalid row height provided by table delegate").
/// (A ``/CellKit/ListController`` already clamps its heights and reports the model type.)
///
/// ```swift
/// struct Note: Identifiable, Equatable, Sendable { let id: Int; var text: String }
///
/// @MainActor func showNotes() {
///     let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
///     let controller = ListController()
///     controller.register(TextCell.self, for: Note.self) { cell, note in cell.text = note.text }
///     controller.attach(to: listView)
///     controller.apply(TableModel((0..<1000).map { Note(id: $0, text: "note \($0)") }))
///     assert(listView.visibleItemPaths.count == 10)
///     assert(listView.createdCellCount <= 12)
/// }
/// ```
@MainActor
public final class HeadlessListView: ListViewCoreOwner, ListViewBackend {
    /// Something the list view did, in order.
    public typealias Event = ListViewEvent

    public weak var dataSource: (any ListViewDataSource)?
    public weak var delegate: (any ListViewDelegate)?

    /// The list-view logic this view replays (counts, validation, visible cells, pools).
    public private(set) lazy var core: ListViewCore = makeCore()

    /// The height of the visible window.
    ///
    /// It reads back the height the view lays out with: one outside
    /// `0...`\``/CellKit/RowHeights/maximumHeight`` is clamped as it is set (NaN and negative
    /// heights give 0, larger ones the maximum) and logged as refused (see the type's
    /// discussion), so `HeadlessListView(viewportHeight: .nan).viewportHeight` is 0.
    ///
    /// Set while the view lays out rows or runs a batch (from a configure handler, a display
    /// hook or a presenter), the property takes the new value at once, but the viewport
    /// changes, and its rows are laid out, once that pass is over (as a scroll: see ``scroll(to:)``).
    public var viewportHeight: Double {
        didSet {
            viewportHeight = checked(viewportHeight, "viewportHeight")   // no observer call again
            guard isUpdating else { return resizeNow() }  // no closure when idle
            core.performViewportChange(.resize) { [unowned self] in resizeNow() }
        }
    }
    /// The height of rows whose delegate gives none, and the estimate of rows not yet asked.
    ///
    /// Use a positive height. With 0, rows take no space by their estimate, so
    /// none comes into the viewport: no height is asked and no cell is made,
    /// as with a viewport of height 0. NaN and negative heights count as 0, larger ones
    /// as ``/CellKit/RowHeights/maximumHeight``; the property reads back the height in use,
    /// and one out of range is logged as refused (see the type's discussion).
    public var rowHeight: Double {
        didSet {
            rowHeight = checked(rowHeight, "rowHeight")
            rowHeightValue = rowHeight
        }
    }
    /// The height of a section header that has a title (0: headers take no space); clamped
    /// and read back as ``rowHeight`` is.
    public var sectionHeaderHeight: Double {
        didSet {
            sectionHeaderHeight = checked(sectionHeaderHeight, "sectionHeaderHeight")
            headerHeightValue = sectionHeaderHeight
        }
    }
    // The heights above, clamped to 0...RowHeights.maximumHeight.
    private var viewportValue: Double = 0
    private var rowHeightValue: Double = 0
    private var headerHeightValue: Double = 0
    /// How many rows beyond each edge of the viewport are announced for prefetching:
    /// above and below, whatever the direction of the last scroll (`UITableView`
    /// prefetches mostly ahead of the scroll). A row that scrolls off into this zone is
    /// announced for prefetching before it ends display, and one that scrolls on from it
    /// stops being prefetched after it shows, so a resource load it started goes on.
    public var prefetchDistance: Int
    /// Whether a batch update keeps the first visible row where it was on screen
    /// (``/CellKit/ScrollAnchor``), as chat and feed screens do; otherwise the content
    /// offset stays, as in `UITableView`. Default: `false`.
    public var keepsFirstVisibleRowInPlace: Bool {
        get { core.keepsFirstVisibleRowInPlace }
        set { core.keepsFirstVisibleRowInPlace = newValue }
    }
    /// Whether the view is in a window; outside one, batches become reloads, as the UIKit adapters do. Default: `true`.
    public var isInWindow = true
    /// Whether ``reloadData()`` waits for ``layoutIfNeeded()`` to read counts and
    /// lay out, as UIKit waits for its next layout pass; a batch before that
    /// becomes a reload (``/CellKit/BatchPlan/ReloadReason/layoutPendingAfterReload``). Default: `false`.
    public var defersLayoutAfterReload = false
    /// Above this many changes, a batch reloads instead of animating; `nil`: never.
    public var reloadThreshold: Int? {
        get { core.reloadThreshold }
        set { core.reloadThreshold = newValue }
    }
    /// The distance scrolled from the top.
    ///
    /// After each layout pass it lies within `0...max(0, contentHeight - viewportHeight)`,
    /// with the heights of the rows as measured: a scroll past the end over rows shorter than
    /// their estimate ends with the last row at the bottom of the viewport, not below it.
    /// ``checkConsistency()`` throws for an offset outside that range.
    public private(set) var contentOffset: Double = 0
    /// What happened, in order; clear it with ``clearLog()``.
    public private(set) var log: [Event] = []
    /// Whether events are recorded (turn off for very long scrolls).
    public var isLoggingEnabled = true
    /// How many row heights the view asked its delegate: only rows that came into the viewport.
    public private(set) var heightRequestCount = 0

    private let layout: Layout
    private var layoutPending = false
    /// Set while ``performBatchUpdates(_:updateData:)`` runs: the core's scroll that keeps
    /// the first visible row in place moves the offset, and the layout after the batch shows its rows.
    private var isRunningBatch = false

    /// Creates a list view with a viewport of `viewportHeight` and rows of `rowHeight` by default.
    public init(viewportHeight: Double = 600, rowHeight: Double = 44, sectionHeaderHeight: Double = 0, prefetchDistance: Int = 0) {
        self.viewportHeight = viewportHeight
        self.rowHeight = rowHeight
        self.sectionHeaderHeight = sectionHeaderHeight
        self.prefetchDistance = prefetchDistance
        self.layout = Layout(estimate: 0)
        viewportValue = checked(viewportHeight, "viewportHeight")
        rowHeightValue = checked(rowHeight, "rowHeight")
        headerHeightValue = checked(sectionHeaderHeight, "sectionHeaderHeight")
        // The properties read back the heights in use (no observer runs in an initializer).
        self.viewportHeight = viewportValue
        self.rowHeight = rowHeightValue
        self.sectionHeaderHeight = headerHeightValue
        layout.estimate = rowHeightValue
    }

    /// `height` clamped to 0...``/CellKit/RowHeights/maximumHeight`` (NaN: 0); one outside is
    /// logged as refused, and is a violation when `isViolation` (a delegate's height, which
    /// `UITableView` raises for).
    private func checked(_ height: Double, _ what: @autoclosure () -> String, isViolation: Bool = false) -> Double {
        if height >= 0 && height <= RowHeights.maximumHeight { return height }
        let clamped = RowHeights.clamped(height)
        refuse("\(what()) \(height) is not a height in 0...\(RowHeights.maximumHeight) (UITableView rejects negative and NaN heights); using \(clamped)", isViolation: isViolation && !(height > RowHeights.maximumHeight))
        return clamped
    }

    /// The refusals of calls UIKit raises for, in order: ``checkConsistency()`` throws the first.
    private var violations: [String] = []

    /// Logs a refused call; one UIKit raises for also makes ``checkConsistency()`` throw.
    private func refuse(_ message: String, isViolation: Bool) {
        if isViolation { violations.append(message) }
        record(.refused(message))
    }

    private func makeCore() -> ListViewCore {
        let core = ListViewCore(listView: self, backend: self)
        // Refusals go to the log and to checkConsistency(), not to standard error.
        core.diagnostics = .ignore
        core.onEvent = { [unowned self] event in record(event) }
        return core
    }

    // MARK: ListView

    @discardableResult
    public func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) -> BatchOutcome {
        let wasRunningBatch = isRunningBatch
        isRunningBatch = true
        let outcome = core.performBatchUpdates(changeset, updateData: updateData)
        isRunningBatch = wasRunningBatch
        // The cells of the rows that came into view are part of the batch (UIKit makes them in its update).
        if outcome == .animated { core.layingOut { layoutVisibleRows() } }
        return outcome
    }

    /// The content state the controller reported after its last apply, if any.
    public private(set) var lastContentState: ContentState?

    public func contentStateDidChange(_ state: ContentState) { lastContentState = state }

    /// The announcements made so far, in order (also in ``log`` as ``/CellKit/ListViewEvent/announced(_:)``).
    public private(set) var announcements: [ListAnnouncement] = []

    public func announce(_ announcement: ListAnnouncement) {
        announcements.append(announcement)
        record(.announced(announcement))
    }

    public func cellDidChange(at path: ItemPath, reason: CellChangeReason) {
        switch reason {
        case .reconfigured: record(.reconfigured(path))
        case .resource(let key): record(.resourceUpdated(path, key: key))
        }
    }

    // MARK: ListViewBackend

    public var hasWindow: Bool { isInWindow }

    public func performBatch(animated: Bool, _ body: () -> Changeset) {
        let oldCounts = layout.counts
        let batch = body()
        // Heights that differ from the estimate, and those of the rows on screen, follow
        // their rows; the others are asked again when shown.
        let mapping = core.batchMapping ?? PathMapping(batch, oldCounts: oldCounts, newCounts: core.counts)
        func isKept(_ path: ItemPath, _ height: Double) -> Bool { height != rowHeightValue || core.cell(at: path) != nil }
        // Rows changed off screen leave every kept height at its path: nothing to rebuild.
        if layout.known.allSatisfy({ isKept($0.key, $0.value) && mapping.newPath(of: $0.key) == $0.key }) {
            resetLayout(known: layout.known)
            return
        }
        var known: [ItemPath: Double] = [:]
        known.reserveCapacity(layout.known.count)
        for (path, height) in layout.known where isKept(path, height) {
            if let new = mapping.newPath(of: path) { known[new] = height }
        }
        resetLayout(known: known)
    }

    /// Configures the cells of the rows at `paths` that are on screen again, in place,
    /// as `UITableView.reconfigureRows(at:)` does: the data source is asked for each row's
    /// cell, a dequeue for the row hands back the cell showing it, and a data source that
    /// returns another cell is refused (the showing cell stays). Rows not on screen are
    /// skipped. A path the view does not have (a negative index, a missing section, a row
    /// past its section's end) is skipped and refused in the log, naming its section and
    /// row; it is not a contract violation (``checkConsistency()`` does not throw for it),
    /// since Apple documents no answer of `reconfigureRows(at:)` to such a path, and the
    /// UIKit adapters drop it the same way before UIKit sees it.
    /// ``/CellKit/ListController`` calls it after a batch for the rows whose
    /// content changed; a test may call it as an app calls `reconfigureRows(at:)`.
    ///
    /// The rows are measured again, as UIKit sizes a reconfigured row again: their
    /// heights are asked again (``heightRequestCount`` grows) and the rows below move;
    /// rows pushed out of the viewport end display, rows pulled into it show. Called from a
    /// configure handler or display hook while the view lays out rows, the measuring waits
    /// for the end of that pass (``/CellKit/ListViewCore/reconfigure(_:configure:measureAgain:)``).
    /// So a row that gets taller without a content change (its image arrived) is
    /// `controller.rowHeights.invalidate(ItemID(model))` (an ``/CellKit/ItemID``, the row's
    /// identity: its model, or `ItemID(type: Model.self, id: model.id)`, not the bare `id`)
    /// then `reconfigureItems(at:)`: see
    /// CellKit's article “Heights and self-sizing”.
    public func reconfigureItems(at paths: [ItemPath]) {
        core.reconfigure(paths, configure: { [unowned self] rows in
            for path in rows {
                layout.forget(path)
                core.reconfigureVisibleItem(at: path)
            }
        }, measureAgain: { [unowned self] _ in layoutVisibleRows() })
    }

    public func reloadAll() {
        layoutPending = true
        if !defersLayoutAfterReload { layoutIfNeeded() }
    }

    /// How far below the top of the viewport the row at `path` starts (negative: above
    /// it), with the heights as the view knows them (rows not asked yet at ``rowHeight``);
    /// `nil` for a row the list view does not have.
    ///
    /// The core reads it before a batch to keep the first visible row in place
    /// (``keepsFirstVisibleRowInPlace``); a test may read it too.
    public func viewportOffset(ofItemAt path: ItemPath) -> Double? {
        offset(ofItemAt: path).map { $0 - contentOffset }
    }

    /// Scrolls so that the row at `path` starts `offset` below the top of the viewport
    /// (negative: above it), clamped to the content, and lays out the rows that come into
    /// view, as ``scrollToItem(at:)`` does for an offset of 0: the rows from that position
    /// down are measured first, so near the end of the list the offset is clamped with
    /// their real heights, not their estimates. A row the list view does not have
    /// scrolls nothing; NaN counts as 0.
    ///
    /// The core calls it after a batch to keep the first visible row in place
    /// (``keepsFirstVisibleRowInPlace``): inside the batch it only moves the offset, and the
    /// layout at the end of the batch shows the rows. Called while the view lays out rows
    /// (from a configure handler or display hook), it waits for the end of that pass, as
    /// ``scroll(to:)`` does.
    public func scrollItem(at path: ItemPath, toViewportOffset offset: Double) {
        let distance = offset.isNaN ? 0 : offset
        if isRunningBatch {
            if let top = self.offset(ofItemAt: path) { contentOffset = clampedOffset(top - distance) }
            return
        }
        guard isUpdating else { return scrollItemNow(at: path, toViewportOffset: distance) }
        core.performViewportChange(.scroll) { [unowned self] in scrollItemNow(at: path, toViewportOffset: distance) }
    }

    private func scrollItemNow(at path: ItemPath, toViewportOffset offset: Double) {
        guard let flat = layout.flatIndex(of: path) else { return }
        scrollNow { layout.top(ofRow: flat) - offset }
    }

    public func makeCell(_ source: CellSource, for path: ItemPath) -> AnyObject {
        // A nib cannot be loaded here: show a plain cell so the test goes on.
        source.make?() ?? TextCell()
    }

    // MARK: Driving it

    /// Reads the counts and lays out after a ``reloadData()``, when ``defersLayoutAfterReload`` is set
    /// (UIKit's next layout pass); nothing otherwise.
    public func layoutIfNeeded() {
        guard layoutPending else { return }
        layoutPending = false
        core.layingOut {
            core.readCounts()
            resetLayout(known: [:])
            layoutVisibleRows()
        }
    }

    /// Scrolls so the top of the viewport is `offset` from the top of the content (clamped to
    /// the content, as its rows measure once they come into view: see ``contentOffset``).
    ///
    /// Called while the view lays out rows or runs a batch (from a configure handler, a display
    /// hook or a presenter: "keep the selection in view"), the scroll runs once that pass is
    /// over, in order with the other calls waiting for it (a ``/CellKit/ListController``'s
    /// apply), so no cell is left outside the viewport. The newest position wins: a scroll to
    /// an offset or to a row drops the scrolls asked before it that still wait, and only its
    /// rows are laid out, as `UITableView` lays out only the last content offset set before its
    /// next layout pass; ``scroll(by:)`` runs after the ones waiting, and
    /// ``viewportHeight`` replaces a resize waiting (``/CellKit/ListViewCore/performViewportChange(_:_:)``).
    /// Until it runs, ``contentOffset`` and ``visibleItemPaths`` stay as they were.
    public func scroll(to offset: Double) {
        guard isUpdating else { return scrollNow(to: offset) }  // no closure when idle
        core.performViewportChange(.scroll) { [unowned self] in scrollNow(to: offset) }
    }

    private func scrollNow(to offset: Double) {
        contentOffset = clampedOffset(offset)
        layoutVisibleRows()
    }

    /// Scrolls the top of the viewport to `target()` (the top of a row or of a section), in
    /// one layout pass that first asks the heights of the rows that come into view there:
    /// the offset is clamped to the content
    /// with their real heights, so a row near the end taller than its estimate still lands
    /// at the top, and one shorter than it ends the content at the bottom of the viewport.
    private func scrollNow(toOffsetOf target: () -> Double) {
        guard !layoutPending else { return scrollNow(to: target()) }
        core.layingOut {
            contentOffset = target()     // not clamped yet: the rows there are asked first
            _ = visibleRange()
            contentOffset = target()
            layOutRowsInViewport()
        }
    }

    private func resizeNow() {
        viewportValue = viewportHeight   // clamped when set
        layoutVisibleRows()
    }

    /// Scrolls by `delta` (positive: down); from a configure handler or display hook, after
    /// the pass under way and the scrolls waiting for it (see ``scroll(to:)``).
    public func scroll(by delta: Double) {
        guard isUpdating else { return scrollNow(to: contentOffset + delta) }
        core.performViewportChange(.scrollBy) { [unowned self] in scrollNow(to: contentOffset + delta) }
    }

    /// Scrolls so that the row at `path` is at the top of the viewport, or, near the end of
    /// the list, as close to it as the content allows: the heights of the rows that come
    /// into view there are asked first, so the offset is clamped with their real heights,
    /// not their estimates (a row far taller than its estimate still lands at the top). A path the
    /// list view does not have (a row past the end of its section, a section past the
    /// last) is refused, as `UITableView.scrollToRow(at:at:animated:)` raises for it
    /// ("Attempted to scroll the table view to an out-of-bounds row"): ``log`` gets a
    /// ``/CellKit/ListViewEvent/refused(_:)`` naming the section and row, and nothing scrolls.
    /// A row of `Int.max` (`NSNotFound`) scrolls to the top of its section, as
    /// `scrollToRow(at:at:animated:)` takes it "for scrolling to a section with zero rows".
    ///
    /// Called while the view lays out rows or runs a batch (from a configure handler, a display
    /// hook or a presenter), it runs once that pass is over, as ``scroll(to:)`` does: `path`
    /// names a row of the list as it is then (after an apply asked before it), and it replaces
    /// the scrolls still waiting. After a reload whose layout waits
    /// (``defersLayoutAfterReload``), it lays out first: `path` names a row of the new data.
    public func scrollToItem(at path: ItemPath) {
        guard isUpdating else { return scrollToItemNow(at: path, isViolation: true) }
        // A row there when asked, gone once the pass is over (a hook's apply ran first), is
        // dropped as the UIKit adapters drop it; one missing already when asked is a violation.
        let missingWhenAsked = if case .missing = core.scrollTarget(for: path) { true } else { false }
        core.performViewportChange(.scroll) { [unowned self] in scrollToItemNow(at: path, isViolation: missingWhenAsked) }
    }

    private func scrollToItemNow(at path: ItemPath, isViolation: Bool) {
        // After a reload whose layout waits (defersLayoutAfterReload), a scroll to a row reads
        // the new counts and lays them out first, as UIKit's scroll after `reloadData()` does.
        if core.isReloadPending { layoutIfNeeded() }
        switch core.scrollTarget(for: path) {
        case .sectionTop(let section):
            scrollNow { layout.top(ofSection: section) }
        case .row(let row):
            if let flat = layout.flatIndex(of: row) { scrollNow { layout.top(ofRow: flat) } }
        case .missing(let reason):
            refuse("scrollToItem(at:): \(reason); nothing scrolled", isViolation: isViolation)
        }
    }

    /// Selects the row at `path`, as a tap would. A path the list view does not
    /// have is refused, as UIKit rejects an invalid index path: ``log`` gets a
    /// ``/CellKit/ListViewEvent/refused(_:)`` naming the section and row, and the
    /// delegate hears nothing. A row that does not take the selection (the
    /// delegate's ``/CellKit/ListViewDelegate/listView(_:canSelectItemAt:)``: a placeholder
    /// row that does nothing) ignores the tap, as `UITableView` ignores a tap on a row
    /// it may not highlight: nothing is logged and the delegate hears nothing.
    public func selectItem(at path: ItemPath) {
        let counts = core.counts
        guard path.section >= 0, path.section < counts.count, path.item >= 0, path.item < counts[path.section] else {
            refuse("selectItem(at:): \(core.describeMissingRow(path)); nothing was selected", isViolation: true)
            return
        }
        guard delegate?.listView(self, canSelectItemAt: path) ?? true else { return }
        record(.selected(path))
        delegate?.listView(self, didSelectItemAt: path)
    }

    /// The total height of all rows and headers (rows not yet shown count as ``rowHeight``).
    public var contentHeight: Double { layout.contentHeight }

    /// The distance from the top of the content to the top of the row at `path`.
    public func offset(ofItemAt path: ItemPath) -> Double? {
        layout.flatIndex(of: path).map { layout.top(ofRow: $0) }
    }

    /// The number of rows in each section, as the list view knows them: the counts it
    /// read last. Its data source is held weakly, as `UITableView` holds its own; once the
    /// controller is gone, the counts stay until ``reloadData()`` finds no data source
    /// (and no rows).
    public var sectionCounts: [Int] { core.counts }

    /// Cells built, per reuse identifier.
    public var createdCells: [String: Int] { core.createdCells }

    /// The number of cells built so far, all reuse identifiers together.
    public var createdCellCount: Int { core.createdCells.values.reduce(0, +) }

    /// The cells on screen, top to bottom.
    public var visibleCells: [AnyObject] { visibleItemPaths.compactMap { core.cell(at: $0) } }

    /// The text of the visible ``/CellKit/TextCell``s, top to bottom (other cells show as their type name).
    public var visibleTexts: [String] {
        visibleCells.map { ($0 as? TextCell)?.text ?? String(describing: type(of: $0)) }
    }

    /// The accessibility labels of the visible ``/CellKit/TextCell``s, top to bottom: what
    /// VoiceOver would read on a UIKit list view (other cells show as their type name).
    public var visibleAccessibilityLabels: [String] {
        visibleCells.map { ($0 as? TextCell)?.accessibilityLabel ?? String(describing: type(of: $0)) }
    }

    /// Forgets the recorded events.
    public func clearLog() { log.removeAll() }

    /// Checks that the list view agrees with its data source: section and row
    /// counts, a cell for every row in the viewport and none outside it, no cell at
    /// two rows, an offset within the content (see ``contentOffset``), and no refused call UIKit raises for (a different cell on reconfigure,
    /// data changed outside a batch, a dequeue that does not answer a request, a scroll to
    /// or a selection of a missing row, a batch inside another or in a layout pass, a NaN
    /// or negative height from the delegate; see the type's discussion for what is only
    /// logged). Throws a message naming the first of them, or what disagrees.
    ///
    /// A batch that breaks UIKit's rules is not among them: it is not applied, the view reloads
    /// and then agrees with its data, so this does not throw for it. Find it in the returned
    /// ``/CellKit/BatchOutcome``'s `error` or in ``log`` as ``/CellKit/ListViewEvent/rejected(_:)``.
    public func checkConsistency() throws(HeadlessListViewInconsistency) {
        if let problem = violations.first ?? core.consistencyProblem() ?? viewportProblem() { throw HeadlessListViewInconsistency(message: problem) }
    }

    /// A visible cell outside the viewport, or a row inside it without a cell (after
    /// the last layout pass; `nil` while a reload's layout is pending).
    /// - Complexity: O(*v* log *r*): visible rows, rows.
    private func viewportProblem() -> String? {
        guard !layoutPending, !core.isUpdating else { return nil }
        let maximum = max(0, layout.contentHeight - viewportValue)
        guard contentOffset >= 0, contentOffset <= maximum else {
            return "the content offset \(contentOffset) is outside the content: it goes from 0 to \(maximum) (content height \(layout.contentHeight), viewport height \(viewportValue))"
        }
        let range = layout.rows(from: contentOffset, to: contentOffset + viewportValue)
        let paths = core.visibleItemPaths
        for path in paths where !(layout.flatIndex(of: path).map(range.contains) ?? false) {
            return "a cell is visible at section \(path.section), row \(path.item), outside the viewport (offset \(contentOffset), height \(viewportValue)), which shows \(range.count) rows"
        }
        guard paths.count == range.count else {
            let missing = range.lazy.map { self.layout.path(ofRow: $0) }.first { self.core.cell(at: $0) == nil }
            return "the viewport (offset \(contentOffset), height \(viewportValue)) shows \(range.count) rows but \(paths.count) cells are visible\(missing.map { "; section \($0.section), row \($0.item) has none" } ?? "")"
        }
        return nil
    }

    // MARK: Internals

    private func record(_ event: Event) {
        if isLoggingEnabled { log.append(event) }
    }

    private func resetLayout(known: [ItemPath: Double]) {
        let counts = core.counts
        var headers = [Double]()
        headers.reserveCapacity(counts.count)
        for section in counts.indices {
            let title = dataSource?.listView(self, titleForHeaderInSection: section)
            headers.append(title == nil ? 0 : headerHeightValue)
        }
        layout.estimate = rowHeightValue
        layout.reset(counts: counts, headerHeights: headers, known: known)
    }

    /// `offset` within the content (NaN: the top).
    private func clampedOffset(_ offset: Double) -> Double {
        guard offset > 0 else { return 0 }
        return min(offset, max(0, layout.contentHeight - viewportValue))
    }

    /// The rows in the viewport, after asking the heights of those not asked yet.
    private func visibleRange() -> Range<Int> {
        var range = layout.rows(from: contentOffset, to: contentOffset + viewportValue)
        // Asking heights moves the rows below: ask until the range holds only asked rows.
        // A round that goes on asked a row not asked before, so the loop ends; rows far
        // shorter than their estimate take a round per viewport of estimates (500 rows of
        // height 0 under an estimate of 44: 250 rounds), never a fixed number that would
        // leave rows in the viewport at their estimate, unasked.
        while true {
            let known = layout.askedRows                // asked before: not looked up again
            // Once this round is over, every row of `known` and `range` has its height, so the
            // next round looks only at the rows it brings (a height forgotten meanwhile by a
            // callback empties the mark again: Layout.forget).
            layout.markAsked(Self.union(known, range))
            var asked = false
            for flat in range where !known.contains(flat) {
                let path = layout.path(ofRow: flat)
                guard !layout.isKnown(path) else { continue }
                heightRequestCount += 1
                let height = delegate?.listView(self, heightForItemAt: path).map {
                    checked($0, "the delegate's height for section \(path.section), row \(path.item):", isViolation: true)
                }
                layout.setHeight(height ?? rowHeightValue, at: path)
                asked = true
            }
            guard asked else { break }
            range = layout.rows(from: contentOffset, to: contentOffset + viewportValue)
        }
        // Only the rows on screen stay marked: those that leave it may be forgotten (forgetIfEstimate).
        layout.markAsked(range)
        return range
    }

    /// The rows of `a` and `b` when they overlap or touch (one range); `b` otherwise.
    private static func union(_ a: Range<Int>, _ b: Range<Int>) -> Range<Int> {
        guard !a.isEmpty, a.lowerBound <= b.upperBound, b.lowerBound <= a.upperBound else { return b }
        return min(a.lowerBound, b.lowerBound)..<max(a.upperBound, b.upperBound)
    }

    /// Makes the cells of the rows in the viewport and lets go of the others, as one
    /// layout pass of the core (``/CellKit/ListViewCore/layingOut(_:)``): an apply or a
    /// reload asked for by a configure handler or display hook meanwhile runs after it,
    /// and a batch started inside it is refused.
    private func layoutVisibleRows() {
        guard !layoutPending else { return }
        core.layingOut { layOutRowsInViewport() }
    }

    private func layOutRowsInViewport() {
        contentOffset = clampedOffset(contentOffset)
        var range = visibleRange()
        // Rows measured shorter than their estimate shorten the content: the offset stays
        // within it (the end of the viewport at the last row), which brings rows above into view.
        // A round that goes on asked new heights (else the content is as clamped), so it ends.
        while true {
            let clamped = clampedOffset(contentOffset)
            guard clamped != contentOffset else { break }
            contentOffset = clamped
            range = visibleRange()
        }
        // The rows in `range` are wanted; their paths ascend with their flat index.
        // A loop, not `filter`: a closure formed here is main-actor isolated, and Swift checks
        // the executor each time `filter` calls it (15k checks, +12% instructions a scroll frame).
        var leaving: [ItemPath] = []
        for path in core.visibleItemPaths where !(layout.flatIndex(of: path).map(range.contains) ?? false) {
            leaving.append(path)
        }
        // A row that leaves the screen for the prefetch zone is announced before it ends
        // display, and one that enters the screen from the zone stops being prefetched
        // after it shows: neither is ever off screen and not prefetched, so its loads go on (UIKit
        // cancels prefetching only for rows no longer needed; ending display does not).
        if prefetchDistance > 0 {
            let near = nearRange(around: range)
            var stillNear: [ItemPath] = []
            for path in leaving where layout.flatIndex(of: path).map(near.contains) ?? false { stillNear.append(path) }
            if !stillNear.isEmpty { core.prefetch(stillNear) }
        }
        for path in leaving {
            core.endDisplay(at: path)
            layout.forgetIfEstimate(path)
        }
        for flat in range {
            let path = layout.path(ofRow: flat)
            if core.cell(at: path) == nil { core.display(at: path) }
        }
        announcePrefetch(around: range)
    }

    /// The rows within ``prefetchDistance`` of `range`, `range` included.
    private func nearRange(around range: Range<Int>) -> Range<Int> {
        // No overflow for any distance: it never needs to reach past the list.
        let distance = min(prefetchDistance, layout.rowCount)
        return max(0, range.lowerBound - distance)..<min(layout.rowCount, range.upperBound + distance)
    }

    private func announcePrefetch(around range: Range<Int>) {
        guard prefetchDistance > 0 else { return }
        var near: [ItemPath] = []
        for flat in nearRange(around: range) where !range.contains(flat) { near.append(layout.path(ofRow: flat)) }
        core.prefetch(near, replacing: true)
    }
}

/// The list view disagrees with its data source (see ``HeadlessListView/checkConsistency()``).
public struct HeadlessListViewInconsistency: Error, CustomStringConvertible {
    /// What disagrees.
    public let message: String
    public var description: String { message }
}

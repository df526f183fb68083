/// Wires a registry, presenters and dispatch handlers to a list view: the role
/// of `ICTableViewController` and `CTableViewController`, by composition.
///
/// The controller answers the list view's questions (counts, the configured
/// cell for a visible row, heights, titles, selection), shows placeholder rows
/// from the ``state``, diffs each new model against what is shown and applies
/// the changes as batches the list view accepts, and hands resources to the
/// visible cells that show them.
///
/// It is a façade over three parts with one job each: the snapshot queue
/// (submitted snapshots, diffed off the main actor and shown one at a time), the
/// row binding (presenters, registry, dispatch table and heights: how one row
/// becomes a cell) and the resource fan-out (which visible cells a resource
/// reaches, and the resource loaders).
///
/// ```swift
/// final class SKUserCell: TextCell {}
/// struct SKUser: Identifiable, Equatable, Sendable { let id: Int; var name: String; var bio: String }
///
/// @MainActor func followerList(_ followers: [SKUser], in listView: any ListView) -> ListController {
///     let controller = ListController()
///     controller.register(SKUserCell.self, for: SKUser.self)
///     controller.dispatch.configure(SKUser.self) { (cell: SKUserCell, user) in
///         cell.text = user.name
///         cell.detailText = user.bio
///     }
///     controller.dispatch.onSelect(SKUser.self) { user, _ in print("push", user.name) }
///     controller.attach(to: listView)
///     controller.apply(TableModel(followers))
///     return controller
/// }
/// ```
@MainActor
public final class ListController: ListViewDataSource, ListViewDelegate {
    /// Model type → cell.
    public var registry: CellRegistry { rows.registry }
    /// Model type → configure / select / height / resource handlers.
    public var dispatch: DispatchTable { rows.dispatch }
    /// Row heights per model type (fixed, estimated, measured), asked before
    /// presenters and the dispatch table's height handlers.
    public var rowHeights: RowHeights { rows.heights }

    /// How a row becomes a cell: presenters, registry, dispatch table, heights.
    let rows: RowBinding
    /// Resources to the visible cells that show their object; resource loaders.
    let resources: ResourceFanOut
    /// Snapshots from the bound data source (or ``submit(_:)``), diffed and shown one at a time.
    let snapshots = SnapshotQueue()
    /// The bound data source, if any (``bind(to:)``).
    public internal(set) var dataSource: (any ListDataSource)?
    /// Observers of rows about to show (``onWillDisplay(_:)``, ``onPrefetch(_:)``).
    var displayHooks: [DisplayHook] = []
    /// Whether an apply is being shown (re-entrant applies wait in `deferredTarget`).
    var isShowing = false
    var deferredTarget: TableModel?
    /// The list view whose layout pass a deferred target waits for (``ListView/performWhenIdle(_:)``).
    weak var awaitedListView: (any ListView)?

    /// The content last applied (without placeholder rows); ahead of ``displayed`` while
    /// an apply waits (one asked during a layout pass or a batch), so find a path for the
    /// list view (`reconfigureItems(at:)`) in ``displayed``.
    public private(set) var model = TableModel()
    /// The state last applied.
    public private(set) var state: ContentState = .loading
    /// What the list view shows now: the content, or placeholder rows. The paths a list
    /// view takes and gives (`reconfigureItems(at:)`, `visibleItemPaths`) are in it.
    public private(set) var displayed = TableModel() {
        didSet {
            snapshots.displayDidChange()
            displayedGeneration &+= 1
        }
    }
    /// Counts the changes of ``displayed`` (a presented row whose list has not changed since is where it was presented).
    private(set) var displayedGeneration = 0
    /// What the bound data source was doing in the snapshot shown last.
    public internal(set) var activity: ListActivity = .idle
    /// Whether more pages exist, as of the snapshot shown last.
    public internal(set) var hasMore = false
    /// Why the last next-page load failed, as of the snapshot shown last (see ``ListSnapshot/nextPageError``).
    public internal(set) var nextPageError: (any Error)?
    /// The observable state and activity of what this controller shows (see
    /// ``ListState``); updated after every apply.
    public let listState = ListState()

    /// The list view driven, if attached.
    public private(set) weak var listView: (any ListView)?

    /// Called when the error row is selected and it allows a retry.
    ///
    /// ``bind(to:)`` sets it, when it is `nil`, to load the bound data source again;
    /// letting the source go (``apply(_:state:)``) sets that one back to `nil`. With no
    /// retry to call (nothing bound and none set), the error row offers none: no
    /// ``Placeholders/retryHint``, ``ErrorPlaceholder/canRetry`` `false`, and the row
    /// does not take the selection. Setting it while the error row shows updates the row.
    /// The controller keeps it: capture the screen that owns the controller weakly.
    public var onRetry: (@MainActor () -> Void)? {
        didSet {
            retryIsBindings = false
            placeholdersDidChange()
        }
    }
    /// Whether ``onRetry`` is the one ``bind(to:)`` set (cleared when the source goes).
    var retryIsBindings = false
    /// The ``ListSnapshot/failureID`` reported last: a snapshot that publishes that failure
    /// again is not reported again.
    var reportedFailure: Int?
    /// Off while binding and unbinding change ``onRetry``: what they show next redoes the rows.
    var redisplaysPlaceholders = true
    /// Called when a load fails while content is showing (the content stays), a failed
    /// next page included. Not called for a failure with nothing to show: the error
    /// row shows that one (and a ``Diagnostic/Kind/loadFailed`` diagnostic reports it).
    /// One failure is reported once: a ``PaginatedDataSource`` page that failed while rows
    /// showed is not reported again when an edit then leaves the list with no row.
    /// The controller keeps it: capture the screen that owns the controller weakly.
    public var onError: (@MainActor (any Error) -> Void)?
    /// The placeholder rows' models; change their messages here.
    ///
    /// A change shows at once: a placeholder row on screen (loading, no results,
    /// error, load-more) is replaced by the changed one.
    public var placeholders = Placeholders() {
        didSet { placeholdersDidChange() }
    }
    /// Above this many changes, the list reloads instead of animating; `nil`: never.
    public var reloadThreshold: Int?
    /// Where duplicate ids, invalid batches and other slips are reported; setting it sets
    /// the ``registry``'s and the bound data source's handler too.
    public var diagnostics: DiagnosticHandler {
        didSet {
            rows.diagnostics = diagnostics
            (dataSource as? any DiagnosticReporting)?.diagnostics = diagnostics
        }
    }

    /// The placeholder rows' models and every text CellKit shows or announces.
    ///
    /// The defaults come from CellKit's strings table (English the base, German
    /// too), in the app's language (see ``EditingTable/deleteTitle``); set any of them
    /// to use your own text:
    ///
    /// ```swift
    /// @MainActor func brand(_ controller: ListController) {
    ///     controller.placeholders.loading.message = "Brewing…"
    ///     controller.placeholders.noResults.message = "No coffee yet"
    ///     controller.placeholders.retryHint = "Tap to try again"
    ///     controller.placeholders.unknownErrorMessage = "The coffee machine is offline."
    /// }
    /// ```
    public struct Placeholders: Sendable {
        /// Shown while the first load runs ("Loading…").
        public var loading: LoadingPlaceholder
        /// Shown when a load returned nothing ("No results").
        public var noResults: NoResultsPlaceholder
        /// Shown after the content while the next page loads, or when it failed (its texts; English):
        /// one row in a section of its own after the content's sections.
        public var loadMore = LoadMorePlaceholder()
        /// Whether placeholder rows are shown at all (a UIKit screen may use background views instead).
        public var showsRows = true
        /// Whether the error row offers a retry.
        public var errorCanRetry = true
        /// The error row's second line when it offers a retry ("Select to retry"), and the
        /// failed load-more row's (``loadMore``'s ``LoadMorePlaceholder/retryHint`` follows it).
        public var retryHint: String {
            didSet { loadMore.retryHint = retryHint }
        }
        /// The title of the retry button of an error background ("Retry").
        public var retryTitle: String
        /// The error text when the error has no user-facing description ("Couldn't load the content.").
        public var unknownErrorMessage: String
        /// The error text when the load was cancelled ("Loading was cancelled.").
        public var cancelledMessage: String
        /// Announced when content replaces a placeholder ("Content loaded"); see ``ListAnnouncement``.
        public var loadedAnnouncement: String

        /// Creates the defaults in the app's language, or in `localization` (a
        /// language code such as `"de"`); English where CellKit has no strings for it.
        /// On Linux, Foundation reports English as the user's language whatever `LANG`
        /// says: pass `localization` there to show another language.
        public init(localization: String? = nil) {
            loading = LoadingPlaceholder(message: LocalizedStrings.string(.loading, localization: localization))
            noResults = NoResultsPlaceholder(message: LocalizedStrings.string(.noResults, localization: localization))
            retryHint = LocalizedStrings.string(.retryHint, localization: localization)
            retryTitle = LocalizedStrings.string(.retry, localization: localization)
            unknownErrorMessage = LocalizedStrings.string(.unknownError, localization: localization)
            cancelledMessage = LocalizedStrings.string(.cancelled, localization: localization)
            loadedAnnouncement = LocalizedStrings.string(.loadedAnnouncement, localization: localization)
            loadMore = LoadMorePlaceholder(
                message: LocalizedStrings.string(.loadingMore, localization: localization),
                failureMessage: LocalizedStrings.string(.loadMoreFailed, localization: localization)
            )
            loadMore.retryHint = retryHint
        }
    }

    /// Creates a controller with its own dispatch table.
    ///
    /// The controller reports through `diagnostics`, and so does `registry` from then on:
    /// its ``CellRegistry/diagnostics`` is set to `diagnostics` (a registry shared by two
    /// controllers reports to the handler of the one created, or whose ``diagnostics``
    /// was set, last).
    public init(registry: CellRegistry = CellRegistry(), diagnostics: DiagnosticHandler = .standardError) {
        self.rows = RowBinding(registry: registry, diagnostics: diagnostics)
        self.resources = ResourceFanOut(rows: rows)
        self.diagnostics = diagnostics
        self.displayed = Self.displayedModel(model, state: state, placeholders: shownPlaceholders)
        rows.controller = self
    }

    /// ``placeholders`` as shown: the error row offers a retry only when there is one
    /// to call (``onRetry``, set or installed by ``bind(to:)``).
    var shownPlaceholders: Placeholders {
        var shown = placeholders
        shown.errorCanRetry = shown.errorCanRetry && onRetry != nil
        return shown
    }

    /// Shows the placeholder rows again after ``placeholders`` or ``onRetry`` changed,
    /// when a placeholder row may show (no content, or the load-more row).
    private func placeholdersDidChange() {
        guard redisplaysPlaceholders, model.isEmpty || displayed.sections.last?.id == Self.loadMoreSection else { return }
        let target = Self.displayedModel(model, state: state, placeholders: shownPlaceholders, activity: activity, nextPageError: nextPageError)
        let placeholderRows = { (model: TableModel) in model.sections.last.map { Array($0.items) } ?? [] }
        let (now, next) = (placeholderRows(displayed), placeholderRows(target))
        guard target.sections.map(\.id) != displayed.sections.map(\.id) || now.count != next.count
            || !zip(now, next).allSatisfy({ $0.id == $1.id && $0.isContentEqual(to: $1) }) else { return }
        show(target)
    }

    /// Becomes `listView`'s data source and delegate and reloads it.
    ///
    /// A list view holds its data source weakly, as `UITableView` does: keep the
    /// controller (a view controller's property, say) for as long as the list shows.
    ///
    /// A controller drives one list view: attaching another one (a table view made
    /// again when its screen reloads) replaces the one attached before. That one is
    /// let go: its ``ListView/dataSource`` and ``ListView/delegate`` are set to `nil`
    /// (unless something else took them over since) and it is reloaded, so it shows
    /// no rows and selecting on it reaches nothing (a UIKit adapter's table or
    /// collection view goes empty, its background placeholder too). There is no
    /// `detach`: attach the list view that shows, or let the controller go.
    public func attach(to listView: any ListView) {
        if let previous = self.listView {
            if previous !== listView { letGo(previous) }
        } else {
            // A list view the app let go told nothing of its rows leaving: their loads end here.
            resources.listViewGone()
        }
        self.listView = listView
        listView.dataSource = self
        listView.delegate = self
        listView.reloadData()
    }

    /// Stops driving `previous` (another list view is attached): it shows nothing from now on.
    private func letGo(_ previous: any ListView) {
        guard previous.dataSource === self else { return }  // taken over by someone else since
        previous.dataSource = nil
        previous.reloadData()  // its rows end display while it still tells us (their loads are cancelled)
        if previous.delegate === self { previous.delegate = nil }
    }

    // MARK: Registering (conveniences over the registry and the dispatch table)

    /// Maps `Model` to `Cell` (Instant Cocoa's `registerCellClass:forModelClass:`).
    ///
    /// Register before rows show: a registration reaches the rows configured from then
    /// on (rows coming on screen, rows updated), not the cells already on screen, and
    /// nothing is reloaded (unlike ``addPresenter(_:style:onEvent:)``, which reloads).
    /// To redo the rows on screen after registering, call the list view's
    /// ``ListView/reloadData()``.
    ///
    /// `configure` and a ``DispatchTable/configure(_:_:)`` handler for the same type both
    /// run, `configure` first: the registration sets the cell up, the dispatch table's
    /// handler (Instant Cocoa's `-configureCell:with…:`) adds to it. Without `configure`, a
    /// placeholder's cell keeps the built-in configure, and a cell that nothing sets up is
    /// reported (see ``CellRegistry/register(_:for:configure:)``).
    public func register<Model, Cell: ListCell>(
        _ cell: Cell.Type, for model: Model.Type, style: CellStyle = .default,
        configure: (@MainActor (Cell, Model) -> Void)? = nil
    ) {
        registry.register(cell, for: model, style: style, configure: configure)
    }

    /// Handles selection of rows showing a `Model`. A second handler for a model type
    /// replaces the first, as a second ``register(_:for:style:configure:)`` does.
    ///
    /// A presenter for the model's type (``addPresenter(_:style:onEvent:)``) takes the
    /// selection: its ``Presenter/selected(_:style:)`` answers it (an event, or none) and
    /// this handler is not called for those rows. Use one or the other for a type.
    public func onSelect<Model>(_ model: Model.Type, _ handler: @escaping @MainActor (Model, ItemPath) -> Void) {
        dispatch.onSelect(model, handler)
    }

    /// The height of rows showing a `Model`.
    ///
    /// Like every height the controller gives a list view, it is clamped to
    /// 0 through ``RowHeights/maximumHeight`` (NaN and negative: 0), and the first bad one of
    /// each model type is reported as an ``Diagnostic/Kind/invalidHeight`` diagnostic.
    public func height<Model>(for model: Model.Type, _ handler: @escaping @MainActor (Model) -> Double) {
        dispatch.height(for: model, handler)
    }

    /// Presents models of `P.Model` with `presenter` in `style` (Coffee's
    /// `addModelPresenterForClass:withStyle:withPresenter:`); its events go to `onEvent`.
    /// A presenter takes precedence over the registry for its model type, and over the
    /// dispatch table for selection: a tap on its rows goes to its
    /// ``Presenter/selected(_:style:)`` (an ``onSelect(_:_:)`` handler for the same type is
    /// not called, even when `selected` returns no event). Adding one reloads the list view.
    ///
    /// A model type has one presenter: adding another for the same `P.Model`, in any style,
    /// replaces it. There is no removing one: a model type with a presenter stays presented
    /// for the controller's life (a screen that switches between a presenter and a
    /// registration for one type uses two controllers). Like a registration, a presenter also
    /// serves models it does not name exactly: subclasses of a class `P.Model` and, when
    /// `P.Model` is a protocol type, the types that conform to it (the closest match wins, as
    /// in ``CellRegistry``). Presenters are asked before the registry, so a presenter that
    /// serves a model through its superclass or a protocol wins over a registration of the
    /// model's exact type: with a presenter for `Person`, `Admin` rows are presented by it,
    /// whatever `register(_:for: Admin.self)` says. The exact type comes first among
    /// presenters and among registrations, not between them.
    /// A presenter whose ``Presenter/cellSource(for:)`` builds another cell type than its
    /// `Cell` presents nothing in those rows; the first one is reported as a
    /// ``Diagnostic/Kind/cellTypeMismatch`` diagnostic naming the presenter, the model type, the
    /// cell type it expects, the one it got and the row, once per presenter, model and cell type.
    ///
    /// The controller keeps `onEvent`, and the cells it presented keep it through their
    /// ``PresentationContext``: capture the screen that owns the controller weakly
    /// (`[weak self]`), as in ``onError``, ``onRetry`` and every handler the controller
    /// keeps. A strong capture keeps the screen and its controller alive for good, and an
    /// event that a kept cell emits after the controller is gone (a tap on a cell of a list
    /// view the app kept) still reaches `onEvent`, which then finds the screen gone.
    public func addPresenter<P: Presenter>(
        _ presenter: P, style: CellStyle = .default,
        onEvent: @escaping @MainActor (P.Event) -> Void = { _ in }
    ) {
        rows.addPresenter(presenter, style: style, onEvent: onEvent)
        listView?.reloadData()
    }

    // MARK: Applying content

    /// Shows `model` in `state`: diffs it against what is shown and applies the
    /// changes to the list view as batches it accepts (or reloads, past
    /// ``reloadThreshold`` or when a batch is refused).
    ///
    /// The app's last call wins: called while a data source is bound
    /// (``bind(to:)``), it unbinds that source first (a documented way to show something else, so no
    /// diagnostic).
    /// The source's snapshots, the one waiting or being diffed included, no longer
    /// show, and it no longer hears which rows show (so a ``PaginatedDataSource``
    /// fetches no page for the rows of this model). Bind it again to show its
    /// snapshots again.
    ///
    /// Called from a configure handler, a presenter or a display hook
    /// (``onWillDisplay(_:)``, ``onPrefetch(_:)``), it never runs inside what is under way:
    /// during an apply it runs once that apply is over, and while the list view lays
    /// out rows (a scroll, a resize, a scroll to a row: ``ListView/isUpdating``), once that
    /// layout pass is over (``ListView/performWhenIdle(_:)``); the newest model asked for
    /// meanwhile wins. ``model`` and ``state`` change at once, ``displayed`` then.
    ///
    /// A failed load with nothing to show (`state` is `.failed` and `model` is
    /// empty) shows the error row and is reported as a ``Diagnostic/Kind/loadFailed``
    /// diagnostic with the developer-facing `"\(error)"` text; ``onError`` is not called, as
    /// the row shows the failure. A failure while content shows keeps the content,
    /// calls ``onError`` and is reported too.
    ///
    /// ```swift
    /// struct Photo: Identifiable, Equatable, Sendable { let id: Int }
    ///
    /// @MainActor func showDetail(_ photo: Photo, in controller: ListController, from source: SimpleDataSource) async {
    ///     controller.bind(to: source)
    ///     await controller.settle()
    ///     controller.apply(TableModel([photo]))        // unbinds `source`: its snapshots no longer show
    ///     source.set([Photo(id: 7)])
    ///     await controller.settle()
    ///     assert(controller.model.itemCount == 1 && controller.dataSource == nil)
    ///     controller.bind(to: source)                  // shows the source again
    /// }
    /// ```
    public func apply(_ model: TableModel, state: ContentState = .loaded) {
        unbindForApply()
        record(model, state: state, origin: "apply(_:state:)")
        show(Self.displayedModel(model, state: state, placeholders: shownPlaceholders))
    }

    /// Makes `model` and `state` current, reporting a failure (as a diagnostic naming
    /// `origin`, unless the list shows it in its retry row; to ``onError`` when it keeps content).
    /// A failure named `failureID` is reported once (see ``ListSnapshot/failureID``); the
    /// diagnostic names `failedPage`, the next page that failed, when given.
    func record(
        _ model: TableModel, state: ContentState, origin: String, shownInRow: Bool = false,
        failureID: Int? = nil, failedPage: Int? = nil
    ) {
        if case .failed(let error) = state, failureID == nil || failureID != reportedFailure {
            if failureID != nil { reportedFailure = failureID }
            let origin = naming(origin, failedWith: error)
            let load = failedPage.map { "load of page \($0)" } ?? "load"
            if !model.isEmpty {
                onError?(error)
                if !shownInRow {
                    diagnostics(Diagnostic(.loadFailed, "\(origin): \(load) failed while content was showing; keeping \(model.itemCount) rows: \(error)"))
                }
            } else if !(error is CancellationError) {
                let row = shownInRow ? "the failed load-more row" : "the error row"
                diagnostics(Diagnostic(.loadFailed, "\(origin): \(load) failed with no content to show; showing \(row): \(error)"))
            }
        }
        self.model = model
        self.state = state
    }

    /// `origin`, followed by the child that failed with `error` when it names a bound
    /// ``MultiDataSource``: "MultiDataSource (child 1: RemoteDataSource<Row>)".
    private func naming(_ origin: String, failedWith error: any Error) -> String {
        guard let multi = dataSource as? MultiDataSource, origin == "\(type(of: multi))",
              let child = multi.failedChild(with: error) else { return origin }
        return "\(origin) (\(child))"
    }

    /// Changes only the state, keeping the content; as ``apply(_:state:)``, it
    /// unbinds a bound data source.
    public func setState(_ state: ContentState) { apply(model, state: state) }

    /// What the list shows for `model`: placeholder rows when it is empty, else the
    /// content followed by the ``LoadMorePlaceholder`` row while a next page loads or after it failed.
    /// After a failed next page, an empty model shows that row alone (a paged list that
    /// local edits emptied, more pages left): its retry asks for the page again.
    static func displayedModel(
        _ model: TableModel, state: ContentState, placeholders: Placeholders,
        activity: ListActivity = .idle, nextPageError: (any Error)? = nil
    ) -> TableModel {
        guard placeholders.showsRows else { return model }
        guard model.isEmpty && nextPageError == nil else {
            var more: LoadMorePlaceholder
            if let nextPageError {
                more = placeholders.loadMore.failed(with: nextPageError)
            } else if activity == .loadingMore {
                more = placeholders.loadMore
            } else {
                return model
            }
            more.retryHint = placeholders.retryHint
            var shown = model
            if model.isEmpty { shown.sections = [] }
            shown.sections.append(TableSection(id: Self.loadMoreSection, items: [ListItem(more)]))
            return shown
        }
        let row: ListItem
        switch state {
        case .loading: row = ListItem(placeholders.loading)
        case .loaded, .empty: row = ListItem(placeholders.noResults)
        case .failed(let error): row = ListItem(ErrorPlaceholder(error: error, canRetry: placeholders.errorCanRetry, placeholders: placeholders))
        }
        return TableModel(sections: [TableSection(id: .placeholder, items: [row])], sectionIndexStyle: model.sectionIndexStyle)
    }

    /// The section of the ``LoadMorePlaceholder`` row.
    static let loadMoreSection: SectionID = "cellkit.load-more"

    /// Replaces what is shown with `target`, through the diff. Called while an
    /// apply is under way (a display hook or a configure handler that applies),
    /// it runs once that apply is over; called while the list view lays out rows
    /// (a scroll, a resize: ``ListView/isUpdating``), once that pass is over: the list
    /// view is never asked for a batch inside another one, nor while it makes cells.
    func show(_ target: TableModel) {
        guard !defers(target) else { return }
        let garbage = show(target, staged: stagedChanges(from: displayed, to: target))
        garbage?.releaseInBackground()
    }

    /// Whether `target` must wait (an apply under way, or the list view in a batch or
    /// a layout pass); it then becomes the deferred target, and the newest one wins.
    /// - Complexity: O(1): one flag per apply.
    private func defers(_ target: TableModel) -> Bool {
        if let listView, listView.isUpdating {
            // Asked from a hook in a batch or a layout pass, this controller's own apply
            // included: it waits its turn among the work the list view holds for the end
            // of the pass, so a scroll the hook asks after it runs after it.
            deferredTarget = target
            if awaitedListView !== listView {
                awaitedListView = listView
                listView.performWhenIdle { [weak self, weak listView] in self?.listViewBecameIdle(listView) }
            }
            return true
        }
        if isShowing {
            deferredTarget = target
            return true
        }
        // Shown now: an older target waiting for a layout pass must not come after it.
        deferredTarget = nil
        return false
    }

    /// Whether a deferred target waits for the list view's turn (``listViewBecameIdle(_:)``).
    private var awaitsListView: Bool { awaitedListView != nil && awaitedListView === listView }

    /// The layout pass of `listView` an apply waited for is over: show the newest target asked for.
    private func listViewBecameIdle(_ listView: (any ListView)?) {
        if awaitedListView === listView { awaitedListView = nil }
        guard !isShowing, let target = deferredTarget else { return }
        deferredTarget = nil
        show(target)
    }

    /// Applies `staged`, computed from ``displayed`` to `target`, stage by stage (deletes
    /// then inserts with no move between them in one batch: see `batches(of:)`).
    ///
    /// The list view validates each stage once, against the counts it cached;
    /// ``displayed`` only ever holds what the list view was handed. Freeing a
    /// snapshot's rows is O(rows): the model shown before and the stages' data are
    /// returned in a ``Garbage`` box, which the caller releases off the main actor
    /// once it holds no reference of its own (`nil` when the apply was deferred).
    func show(_ target: TableModel, staged: TableChangeset) -> Garbage? {
        guard !defers(target) else { return nil }
        guard let listView else { return showAsOnePiece(target, staged: staged) }
        // One piece of the list view's work (run at once: it is not updating): what a hook
        // leaves waiting during this apply's batches (an apply, a scroll) runs when it is over,
        // in the order the hook asked.
        var garbage: Garbage?
        listView.performWhenIdle { garbage = self.showAsOnePiece(target, staged: staged) }
        return garbage
    }

    private func showAsOnePiece(_ target: TableModel, staged: TableChangeset) -> Garbage {
        isShowing = true
        let previous = displayed
        showNow(target, staged: staged)
        // Applies asked for while this one ran, not from a hook (those wait their turn in
        // the list view): the newest wins, diffed from what is shown now.
        while !awaitsListView, let next = deferredTarget {
            deferredTarget = nil
            showNow(next, staged: stagedChanges(from: displayed, to: next))
        }
        isShowing = false
        return Garbage(previous, staged)
    }

    private func showNow(_ target: TableModel, staged: TableChangeset) {
        defer {
            listView?.contentStateDidChange(state)
            didShow()
        }
        // A duplicate is reported once, in the snapshot where it appears: not again while
        // later snapshots keep it (the old side is the snapshot shown, reported when it came).
        if !staged.duplicates.isEmpty {
            let known = Set(staged.duplicates.lazy.filter { $0.side == .old }.map { [$0.kind.rawValue, $0.identifier] })
            for duplicate in staged.duplicates where duplicate.side == .new && !known.contains([duplicate.kind.rawValue, duplicate.identifier]) {
                diagnostics(Diagnostic(.duplicateIdentifier, duplicate.description))
            }
        }
        guard let listView else {
            displayed = target
            // The list view is gone (or none was attached): no row of it can take a resource.
            resources.listViewGone()
            return
        }
        resources.holdingCancellations { showStages(staged, target: target, on: listView) }
    }

    /// Shows `target` on `listView` through the stages of `staged`, or a reload.
    private func showStages(_ staged: TableChangeset, target: TableModel, on listView: any ListView) {
        if staged.isReload {
            displayed = target
            listView.reloadData()
            return
        }
        let stages = Self.batches(of: staged)
        for (index, stage) in stages.enumerated() {
            let after = stage.data
            let outcome = listView.performBatchUpdates(stage.changeset) { self.displayed = after }
            switch outcome {
            case .animated:
                continue
            case .reloaded(let reason):
                switch reason {
                case .invalid, .dataChangedOutsideBatch:
                    diagnostics(Diagnostic(.invalidBatchUpdate, "\(reason); reloading instead"))
                default: break
                }
            case .refused(let message):
                diagnostics(Diagnostic(.other, "\(message); reloading instead"))
            }
            // Not animated: show the target at once. A reload on the last stage already shows it.
            displayed = target
            if case .reloaded = outcome, index == stages.count - 1 { return }
            listView.reloadData()
            return
        }
        displayed = target
    }

    /// The batches that show `staged`: its stages, except that deletes and inserts with no
    /// move among them go in one batch, as `UITableView` takes them (deletes and reloads at
    /// the old paths, inserts at the new ones). A row deleted where rows are inserted (the
    /// load-more row a page replaces) then never shows a list without either: a selection
    /// on it moves to the row now at its place, and no row the page pushes down comes on
    /// screen in between.
    private static func batches(of staged: TableChangeset) -> [Stage<TableModel>] {
        var stages = staged.stages
        guard stages.count >= 2 else { return stages }
        let first = stages[0].changeset, second = stages[1].changeset
        // Stage 1 holds deletes and updates only, stage 2 inserts and moves (sources after
        // stage 1): without moves, stage 2's inserts are at the new paths already.
        guard first.sectionInserts.isEmpty, first.sectionMoves.isEmpty, first.itemInserts.isEmpty, first.itemMoves.isEmpty,
              first.sectionUpdates.isEmpty, second.sectionMoves.isEmpty, second.itemMoves.isEmpty,
              second.sectionDeletes.isEmpty, second.itemDeletes.isEmpty, second.itemUpdates.isEmpty,
              second.sectionUpdates.isEmpty else { return stages }
        var merged = first
        merged.sectionInserts = second.sectionInserts
        merged.itemInserts = second.itemInserts
        stages[1] = Stage(changeset: merged, data: stages[1].data)
        stages.removeFirst()
        return stages
    }

    /// Snapshots replaced on screen, to be freed off the main actor: freeing a snapshot's
    /// rows is O(rows). The caller lets go of its own references first, then calls
    /// ``releaseInBackground()``; the task empties the box itself, so the rows are freed
    /// on its thread.
    final class Garbage: @unchecked Sendable {
        // Written on the main actor before the task starts, emptied by the task.
        private var contents: (TableModel, TableChangeset)?
        init(_ model: TableModel, _ staged: TableChangeset) { contents = (model, staged) }

        /// Frees the contents on a background task.
        func releaseInBackground() {
            Task.detached(priority: .background) { self.contents = nil }
        }
    }

    // MARK: Resources

    /// Hands a resource of `object` to the visible cells that show it or refer to
    /// it (Coffee's `provideResourceToVisibleCells:updatedKey:`). No other cell
    /// is touched and nothing is reloaded. Returns the paths updated.
    ///
    /// A cell takes the resource through the presenter of its model type
    /// (``addPresenter(_:style:onEvent:)``) or the dispatch table's
    /// ``DispatchTable/onResource(_:_:)`` handler; a row whose model type has
    /// neither is not updated (and its path is not returned), though the resource
    /// is still kept for it as below.
    ///
    /// A row shows `object` when its model's own identity (``ItemID``: its type and
    /// `id`, or its value when it is only `Hashable`) is the one `object` has, so an
    /// equal fresh copy finds the row too, and a subclass instance finds its row however
    /// its array was typed. That is every row showing the object: the same user in two
    /// sections (a duplicate identity, reported as a ``Diagnostic/Kind/duplicateIdentifier``
    /// diagnostic, as when two children of a ``MultiDataSource`` both list it) and rows
    /// made with an explicit id (``ListItem/init(_:id:)``) are all updated, as Coffee
    /// updated every visible cell whose object equals the updated one. A row also
    /// gets it when it holds that very object (classes), or when its model adopts
    /// ``ResourceReferencing`` and refers to `object`. Each cell is checked again just
    /// before it is handed the resource: when a handler changed the list during the
    /// fan-out (applied a model, scrolled), a cell that no longer shows the object gets nothing.
    ///
    /// ```swift
    /// final class UserCell: TextCell { var image: String? }
    /// struct User: Identifiable, Equatable, Sendable { let id: Int; var name: String }
    ///
    /// @MainActor func likersAndSuggestions(_ controller: ListController, _ listView: HeadlessListView) {
    ///     controller.register(UserCell.self, for: User.self) { cell, user in cell.text = user.name }
    ///     controller.dispatch.onResource(User.self) { (cell: UserCell, _, update) in cell.image = update.value as? String }
    ///     controller.attach(to: listView)
    ///     let ada = User(id: 1, name: "Ada")
    ///     controller.apply(TableModel(sections: [[ada, User(id: 2, name: "Bob")], [ada]]))
    ///     let updated = controller.provideResource(ada, key: "image", value: "ada.png")
    ///     assert(updated == [ItemPath(item: 0, section: 0), ItemPath(item: 0, section: 1)])
    /// }
    /// ```
    ///
    /// The last resource per object identity and key is kept (for the 256 identities
    /// provided last): every row of `object` that is off screen presents it when it
    /// shows, and a reconfigured row gets it again after its configure handler. A reconfigure
    /// asked from inside the handler of that very delivery (a row made taller) gets it again
    /// once; one asked from that second delivery gets nothing, so a handler that always
    /// reconfigures its row does not call itself forever.
    ///
    /// The last value given wins: a ``ResourceLoader`` with `key` whose model type `object`
    /// is takes `value` as its cached result (another type, or `nil`, drops the cached one),
    /// so the loader never hands a row a value given before this one (a load under way
    /// goes on: its result comes later and wins in turn). ``ResourceLoader/removeAllCachedValues()`` forgets the kept
    /// resources of its key and model type.
    @discardableResult
    public func provideResource(_ object: any Sendable, key: ResourceKey, value: (any Sendable)? = nil) -> [ItemPath] {
        let id = ItemID(anyModel: object)
        if let id { resources.appProvided(object, id: id, key: key, value: value) }
        return deliverResource(of: object, objectID: id, key: key, value: value)
    }

    /// Hands a resource of `object` to the visible rows showing the object with identity
    /// `objectID` (and the rows that hold or refer to `object`), or to `cell` alone when
    /// given; a ``ResourceLoader`` knows the object's identity.
    @discardableResult
    func deliverResource(of object: any Sendable, objectID: ItemID?, key: ResourceKey, value: (any Sendable)?, only cell: AnyObject? = nil) -> [ItemPath] {
        guard let listView else { return [] }
        return resources.provide(ResourceUpdate(object: object, key: key, value: value), id: objectID, displayed: { [unowned self] in self.displayed }, listView: listView, only: cell)
    }

    /// Where the row with identity `id`, presented in `cell` at `path` when the list
    /// was at `generation`, is now (``PresentationContext/path``): where `cell` shows a
    /// row with that identity; else `path` while the list has not changed since; else
    /// the row with that identity nearest to `path` (the only one, unless the object
    /// shows in several rows); `path` when none is left.
    /// - Complexity: O(visible rows) while the cell shows the row or the list is unchanged; O(n) otherwise.
    func currentPath(ofRow id: ItemID, generation: Int, shownIn cell: AnyObject?, presentedAt path: ItemPath) -> ItemPath {
        if let cell, let listView {
            for visible in listView.visibleItemPaths where listView.cell(at: visible) === cell {
                if displayed.item(at: visible)?.id == id { return visible }
                break
            }
        }
        if generation == displayedGeneration { return path }
        return displayed.indexPath(of: id, nearest: path) ?? path
    }

    // MARK: ListViewDataSource

    public func numberOfSections(in listView: any ListView) -> Int { displayed.sections.count }

    /// The ``ItemID`` of the row at `path` as shown (placeholder rows included).
    public func listView(_ listView: any ListView, identityOfItemAt path: ItemPath) -> ItemID? { displayed.item(at: path)?.id }

    public func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int {
        displayed.itemCount(inSection: section)
    }

    public func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject {
        guard let item = displayed.item(at: path) else {
            diagnostics(Diagnostic(.other, "list view asked for the cell at section \(path.section), row \(path.item), but the list has \(displayed.sections.count) sections\(displayed.sections.indices.contains(path.section) ? " and \(displayed.sections[path.section].items.count) rows in that section" : ""); showing an empty default cell"))
            return rows.defaultCell(in: listView, at: path)
        }
        // A row already on screen is being reconfigured: its configure reset the cell, so
        // the resources cached for it are handed to it again (UIKit contract 4).
        let isReconfigure = listView.cell(at: path) != nil
        let cell = rows.cell(for: item.model, id: item.id, in: listView, at: path)
        if isReconfigure, let content = contentItem(at: path) { resources.reconfigured(content, cell: cell) }
        return cell
    }

    public func listView(_ listView: any ListView, titleForHeaderInSection section: Int) -> String? {
        displayed.header(ofSection: section)
    }

    public func listView(_ listView: any ListView, titleForFooterInSection section: Int) -> String? {
        displayed.footer(ofSection: section)
    }

    public func sectionIndexTitles(for listView: any ListView) -> [String] { displayed.sectionIndexTitles }

    public func listView(_ listView: any ListView, sectionForSectionIndexTitle title: String, at index: Int) -> Int {
        displayed.section(forSectionIndexTitle: title, at: index)
    }

    // MARK: ListViewDelegate

    public func listView(_ listView: any ListView, heightForItemAt path: ItemPath) -> Double? {
        guard let item = displayed.item(at: path), let height = rows.height(of: item, at: path) else { return nil }
        // An estimate of 0, a negative or a NaN one is no estimate (UITableView turns estimation
        // off for 0): the list view's own is used, and it is reported once, as an estimate (not
        // also as a height clamped to 0, which is not what is used).
        if !(height > 0), rowHeights.isEstimate(for: item) {
            rowHeights.reportUnusableEstimate(height, of: item.model, at: path, diagnostics: diagnostics)
            return nil
        }
        return rowHeights.checked(height, of: item.model, at: path, diagnostics: diagnostics)
    }

    public func listView(_ listView: any ListView, needsMeasuringItemAt path: ItemPath) -> Bool {
        displayed.item(at: path).map { rowHeights.isEstimate(for: $0) } ?? false
    }

    public func listView(_ listView: any ListView, didMeasureHeight height: Double, forItemAt path: ItemPath) {
        guard let item = displayed.item(at: path) else { return }
        rowHeights.didMeasure(item, height: height)
    }

    /// Whether the row at `path` takes the selection: every row except the placeholder
    /// rows that do nothing when selected (loading, no results, an error row that
    /// cannot retry), unless a presenter or an ``onSelect(_:_:)`` handler registered
    /// for the placeholder's own type takes them. The load-more row takes it, loading
    /// or failed: it is the end of a paged list, where a terminal user moves to load more.
    public func listView(_ listView: any ListView, canSelectItemAt path: ItemPath) -> Bool {
        guard let model = displayed.item(at: path)?.model else { return false }
        return rows.isSelectable(model)
    }

    public func listView(_ listView: any ListView, didSelectItemAt path: ItemPath) {
        guard let model = displayed.item(at: path)?.model else { return }
        if !rows.select(model, at: path) {
            if let error = model as? ErrorPlaceholder, error.canRetry {
                onRetry?()
            } else if let more = model as? LoadMorePlaceholder, more.isFailed {
                dataSource?.loadNextPage()
            }
        }
    }
}

extension TableModel {
    init(_ sections: [DiffSection<SectionID, SectionHeader, ListItem>], index: SectionIndexStyle) {
        self.init(
            sections: sections.map { TableSection(id: $0.id, header: $0.content.header, footer: $0.content.footer, items: $0.elements) },
            sectionIndexStyle: index
        )
    }

    var diffSections: [DiffSection<SectionID, SectionHeader, ListItem>] {
        sections.map { DiffSection(id: $0.id, content: SectionHeader(header: $0.header, footer: $0.footer), elements: $0.rows.listItems) }
    }
}

/// A section's titles, compared by the diff to report section updates.
@usableFromInline
struct SectionHeader: Equatable, Sendable {
    @usableFromInline var header: String?
    @usableFromInline var footer: String?

    @inlinable init(header: String?, footer: String?) {
        self.header = header
        self.footer = footer
    }
}

#if canImport(UIKit)
import UIKit
import CellKit

/// What ``TableViewAdapter`` and ``CollectionViewAdapter`` share: the UIKit glue
/// over a ``/CellKit/ListViewCore`` (the core decides, validates once, follows the
/// visible cells; this class only replays), cell hosting, display and prefetch
/// forwarding, the refresh control, the background placeholder, Dynamic Type,
/// and forwarding of the delegate calls CellKit does not handle to
/// ``forwardingDelegate``.
///
/// Not used directly: make a ``TableViewAdapter`` or a ``CollectionViewAdapter``.
@MainActor
public class ListViewAdapter: NSObject, ListViewCoreOwner, ListViewBackend {
    /// Who answers counts and cells (usually a ``/CellKit/ListController``); held weakly.
    public weak var dataSource: (any ListViewDataSource)?
    /// Who hears about heights, selection, display and prefetching; held weakly.
    public weak var delegate: (any ListViewDelegate)?
    /// The app's own `UITableViewDelegate` / `UICollectionViewDelegate` (or data
    /// source): every call CellKit does not handle (scrolling, highlighting beyond
    /// ``/CellKit/ListViewDelegate/listView(_:canSelectItemAt:)``,
    /// context menus, header views, ...) goes to it. Held weakly.
    public weak var forwardingDelegate: AnyObject? {
        get { forwardTarget }
        set {
            forwardTarget = newValue
            // UIKit caches which optional methods its delegate answers: set it again.
            let delegate = scrollView.delegate
            scrollView.delegate = nil
            scrollView.delegate = delegate
        }
    }
    /// Read by UIKit's `responds(to:)` / `forwardingTarget(for:)`, which are not main-actor isolated
    /// (UIKit calls them on the main thread; only the setter above writes it).
    nonisolated(unsafe) private weak var forwardTarget: AnyObject?
    /// The list-view logic this adapter replays.
    public private(set) lazy var core: ListViewCore = ListViewCore(listView: self, backend: self, ownership: .platform)

    /// Above this many changes in one batch, the view reloads instead of animating; `nil`: never.
    public var reloadThreshold: Int? {
        get { core.reloadThreshold }
        set { core.reloadThreshold = newValue }
    }
    /// Whether the first visible row stays put when rows are inserted or removed above it.
    public var keepsFirstVisibleRow: Bool {
        get { core.keepsFirstVisibleRowInPlace }
        set { core.keepsFirstVisibleRowInPlace = newValue }
    }
    /// Whether a selected row is deselected right away (a tap, not a persistent selection).
    ///
    /// With `false`, the selection is UIKit's: it follows its row through animated batches
    /// and goes with a deleted row, and a reload clears it, as `reloadData()` does on UIKit:
    /// the adapter's ``reloadData()`` and every batch the core replaces by a reload (outside a
    /// window, over ``reloadThreshold``, an invalid batch, data changed outside a batch, a
    /// Dynamic Type change). CellKit keeps no selection of its own on UIKit; an app that
    /// keeps one selects its row again after such a reload (`selectRow(at:animated:scrollPosition:)`,
    /// which tells the delegate nothing).
    public var deselectsAfterSelection = true
    /// Delete, reorder and swipe actions per model type.
    public let editing = EditingTable()
    /// Draws platform-neutral cells (the default cell, the placeholder rows) into platform cells.
    public var renderer = HostedCellRenderer.standard
    /// Builds the background view for a ``/CellKit/BackgroundPlaceholder`` (when placeholders are not rows).
    public var backgroundViewProvider: @MainActor (BackgroundPlaceholder, _ retry: (@MainActor () -> Void)?) -> UIView = {
        PlaceholderBackgroundView(placeholder: $0, retry: $1)
    }
    /// Runs when the user pulls to refresh; the spinner stops when it returns, and
    /// follows the data source's activity (refreshing / idle). `nil`: CellKit adds
    /// no refresh control (one the app installed itself is never removed).
    public var refreshAction: (@MainActor () async -> Void)? {
        get { refresh.action }
        set {
            refresh.action = newValue
            refresh.install(on: scrollView)
        }
    }
    /// The last decision taken for a batch, for diagnostics and tests.
    public var lastPlan: BatchPlan? { core.lastPlan }

    /// What the adapter does with its view.
    enum Role {
        /// It drives the view: data source, delegate, batches. It keeps the view alive.
        case drives
        /// It only hands out the view's cells to a data source of the app's own (Nimbus
        /// level 1: `CellRegistry.cell(for:in:at:)` with a `UITableView` or `UICollectionView`); the view keeps it, so it holds the view weakly.
        case vendsCells
    }
    let role: Role
    private let drivenView: UIScrollView?
    private weak var vendedView: UIScrollView?
    /// The view: only a cell vendor's view can be gone, and then nothing reaches the vendor any more.
    var scrollView: UIScrollView {
        guard let view = drivenView ?? vendedView else { preconditionFailure("CellKit: the adapter's view is gone") }
        return view
    }
    var hosts = HostIndex()
    private var registered: Set<String> = []
    /// The identifiers template cells are dequeued by (a nib cell's own, once one was built).
    var templateIdentifiers = TemplateReuseIdentifiers()
    /// View types the platform refused as cells, reported once each.
    private var refusedCellTypes: Set<ObjectIdentifier> = []
    private let refresh = RefreshBridge()

    init(scrollView: UIScrollView, role: Role) {
        self.role = role
        drivenView = role == .drives ? scrollView : nil
        vendedView = scrollView
        super.init()
        guard role == .drives else { return }
        keepsFirstVisibleRow = true
        NotificationCenter.default.addObserver(self, selector: #selector(contentSizeCategoryDidChange),
                                               name: UIContentSizeCategory.didChangeNotification, object: nil)
    }

    /// The adapter that hands out `view`'s cells for a data source of the app's own,
    /// made by `make` on first use and kept by the view (an associated object).
    static func cellVendor<Adapter: ListViewAdapter>(of view: UIScrollView, make: () -> Adapter) -> Adapter {
        if let vendor = objc_getAssociatedObject(view, cellVendorKey) as? Adapter { return vendor }
        let vendor = make()
        objc_setAssociatedObject(view, cellVendorKey, vendor, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        return vendor
    }

    // MARK: Platform hooks (each adapter overrides them)

    func platformRegister(_ source: CellSource) {}
    func platformDequeue(_ source: CellSource, at indexPath: IndexPath) -> UIView { UIView() }
    func platformBatch(_ updates: () -> Void) {}
    func platformReplay(_ batch: Changeset) {}
    func platformReconfigure(_ indexPaths: [IndexPath]) {}
    /// Has the view ask the heights of the rows at `indexPaths` again and lay out.
    func platformMeasureAgain(_ indexPaths: [IndexPath]) {}
    func platformReload() {}
    func platformFrame(at indexPath: IndexPath) -> CGRect? { nil }
    func platformCell(at indexPath: IndexPath) -> UIView? { nil }
    func platformScroll(to indexPath: IndexPath, animated: Bool) {}
    /// Whether the platform scrolls to the top of a section given a row of `NSNotFound`.
    var platformScrollsToSectionTops: Bool { false }
    /// Whether the platform takes `view` as the cell of a row as it is.
    func platformAccepts(_ view: UIView) -> Bool { false }

    // MARK: ListView

    public func register(_ source: CellSource) {
        core.register(source)
        if registered.insert(source.reuseIdentifier).inserted { platformRegister(source) }
    }

    @discardableResult
    public func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) -> BatchOutcome {
        let outcome = core.performBatchUpdates(changeset, updateData: updateData)
        // No reload here, even when a collection view's index titles change: UIKit must not
        // reload in the same turn as an animated batch. A collection view's index may therefore
        // stay stale after a batch (when UIKit reads `indexTitles(for:)` again is assumed, not
        // seen on a device); the app can call `reloadData()`. See CellKitUIKit.md, contract 10.
        updateBackground()
        return outcome
    }

    public func cellDidChange(at path: ItemPath, reason: CellChangeReason) {
        guard let content = core.cell(at: path), let host = hosts.host(of: content) else { return }
        renderer.render(content, host)
    }

    /// Updates the background placeholder and the refresh control after every apply.
    public func contentStateDidChange(_ state: ContentState) {
        updateBackground()
        if let controller = dataSource as? ListController { refresh.reflect(controller.activity, on: scrollView) }
    }

    /// Shows the controller's background placeholder (or none) behind the rows.
    ///
    /// It runs after every batch and apply: while the placeholder stays the same,
    /// the view showing it stays (a new one would restart its spinner and move
    /// VoiceOver's focus); with no placeholder, only CellKit's own view is taken
    /// away, and a `backgroundView` the app set itself stays.
    public func updateBackground() {
        guard let controller = dataSource as? ListController else { return }
        let shown = shownBackground.flatMap { $0 === currentBackground ? $0 : nil }
        guard let placeholder = controller.backgroundPlaceholder else {
            if shown != nil { setBackground(nil) }
            return
        }
        let offersRetry = controller.onRetry != nil
        if shown != nil, placeholder == shownPlaceholder, offersRetry == shownOffersRetry { return }
        // The kept view's retry runs the controller's retry of the moment it is tapped.
        var retry: (@MainActor () -> Void)?
        if offersRetry { retry = { [weak controller] in controller?.onRetry?() } }
        setBackground(backgroundViewProvider(placeholder, retry), for: placeholder, offersRetry: offersRetry)
    }

    /// The background placeholder view shown, if any, what it shows, and whether it was given a retry.
    private weak var shownBackground: UIView?
    private var shownPlaceholder: BackgroundPlaceholder?
    private var shownOffersRetry = false

    private func setBackground(_ view: UIView?, for placeholder: BackgroundPlaceholder? = nil, offersRetry: Bool = false) {
        shownBackground = view
        shownPlaceholder = placeholder
        shownOffersRetry = offersRetry
        if let table = scrollView as? UITableView { table.backgroundView = view }
        if let collection = scrollView as? UICollectionView { collection.backgroundView = view }
    }

    /// Reloads through the core (after the batch, when called inside one); with no
    /// data source (a controller that attached another list view let this one go), the
    /// background placeholder goes too.
    public func reloadData() {
        core.reloadData()
        if dataSource == nil, let shown = shownBackground, currentBackground === shown { setBackground(nil) }
    }

    private var currentBackground: UIView? {
        (scrollView as? UITableView)?.backgroundView ?? (scrollView as? UICollectionView)?.backgroundView
    }

    // MARK: ListViewBackend

    public var hasWindow: Bool { scrollView.window != nil }

    public func performBatch(animated: Bool, _ body: () -> Changeset) {
        // UIKit declares both closures NS_NOESCAPE (called before the call returns, never kept).
        if animated {
            platformBatch { platformReplay(body()) }
        } else {
            UIView.performWithoutAnimation { platformBatch { platformReplay(body()) } }
        }
    }

    /// Reconfigures the rows at `paths` in place (`reconfigureRows(at:)`,
    /// `reconfigureItems(at:)`) and has them measured again: UIKit sizes a self-sizing
    /// cell again after it reconfigures it; a height the delegate gives (a `.fixed` or
    /// `.measured` ``/CellKit/RowHeight``) is asked again because the adapter, when an app
    /// calls this (not after a batch, whose update asks every height already), also asks the
    /// view for a layout update: an empty `performBatchUpdates` on a table view, an
    /// invalidation of the delegate's sizes on a collection view's flow layout. When and
    /// how each runs is decided by ``/CellKit/ListViewCore/reconfigure(_:configure:measureAgain:)``.
    public func reconfigureItems(at paths: [ItemPath]) {
        core.reconfigure(paths, configure: { [weak self] rows in
            self?.platformReconfigure(rows.map(\.indexPath))
        }, measureAgain: { [weak self] rows in
            guard let self, self.hasWindow else { return }
            self.platformMeasureAgain(rows.map(\.indexPath))
        })
    }

    public func reloadAll() {
        platformReload()
        updateBackground()
    }

    public func viewportOffset(ofItemAt path: ItemPath) -> Double? {
        platformFrame(at: path.indexPath).map { Double($0.minY - scrollView.contentOffset.y) }
    }

    public func scrollItem(at path: ItemPath, toViewportOffset offset: Double) {
        scrollView.layoutIfNeeded()
        guard let frame = platformFrame(at: path.indexPath) else { return }
        scrollView.contentOffset = AdapterSupport.anchoredOffset(top: frame.minY, distance: CGFloat(offset), in: scrollView)
    }

    /// A platform cell dequeued *with its index path* (so a reconfigure gets the
    /// same cell back); platform-neutral content is hosted in a hosting cell. Table-cell
    /// templates (`CellSource.tableCell(_:cellStyle:style:)` with a style other than
    /// `.default`) have no class registered with their style: they are dequeued by
    /// identifier alone, or built. During a reconfigure the list-view core hands back
    /// the cell UIKit has for the row, for either kind, before this is asked, as
    /// `reconfigureRows(at:)` requires: the cell showing it, or the cell last handed out
    /// for it that UIKit prepared ahead of display (see the CellKitUIKit article's
    /// contract table).
    public func makeCell(_ source: CellSource, for path: ItemPath) -> AnyObject {
        register(source)
        let cell = platformDequeue(source, at: path.indexPath)
        guard let host = cell as? any HostingCell else { return cell }
        let content = host.content ?? source.make?() ?? TextCell()
        host.content = content
        hosts.remember(cell, for: content)
        return content
    }

    // MARK: Shared glue for the platform callbacks

    /// The platform cell that shows `object` (the object itself, or its host), drawn by ``renderer`` when hosted.
    func platformCell(for object: AnyObject, at indexPath: IndexPath) -> UIView {
        if let view = object as? UIView {
            if platformAccepts(view) { return view }
            // A view the platform refuses as a cell (a table cell built by a template, shown in a
            // collection view, which raises for a cell it did not dequeue): hosted instead.
            if refusedCellTypes.insert(ObjectIdentifier(type(of: view))).inserted {
                core.diagnostics(Diagnostic(.other, "the data source returned a \(type(of: view)) for section \(indexPath.section), row \(indexPath.item) of a \(type(of: scrollView)), which does not take it as a cell; it is shown in a hosting cell (register a cell class of the list view's kind)"))
            }
        }
        if let host = hosts.host(of: object) {
            renderer.render(object, host)
            return host
        }
        // Not dequeued from this view (a data source that built its own object): host it anyway.
        let source = CellSource.type(TextCell.self)
        register(source)
        let host = platformDequeue(source, at: indexPath)
        (host as? any HostingCell)?.content = object
        hosts.remember(host, for: object)
        renderer.render(object, host)
        return host
    }

    /// The rows the platform gets for `section`: the core's cached count.
    func rowCount(in section: Int) -> Int { core.counts.indices.contains(section) ? core.counts[section] : 0 }

    /// The platform cell for the row at `indexPath`, configured by the data source through the core.
    ///
    /// UIKit asks from its layout pass: the request is one layout pass of the core
    /// (``/CellKit/ListViewCore/layingOut(_:)``), so a batch a configure handler starts
    /// is refused and a ``/CellKit/ListController``'s apply waits (``performWhenIdle(_:)``).
    func configuredCell(at indexPath: IndexPath) -> UIView {
        var cell: AnyObject?
        core.layingOut { cell = core.cellForItem(at: ItemPath(indexPath)) }
        return platformCell(for: cell ?? TextCell(), at: indexPath)
    }

    /// UIKit announces rows near the screen (from its layout pass, as one pass of the core).
    func platformPrefetch(_ indexPaths: [IndexPath]) {
        core.layingOut { core.prefetch(indexPaths.map(ItemPath.init)) }
    }

    /// UIKit no longer expects rows near the screen (from its layout pass, as one pass of the core).
    func platformCancelPrefetch(_ indexPaths: [IndexPath]) {
        core.layingOut { core.cancelPrefetching(indexPaths.map(ItemPath.init)) }
    }

    /// UIKit stopped showing `cell`, from its layout pass (often before it shows the rows
    /// coming on): one pass of the core, so what waits for its end (a resource loader's
    /// cancellation, an apply) runs once UIKit's pass is over (``performWhenIdle(_:)``),
    /// when a row of the same object that came on meanwhile keeps its load.
    func platformDidEndDisplaying(_ cell: UIView, at indexPath: IndexPath) {
        core.layingOut { core.didEndDisplaying(content(of: cell), at: ItemPath(indexPath)) }
    }

    /// Runs `body` once UIKit's layout pass is over: UIKit asks for cells and reports their
    /// display from its `layoutSubviews`, which goes on after each callback returns
    /// (`UITableView` asserts when asked about its cells while it updates them), so work
    /// asked for from a callback runs on a later turn of the main actor, once the core is
    /// idle; at once outside a callback, as one piece of the core's work
    /// (``/CellKit/ListViewCore/performWhenIdle(_:)``).
    public func performWhenIdle(_ body: @escaping @MainActor () -> Void) {
        guard core.isUpdating else {
            core.performWhenIdle(body)
            return
        }
        Task { @MainActor [weak self] in
            guard let self else { return }
            self.core.performWhenIdle(body)
        }
    }

    /// Scrolls so the row at `path` is at the top of the view (`UITableView.scrollToRow(at:at:animated:)`,
    /// `UICollectionView.scrollToItem(at:at:animated:)`, with `.top`), as the headless list view's
    /// `scrollToItem(at:)` does. `.top` is a vertical position: a collection view whose layout
    /// scrolls sideways does not move.
    ///
    /// UIKit asks for cells and reports their display from inside its layout pass; a scroll
    /// asked from there (a configure handler, a display hook, a presenter: "keep the selection
    /// in view") would move the view under the pass that asks. So, called while the core is in
    /// a pass or a batch (``isUpdating``), the scroll runs on a later turn of the main actor,
    /// after the work asked before it (``performWhenIdle(_:)``, a ``/CellKit/ListController``'s
    /// apply), unless a newer scroll was asked meanwhile, whether that one ran at once or
    /// waited too: the newest position wins
    /// (``/CellKit/ListViewCore/deferredViewportChange(_:_:)``). Outside a pass it runs at once.
    ///
    /// `path` names a row of the list as it is when the scroll runs, also right after a reload
    /// (the adapter lays the view out first, so UIKit reads the new counts, and so does the core). A row the view does not
    /// have is not scrolled to (UIKit raises "Attempted to scroll the table view to an
    /// out-of-bounds row", "... the collection view to an out-of-bounds item"): a diagnostic
    /// names the section and row. A row of `NSNotFound` scrolls a table to the top of its
    /// section, even an empty one, and a collection view to the section's first item (an empty
    /// section is refused): ``/CellKit/ListViewCore/scrollTarget(for:sectionTops:)``, tested on
    /// Linux; the UIKit calls themselves are type-checked only.
    public func scrollToItem(at path: ItemPath, animated: Bool = false) {
        let scroll: @MainActor () -> Void = { [weak self] in self?.scrollNow(to: path, animated: animated) }
        guard core.isUpdating else {
            core.performViewportChange(.scroll, scroll)
            return
        }
        let later = core.deferredViewportChange(.scroll, scroll)
        Task { @MainActor in later() }
    }

    private func scrollNow(to path: ItemPath, animated: Bool) {
        // A reload's layout still pending: lay out first (UIKit reads the new counts, a
        // collection view makes its layout), as the headless list view does; a collection
        // view asked to scroll before its layout after `reloadData()` may not move.
        if core.isReloadPending { scrollView.layoutIfNeeded() }
        switch core.scrollTarget(for: path, sectionTops: platformScrollsToSectionTops) {
        case .row(let row): platformScroll(to: row.indexPath, animated: animated)
        case .sectionTop(let section): platformScroll(to: IndexPath(item: NSNotFound, section: section), animated: animated)
        case .missing(let reason): core.diagnostics(Diagnostic(.other, "scrollToItem(at:animated:): \(reason); nothing scrolled"))
        }
    }

    /// The user selected the row at `indexPath`; `deselect` is the platform's deselection.
    func platformDidSelect(_ indexPath: IndexPath, deselect: (IndexPath, Bool) -> Void) {
        if deselectsAfterSelection { deselect(indexPath, true) }
        delegate?.listView(self, didSelectItemAt: ItemPath(indexPath))
    }

    /// Whether the platform may highlight (and so select) the row at `indexPath`: only
    /// a row that takes the selection (the delegate's `canSelectItemAt`; not a placeholder
    /// row that does nothing), and only if the forward target's own answer (`forwarded`) allows it.
    func platformShouldHighlight(_ indexPath: IndexPath, forwarded: Bool?) -> Bool {
        (delegate?.listView(self, canSelectItemAt: ItemPath(indexPath)) ?? true) && (forwarded ?? true)
    }

    /// The index titles for the platform: `nil` when there are none.
    func platformIndexTitles() -> [String]? {
        dataSource.flatMap { core.indexTitles($0.sectionIndexTitles(for: self), sectionTops: platformScrollsToSectionTops) }
    }

    /// The object CellKit handed out for a platform cell (the hosted content, or the cell).
    func content(of cell: UIView) -> AnyObject { (cell as? any HostingCell)?.content ?? cell }

    /// The platform shows `cell` at `indexPath`: record the height of a row that still carries
    /// an estimate, as ``/CellKit/SelfSizingStep/forRow(needsMeasuring:laidOutHeight:fittedHeight:)``
    /// decides (a view that did not size the cell itself asks the row's size again, once
    /// UIKit's pass is over: ``/CellKit/ListViewCore/reconfigure(_:configure:measureAgain:)``),
    /// and tell the core.
    func platformWillDisplay(_ cell: UIView, at indexPath: IndexPath) {
        let path = ItemPath(indexPath)
        core.layingOut {
            let needsMeasuring = delegate?.listView(self, needsMeasuringItemAt: path) == true
            let fitted = needsMeasuring ? platformFittedHeight(of: cell).map(Double.init) : nil
            switch SelfSizingStep.forRow(needsMeasuring: needsMeasuring, laidOutHeight: Double(cell.bounds.height), fittedHeight: fitted) {
            case .none: break
            case .record(let height):
                delegate?.listView(self, didMeasureHeight: height, forItemAt: path)
            case .recordAndResize(let height):
                delegate?.listView(self, didMeasureHeight: height, forItemAt: path)
                core.reconfigure([path], configure: { _ in }, measureAgain: { [weak self] rows in
                    guard let self, self.hasWindow else { return }
                    self.platformMeasureAgain(rows.map(\.indexPath))
                })
            }
            core.willDisplay(content(of: cell), at: path)
        }
    }

    /// The height `cell`'s content needs at its width, when the view laid it out at a size
    /// its delegate gave rather than sizing it (a flow layout); `nil` when the view sized it.
    func platformFittedHeight(of cell: UIView) -> CGFloat? { nil }

    /// The height to give the platform for `path`: automatic for rows that size
    /// themselves (never a measured height as fixed), else the delegate's height.
    func fixedHeight(at path: ItemPath, width: CGFloat) -> CGFloat? {
        guard let controller = dataSource as? ListController else { return delegateHeight(at: path) }
        if width > 0, controller.rowHeights.width != Double(width) { controller.rowHeights.width = Double(width) }
        if let item = controller.displayed.item(at: path), controller.rowHeights.sizesItself(item) { return nil }
        return controller.listView(self, heightForItemAt: path).map { CGFloat($0) }
    }

    /// The delegate's height for `path`, clamped (``/CellKit/RowHeights/clamped(_:)``): a
    /// delegate other than a ``/CellKit/ListController`` may give NaN or a negative height.
    func delegateHeight(at path: ItemPath) -> CGFloat? {
        delegate?.listView(self, heightForItemAt: path).map { CGFloat(RowHeights.clamped($0)) }
    }

    /// A user dragged a row: the core keeps the flag until the data catches up.
    func platformUserMoved(from source: IndexPath, to destination: IndexPath) {
        core.userDidMoveItem(from: ItemPath(source), to: ItemPath(destination))
        editing.onMove?(ItemPath(source), ItemPath(destination))
    }

    /// Where a drag may go: within the row's section when its model says so.
    func platformMoveTarget(from source: IndexPath, proposed: IndexPath) -> IndexPath {
        guard let model = AdapterSupport.model(in: dataSource, at: ItemPath(source)) else { return proposed }
        let rows = core.counts.indices.contains(source.section) ? core.counts[source.section] : 0
        return editing.target(forMoving: model, from: ItemPath(source), proposed: ItemPath(proposed), rowsInSourceSection: rows).indexPath
    }

    @objc private func contentSizeCategoryDidChange() {
        // Dynamic Type changed: every measured height is stale.
        (dataSource as? ListController)?.rowHeights.invalidateAll()
        core.reloadData()
    }

    // MARK: Forwarding what CellKit does not handle

    override public func responds(to selector: Selector!) -> Bool {
        super.responds(to: selector) || (forwardTarget?.responds(to: selector) ?? false)
    }

    override public func forwardingTarget(for selector: Selector!) -> Any? {
        if !super.responds(to: selector), let target = forwardTarget, target.responds(to: selector) { return target }
        return super.forwardingTarget(for: selector)
    }
}
/// The key of the cell vendor a view keeps (an address, never read or written).
@MainActor private let cellVendorKey = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
#endif

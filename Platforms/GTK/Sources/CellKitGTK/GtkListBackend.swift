import CGtk
import CellKit

/// A CellKit list view on GTK 4: a `GtkListView` whose rows are bound lazily,
/// as GTK scrolls them into view, to cells that a `ListController` configures.
///
/// The list's logic (cached counts, one validation per batch, the visible cells
/// followed through each batch, reuse pools) is CellKit's `ListViewCore`; this
/// class is its GTK backend. Section headers are rows of their own (GTK 4.8 has
/// none). Batches reach GTK as `items-changed` ranges of its model (rows removed
/// and inserted), never as a full reset unless the core reloads; rows whose
/// content changed are configured again in place. Enter or a double click
/// activates a row: the delegate's `didSelectItemAt`, unless the delegate says the
/// row does not take the selection (`canSelectItemAt`: a placeholder row that does nothing).
///
/// ```swift
/// import CellKit
/// import CellKitGTK
///
/// struct Person: Identifiable, Sendable { let id: Int; var name: String }
///
/// @MainActor func showPeople(_ people: [Person]) -> (GtkListWindow, ListController) {
///     let window = GtkListWindow(title: "People")
///     let controller = ListController()
///     controller.register(TextCell.self, for: Person.self) { cell, person in cell.text = person.name }
///     controller.attach(to: window.list)
///     controller.apply(TableModel(people))
///     window.present()
///     return (window, controller) // the list holds the controller weakly
/// }
/// ```
@MainActor
public final class GtkListBackend: ListViewCoreOwner, ListViewBackend {
    /// Who answers counts and cells; held weakly.
    public weak var dataSource: (any ListViewDataSource)?
    /// Who hears about selection and display; held weakly.
    public weak var delegate: (any ListViewDelegate)?

    /// The widget to put in a window: a scrolled window around the `GtkListView`.
    public var widget: GtkWidgetPointer { rows.scrolledWindow }
    /// The `GtkListView` itself (for focus, styling, inspection).
    public var listViewWidget: GtkWidgetPointer { rows.listView }

    /// How many cells were built (not reused) since creation.
    public var createdCellCount: Int { core.createdCells.values.reduce(0, +) }
    /// How many list item widgets GTK created (its `setup`), since creation.
    public var createdRowWidgetCount: Int { rows.setupCount }
    /// How many times GTK bound a row, since creation.
    public var bindCount: Int { rows.bindCount }

    let rows: GtkRowList
    /// The list's logic; this class replays its decisions in GTK.
    public private(set) lazy var core = ListViewCore(listView: self, backend: self)
    private(set) var layout = FlatLayout()
    private var headerTitles: [String?] = []
    private var textRows: [ObjectIdentifier: GtkTextRow] = [:]
    private var headerPool: [GtkTextRow] = []
    /// What each bound GTK list item shows.
    private var bound: [OpaquePointer: FlatLayout.Entry] = [:]
    private var headerRows: [OpaquePointer: GtkTextRow] = [:]
    private var pendingBinds: [OpaquePointer] = []
    private var isSplicing = false
    /// The `items-changed` splices of animated batches, for tests; they empty it.
    var spliceLog: [FlatLayout.Splice] = []

    /// Creates an empty list; initializes GTK first if needed (``GtkMainLoop/start()``),
    /// and stops the program with a message if GTK cannot open a display.
    public init() {
        precondition(GtkMainLoop.start(), "GtkListBackend: GTK could not open a display; set DISPLAY or WAYLAND_DISPLAY (or run under xvfb-run)")
        rows = GtkRowList()
        rows.onBind = { [unowned self] item in
            if isSplicing { pendingBinds.append(item) } else { bind(item) }
        }
        rows.onUnbind = { [unowned self] item in unbind(item) }
        rows.onActivate = { [unowned self] position in
            // A row that does not take the selection (a placeholder row that does nothing) ignores it.
            guard case .row(let path) = layout.entry(at: position),
                  delegate?.listView(self, canSelectItemAt: path) ?? true else { return }
            delegate?.listView(self, didSelectItemAt: path)
        }
    }

    // MARK: ListView (registering, dequeuing, visible rows and reloading are the core's)

    @discardableResult
    public func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) -> BatchOutcome {
        let outcome = core.performBatchUpdates(changeset, updateData: updateData)
        finishSplicing()
        return outcome
    }

    public func cellDidChange(at path: ItemPath, reason: CellChangeReason) {
        if let cell = core.cell(at: path) { textRows[ObjectIdentifier(cell)]?.show(cell) }
    }

    // MARK: ListViewBackend (GTK replays)

    public var hasWindow: Bool { true }

    public func performBatch(animated: Bool, _ body: () -> Changeset) {
        let old = layout
        let changeset = body()
        readLayout(counts: core.counts)
        let mapping = core.batchMapping ?? PathMapping(changeset, oldCounts: old.counts, newCounts: layout.counts)
        let steps = BatchPlan.Steps(structural: changeset, reconfigure: [])
        guard let splices = FlatLayout.splices(steps, from: old, to: layout, newSections: mapping.newSections) else {
            isSplicing = true
            rows.splice(at: 0, removing: old.total, adding: layout.total)
            return
        }
        spliceLog += splices
        // GTK binds mid-batch, when positions mean neither the old nor the new rows:
        // binds wait for finishSplicing(), after the core followed its cells.
        isSplicing = true
        for splice in splices { rows.splice(at: splice.position, removing: splice.removed, adding: splice.added) }
        for (item, entry) in bound {
            switch entry {
            case .row(let path): bound[item] = mapping.newPath(of: path).map(FlatLayout.Entry.row)
            case .header(let section): bound[item] = mapping.newSections[section].map { .header(section: $0) }
            }
        }
    }

    public func reconfigureItems(at paths: [ItemPath]) {
        for path in paths {
            core.reconfigureVisibleItem(at: path)
            cellDidChange(at: path, reason: .reconfigured)
        }
    }

    public func reloadAll() {
        let oldTotal = layout.total
        readLayout(counts: core.readCounts())
        isSplicing = true
        rows.splice(at: 0, removing: oldTotal, adding: layout.total)
        finishSplicing()
    }

    public func viewportOffset(ofItemAt path: ItemPath) -> Double? {
        guard let item = bound.first(where: { $0.value == .row(path) })?.key,
              let child = gtk_list_item_get_child(item) else { return nil }
        var bounds = graphene_rect_t()
        return gtk_widget_compute_bounds(child, listViewWidget, &bounds) != 0 ? Double(bounds.origin.y) : nil
    }

    public func scrollItem(at path: ItemPath, toViewportOffset offset: Double) {
        guard let current = viewportOffset(ofItemAt: path) else { return }
        let adjustment = ck_list_view_vadjustment(OpaquePointer(listViewWidget))
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + current - offset)
    }

    public func makeCell(_ source: CellSource, for path: ItemPath) -> AnyObject { source.make?() ?? TextCell() }

    // MARK: Selection

    /// The selected row, if any (arrow keys and clicks move it). While a header row
    /// has the keyboard focus (GTK 4.8 cannot make a row unfocusable), `nil`.
    public var selectedPath: ItemPath? {
        get {
            guard let position = rows.selectedPosition, case .row(let path) = layout.entry(at: position) else { return nil }
            return path
        }
        set { rows.selectedPosition = newValue.map { layout.position(of: $0) } }
    }

    /// Scrolls the row at `path` into view.
    public func scroll(to path: ItemPath) {
        rows.scroll(to: layout.position(of: path))
    }

    // MARK: Binding

    private func readLayout(counts: [Int]) {
        headerTitles = counts.indices.map { section in dataSource?.listView(self, titleForHeaderInSection: section) }
        layout = FlatLayout(counts: counts, hasHeader: headerTitles.map { $0 != nil })
    }

    /// Binds what GTK bound during the splices, and ends the display of rows GTK let go.
    private func finishSplicing() {
        guard isSplicing else { return }
        isSplicing = false
        let pending = pendingBinds
        pendingBinds.removeAll()
        for item in pending where bound[item] == nil { bind(item) }
        let shown = Set(bound.values)
        for path in core.visibleItemPaths where !shown.contains(.row(path)) { core.endDisplay(at: path) }
    }

    private func bind(_ item: OpaquePointer) {
        guard let position = rows.position(of: item), let entry = layout.entry(at: position) else { return }
        switch entry {
        case .header(let section):
            let row = headerRows[item] ?? headerPool.popLast() ?? GtkTextRow(header: true)
            headerRows[item] = row
            row.show(headerTitles[section] ?? "")
            rows.setChild(row.widget, of: item, selectable: false)
        case .row(let path):
            // A row GTK rebound because its position changed keeps the cell it had.
            guard let cell = core.cell(at: path) ?? core.display(at: path) else { return }
            rows.setChild(widget(showing: cell), of: item, selectable: true)
        }
        bound[item] = entry
    }

    private func unbind(_ item: OpaquePointer) {
        pendingBinds.removeAll { $0 == item }
        if let row = headerRows.removeValue(forKey: item) { headerPool.append(row) }
        guard let entry = bound.removeValue(forKey: item) else { return }
        rows.setChild(nil, of: item, selectable: false)
        // Mid-batch, the row may come back at another position: finishSplicing() decides.
        if !isSplicing, case .row(let path) = entry { core.endDisplay(at: path) }
    }

    /// The widget that shows `cell`: its own, or a text row kept with it.
    private func widget(showing cell: AnyObject) -> GtkWidgetPointer {
        if let hosting = cell as? GtkWidgetHosting { return hosting.widget }
        let key = ObjectIdentifier(cell)
        let row = textRows[key] ?? GtkTextRow()
        textRows[key] = row
        row.show(cell)
        return row.widget
    }
}

import CGtk
import CellKit

/// A CellKit list view on GTK 4: a `GtkListView` whose rows are bound lazily,
/// as GTK scrolls them into view, to cells that a `ListController` configures.
///
/// Section headers are rows of their own (GTK 4.8 has none). Batches reach GTK
/// as `items-changed` ranges of its model (rows removed, inserted, replaced),
/// never as a full reset unless CellKit reloads. GTK recycles its row widgets
/// (`setup` / `bind` / `unbind`); the cells behind them are reused through a
/// pool per reuse identifier. Enter or a double click activates a row: the
/// delegate's `didSelectItemAt`.
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
public final class GtkListBackend: ListView {
    /// Who answers counts and cells; held weakly.
    public weak var dataSource: (any ListViewDataSource)?
    /// Who hears about selection and display; held weakly.
    public weak var delegate: (any ListViewDelegate)?

    /// The widget to put in a window: a scrolled window around the `GtkListView`.
    public var widget: GtkWidgetPointer { rows.scrolledWindow }
    /// The `GtkListView` itself (for focus, styling, inspection).
    public var listViewWidget: GtkWidgetPointer { rows.listView }

    /// How many cells were built (not reused) since creation.
    public private(set) var createdCellCount = 0
    /// How many list item widgets GTK created (its `setup`), since creation.
    public var createdRowWidgetCount: Int { rows.setupCount }
    /// How many times GTK bound a row, since creation.
    public var bindCount: Int { rows.bindCount }

    let rows: GtkRowList
    private(set) var layout = FlatLayout()
    private var headerTitles: [String?] = []
    private var registered: [String: CellSource] = [:]
    private var reusePool: [String: [AnyObject]] = [:]
    private var reuseIdentifiers: [ObjectIdentifier: String] = [:]
    private var textRows: [ObjectIdentifier: GtkTextRow] = [:]
    private var headerPool: [GtkTextRow] = []
    private var bound: [OpaquePointer: Bound] = [:]
    private var pendingBinds: [OpaquePointer] = []
    private var detached: [Bound] = []
    /// The `items-changed` splices of animated batches, for tests; they empty it.
    var spliceLog: [FlatLayout.Splice] = []
    private var isSplicing = false

    /// What a bound GTK list item shows.
    private enum Bound {
        case header(section: Int, row: GtkTextRow)
        case row(ItemPath, cell: AnyObject)

        var entry: FlatLayout.Entry {
            switch self {
            case .header(let section, _): .header(section: section)
            case .row(let path, _): .row(path)
            }
        }
    }

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
            guard case .row(let path) = layout.entry(at: position) else { return }
            delegate?.listView(self, didSelectItemAt: path)
        }
    }

    // MARK: ListView

    public func register(_ source: CellSource) {
        registered[source.reuseIdentifier] = source
    }

    public func dequeueReusableCell(_ source: CellSource, for path: ItemPath) -> AnyObject {
        let id = source.reuseIdentifier
        if registered[id] == nil { register(source) }
        if let cell = reusePool[id]?.popLast() {
            (cell as? any ListCell)?.prepareForReuse()
            return cell
        }
        let cell: AnyObject = source.make?() ?? TextCell()
        reuseIdentifiers[ObjectIdentifier(cell)] = id
        createdCellCount += 1
        return cell
    }

    /// The rows GTK has bound: the ones on screen plus GTK's margin around them, in order.
    public var visibleItemPaths: [ItemPath] {
        bound.values.compactMap { if case .row(let path, _) = $0 { path } else { nil } }.sorted()
    }

    public func cell(at path: ItemPath) -> AnyObject? {
        for case .row(path, let cell) in bound.values { return cell }
        return nil
    }

    public func reloadData() {
        let oldTotal = layout.total
        readLayout()
        splicing { rows.splice(at: 0, removing: oldTotal, adding: layout.total) }
    }

    @discardableResult
    public func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) -> BatchOutcome {
        let old = layout
        updateData()
        readLayout()
        let plan = BatchPlan.decide(changeset, oldCounts: old.counts, newCounts: layout.counts, hasWindow: true)
        let mapping = PathMapping(changeset, oldCounts: old.counts, newCounts: layout.counts)
        guard case .animate(let steps) = plan,
              let splices = FlatLayout.splices(steps, from: old, to: layout, newSections: mapping.newSections) else {
            splicing { rows.splice(at: 0, removing: old.total, adding: layout.total) }
            if case .reload(let reason) = plan { return .reloaded(reason) }
            return .reloaded(.invalid(BatchUpdateError(.sectionCountMismatch, detail: "the batch does not map onto the list's rows")))
        }
        let selected = selectedPath.flatMap { mapping.newPath(of: $0) }
        spliceLog += splices
        splicing(reconfigured: Set(steps.reconfigure), remap: { shown in
            switch shown {
            case .row(let path, let cell): mapping.newPath(of: path).map { .row($0, cell: cell) }
            case .header(let section, let row): mapping.newSections[section].map { .header(section: $0, row: row) }
            }
        }) {
            for splice in splices { rows.splice(at: splice.position, removing: splice.removed, adding: splice.added) }
        }
        if let selected, selectedPath != selected { selectedPath = selected }
        return .animated
    }

    public func cellDidChange(at path: ItemPath, reason: CellChangeReason) {
        guard let cell = cell(at: path), !(cell is GtkWidgetHosting) else { return }
        textRows[ObjectIdentifier(cell)]?.show(cell)
    }

    // MARK: Selection

    /// The selected row, if any (arrow keys and clicks move it; headers are not selectable).
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

    private func readLayout() {
        guard let dataSource else {
            layout = FlatLayout()
            headerTitles = []
            return
        }
        let sections = max(0, dataSource.numberOfSections(in: self))
        headerTitles = (0..<sections).map { dataSource.listView(self, titleForHeaderInSection: $0) }
        layout = FlatLayout(
            counts: (0..<sections).map { max(0, dataSource.listView(self, numberOfItemsInSection: $0)) },
            hasHeader: headerTitles.map { $0 != nil }
        )
    }

    /// Runs `splices` with binds deferred: mid-batch, positions mean neither the old
    /// nor the new data. GTK 4.8 rebinds every row whose position changed; a row that
    /// comes back showing what it showed (after `remap`) gets its cell back, unconfigured
    /// again, unless it is in `reconfigured`. Without `remap` (a reload), nothing comes back.
    private func splicing(reconfigured: Set<ItemPath> = [], remap: ((Bound) -> Bound?)? = nil, _ splices: () -> Void) {
        isSplicing = true
        splices()
        isSplicing = false
        let remap = remap ?? { _ in nil }
        // Rows GTK kept bound moved with their items: follow them.
        for (item, shown) in bound {
            if let moved = remap(shown) { bound[item] = moved } else { bound[item] = nil; release(shown) }
        }
        var spare: [FlatLayout.Entry: Bound] = [:]
        for shown in detached {
            guard let moved = remap(shown) else { release(shown); continue }
            if case .row(let path, _) = moved, reconfigured.contains(path) { release(moved); continue }
            spare[moved.entry] = moved
        }
        detached.removeAll()
        let pending = pendingBinds
        pendingBinds.removeAll()
        for item in pending where bound[item] == nil {
            guard let position = rows.position(of: item) else { continue }
            if let entry = layout.entry(at: position), let shown = spare.removeValue(forKey: entry) {
                attach(shown, to: item)
            } else {
                bind(item)
            }
        }
        for shown in spare.values { release(shown) }
    }

    private func attach(_ shown: Bound, to item: OpaquePointer) {
        switch shown {
        case .header(_, let row): rows.setChild(row.widget, of: item, selectable: false)
        case .row(_, let cell): rows.setChild(widget(showing: cell), of: item, selectable: true)
        }
        bound[item] = shown
    }

    private func bind(_ item: OpaquePointer) {
        if let previous = bound[item] { release(previous) }
        guard let position = rows.position(of: item), let entry = layout.entry(at: position) else { return }
        switch entry {
        case .header(let section):
            let row = headerPool.popLast() ?? GtkTextRow(header: true)
            row.show(headerTitles[section] ?? "")
            rows.setChild(row.widget, of: item, selectable: false)
            bound[item] = .header(section: section, row: row)
        case .row(let path):
            guard let dataSource else { return }
            let cell = dataSource.listView(self, cellForItemAt: path)
            rows.setChild(widget(showing: cell), of: item, selectable: true)
            bound[item] = .row(path, cell: cell)
            delegate?.listView(self, willDisplay: cell, at: path)
        }
    }

    private func unbind(_ item: OpaquePointer) {
        pendingBinds.removeAll { $0 == item }
        guard let shown = bound.removeValue(forKey: item) else { return }
        rows.setChild(nil, of: item, selectable: false)
        if isSplicing { detached.append(shown) } else { release(shown) }
    }

    private func release(_ shown: Bound) {
        switch shown {
        case .header(_, let row):
            headerPool.append(row)
        case .row(let path, let cell):
            delegate?.listView(self, didEndDisplaying: cell, at: path)
            if let id = reuseIdentifiers[ObjectIdentifier(cell)] { reusePool[id, default: []].append(cell) }
        }
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

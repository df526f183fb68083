/// What turns one row into a cell and answers for it: presenters first, then the
/// registry and the dispatch table, with the row heights. The ``ListController``
/// owns one and forwards the list view's per-row questions to it.
///
/// Presenters take precedence over the registry for their model type: a row of
/// a presented type gets the presenter's cell source, presentation, height,
/// selection and resource updates; every other row gets the registry's cell,
/// its configure closure, then the dispatch table's handlers.
@MainActor
final class RowBinding {
    /// Model type → cell.
    let registry: CellRegistry
    /// Model type → configure / select / height / resource handlers.
    let dispatch: DispatchTable
    /// Model type → presenter, in its style.
    private var presenters = TypeTable<PresenterBinding>()
    /// Fixed, estimated and measured heights, asked before presenters and handlers.
    let heights = RowHeights()
    /// Where a presenter that gets a cell it cannot present is reported.
    var diagnostics: DiagnosticHandler {
        didSet {
            registry.diagnostics = diagnostics
            dispatch.diagnostics = diagnostics
            heights.diagnostics = diagnostics
        }
    }

    init(registry: CellRegistry, diagnostics: DiagnosticHandler) {
        self.registry = registry
        self.dispatch = DispatchTable(diagnostics: diagnostics)
        self.diagnostics = diagnostics
        registry.diagnostics = diagnostics
        heights.diagnostics = diagnostics
    }

    /// Presents models of `P.Model` with `presenter` from now on.
    func addPresenter<P: Presenter>(_ presenter: P, style: CellStyle, onEvent: @escaping @MainActor (P.Event) -> Void) {
        presenters.set(PresenterBinding(presenter, style: style, onEvent: onEvent), for: P.Model.self)
    }

    /// The controller whose rows a presenter's context follows (``PresentationContext/path``).
    weak var controller: ListController?
    /// The row each cell presented last (one entry per cell, overwritten on reuse).
    private var presentedRows: [ObjectIdentifier: WeakPresentedRow] = [:]

    private struct WeakPresentedRow { weak var row: PresentedRow? }
    /// Presenters whose cell source built another cell type than their `Cell`, reported once each.
    private var presenterMismatches = MismatchReporter()

    /// A dequeued cell for `model`, the row with identity `id`, configured by its
    /// presenter or by the registry and dispatch table.
    func cell(for model: Any, id: ItemID, in listView: any ListView, at path: ItemPath) -> AnyObject {
        if let (presenter, _) = presenter(for: model) {
            let cell = registry.dequeue(presenter.source, from: listView, at: path)
            let row = PresentedRow(controller: controller, cell: cell, id: id, presentedAt: path)
            // The row the cell presented before no longer has a cell: its context must not
            // follow the cell to the row it shows now (maybe another row of the same object).
            presentedRows[ObjectIdentifier(cell)]?.row?.cellWasReused()
            presentedRows[ObjectIdentifier(cell)] = WeakPresentedRow(row: row)
            if !presenter.present(cell, model, row) {
                presenterMismatches.report(
                    cell: cell, expected: presenter.cellType, model: model, at: path,
                    presenter: presenter.presenterType, source: presenter.source, to: diagnostics
                )
            }
            return cell
        }
        let binding = registry.binding(for: model)
        let cell = registry.dequeue(binding.source, from: listView, at: path)
        let registered = registry.configureCell(cell, with: model, binding: binding, at: path)
        let handler = dispatch.runConfigure(cell, with: model, at: path)
        if handler?.ran != true, !registered.configured {
            // A configure closure or handler that takes another cell type was skipped and
            // reported: the cell is shown as if there were none, without a second report.
            registry.showUnconfigured(cell, with: model, binding: binding, at: path, report: handler == nil && !registered.skipped)
        }
        return cell
    }

    /// The presenter of `model`; the built-in placeholder rows take only one presenting their own type.
    private func presenter(for model: Any) -> (value: PresenterBinding, match: TypeMatch)? {
        guard let resolved = presenters.resolve(model) else { return nil }
        if resolved.match != .exact, DispatchTable.isBuiltInPlaceholder(model) { return nil }
        return resolved
    }

    /// An empty default cell, for a path the list view should not have asked about.
    func defaultCell(in listView: any ListView, at path: ItemPath) -> AnyObject {
        registry.dequeue(registry.defaultCell, from: listView, at: path)
    }

    /// The height of `item` at `path`: the row heights, then its presenter, then the dispatch table.
    func height(of item: ListItem, at path: ItemPath) -> Double? {
        if let height = heights.height(for: item) { return height }
        let model = item.model
        if let (presenter, _) = presenter(for: model), let height = presenter.height(model) { return height }
        return dispatch.height(for: model, at: path)
    }

    /// Whether `model`'s row takes the selection: any row but the loading and
    /// no-results rows and an error row that cannot retry, unless a presenter or select
    /// handler of the placeholder's own type takes it. The load-more row always does:
    /// failed, selecting it retries; loading, it is the end of the list a terminal
    /// user moves to, and the selection stays on it while the pages arrive.
    func isSelectable(_ model: Any) -> Bool {
        guard DispatchTable.isBuiltInPlaceholder(model), !(model is LoadMorePlaceholder) else { return true }
        if let error = model as? ErrorPlaceholder, error.canRetry { return true }
        return presenter(for: model) != nil || dispatch.handlesSelect(of: model)
    }

    /// Sends a tap on `model`'s row to its presenter or select handler; `false` when neither handles it.
    func select(_ model: Any, at path: ItemPath) -> Bool {
        if let (presenter, _) = presenter(for: model) {
            presenter.select(model)
            return true
        }
        return dispatch.select(model, at: path) != nil
    }

    /// Hands `update` to `cell`, which shows `model`, through its presenter or
    /// the dispatch table; whether one of them took it.
    func deliver(_ update: ResourceUpdate, to cell: AnyObject, showing model: Any) -> Bool {
        if let (presenter, _) = presenter(for: model) {
            return presenter.update(cell, model, update)
        }
        return dispatch.resource(update, cell: cell, model: model)
    }
}

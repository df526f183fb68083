/// Wires a registry, presenters and dispatch handlers to a list view: the role
/// of `ICTableViewController` and `CTableViewController`, by composition.
///
/// The controller answers the list view's questions (counts, the configured
/// cell for a visible row, heights, titles, selection), shows placeholder rows
/// from the ``state``, diffs each new model against what is shown and applies
/// the changes as batches the list view accepts, and hands resources to the
/// visible cells that show them.
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
    public let registry: CellRegistry
    /// Model type → configure / select / height / resource handlers.
    public let dispatch: DispatchTable
    var presenters = TypeTable<PresenterBinding>()
    /// Data-source binding, display hooks, resources and heights (`ListController+*.swift`).
    let companions = ListControllerCompanions()

    /// The content last applied (without placeholder rows).
    public private(set) var model = TableModel()
    /// The state last applied.
    public private(set) var state: ContentState = .loading
    /// What the list view shows now: the content, or placeholder rows.
    public private(set) var displayed = TableModel()

    /// The list view driven, if attached.
    public private(set) weak var listView: (any ListView)?

    /// Called when the error row is selected and it allows a retry.
    public var onRetry: (@MainActor () -> Void)?
    /// Called when a load fails while content is showing (the content stays).
    public var onError: (@MainActor (any Error) -> Void)?
    /// The placeholder rows' models; change their messages here.
    public var placeholders = Placeholders()
    /// Above this many changes, the list reloads instead of animating; `nil`: never.
    public var reloadThreshold: Int?
    /// Where duplicate ids, invalid batches and other slips are reported.
    public var diagnostics: DiagnosticHandler {
        didSet {
            registry.diagnostics = diagnostics
            dispatch.diagnostics = diagnostics
        }
    }

    /// The models of the placeholder rows.
    public struct Placeholders: Sendable {
        /// Shown while the first load runs.
        public var loading = LoadingPlaceholder()
        /// Shown when a load returned nothing.
        public var noResults = NoResultsPlaceholder()
        /// Whether placeholder rows are shown at all (a UIKit screen may use background views instead).
        public var showsRows = true
        /// Whether the error row offers a retry.
        public var errorCanRetry = true
        /// Creates the defaults.
        public init() {}
    }

    /// Creates a controller with its own dispatch table.
    public init(registry: CellRegistry = CellRegistry(), diagnostics: DiagnosticHandler = .standardError) {
        self.registry = registry
        self.dispatch = DispatchTable(diagnostics: diagnostics)
        self.diagnostics = diagnostics
        registry.diagnostics = diagnostics
        self.displayed = Self.displayedModel(model, state: state, placeholders: placeholders)
    }

    /// Becomes `listView`'s data source and delegate and reloads it.
    public func attach(to listView: any ListView) {
        self.listView = listView
        listView.dataSource = self
        listView.delegate = self
        listView.reloadData()
    }

    // MARK: Registering (conveniences over the registry and the dispatch table)

    /// Maps `Model` to `Cell` (Instant Cocoa's `registerCellClass:forModelClass:`).
    public func register<Model, Cell: ListCell>(
        _ cell: Cell.Type, for model: Model.Type, style: CellStyle = .default,
        configure: (@MainActor (Cell, Model) -> Void)? = nil
    ) {
        registry.register(cell, for: model, style: style, configure: configure)
    }

    /// Handles selection of rows showing a `Model`.
    public func onSelect<Model>(_ model: Model.Type, _ handler: @escaping @MainActor (Model, ItemPath) -> Void) {
        dispatch.onSelect(model, handler)
    }

    /// The height of rows showing a `Model`.
    public func height<Model>(for model: Model.Type, _ handler: @escaping @MainActor (Model) -> Double) {
        dispatch.height(for: model, handler)
    }

    /// Presents models of `P.Model` with `presenter` in `style` (Coffee's
    /// `addModelPresenterForClass:withStyle:withPresenter:`); its events go to `onEvent`.
    /// A presenter takes precedence over the registry for its model type.
    public func addPresenter<P: Presenter>(
        _ presenter: P, style: CellStyle = .default,
        onEvent: @escaping @MainActor (P.Event) -> Void = { _ in }
    ) {
        presenters.set(PresenterBinding(presenter, style: style, onEvent: onEvent), for: P.Model.self)
        listView?.reloadData()
    }

    // MARK: Applying content

    /// Shows `model` in `state`: diffs it against what is shown and applies the
    /// changes to the list view as batches it accepts (or reloads, past
    /// ``reloadThreshold`` or when a batch is refused).
    public func apply(_ model: TableModel, state: ContentState = .loaded) {
        record(model, state: state)
        show(Self.displayedModel(model, state: state, placeholders: placeholders))
    }

    /// Makes `model` and `state` current, reporting a failure that keeps content.
    func record(_ model: TableModel, state: ContentState) {
        if case .failed(let error) = state, !model.isEmpty {
            onError?(error)
            diagnostics(Diagnostic(.loadFailed, "load failed while content was showing; keeping \(model.itemCount) rows: \(error)"))
        }
        self.model = model
        self.state = state
    }

    /// Changes only the state, keeping the content.
    public func setState(_ state: ContentState) { apply(model, state: state) }

    static func displayedModel(_ model: TableModel, state: ContentState, placeholders: Placeholders) -> TableModel {
        guard placeholders.showsRows, model.isEmpty else { return model }
        let row: ListItem
        switch state {
        case .loading: row = ListItem(placeholders.loading)
        case .loaded, .empty: row = ListItem(placeholders.noResults)
        case .failed(let error): row = ListItem(ErrorPlaceholder(error: error, canRetry: placeholders.errorCanRetry))
        }
        return TableModel(sections: [TableSection(id: "cellkit.placeholder", items: [row])], sectionIndexStyle: model.sectionIndexStyle)
    }

    /// Replaces what is shown with `target`, through the diff. Called while an
    /// apply is under way (a display hook or a configure handler that applies),
    /// it runs once that apply is over: the list view is never asked for a
    /// batch inside another one.
    func show(_ target: TableModel) {
        guard !companions.isShowing else {
            companions.deferredTarget = target
            return
        }
        show(target, staged: stagedChanges(from: displayed, to: target))
    }

    /// Applies `staged`, computed from ``displayed`` to `target`, stage by stage.
    ///
    /// The list view validates each stage once, against the counts it cached;
    /// ``displayed`` only ever holds what the list view was handed.
    func show(_ target: TableModel, staged: StagedChangeset<[DiffSection<SectionID, SectionHeader, ListItem>]>) {
        guard !companions.isShowing else {
            companions.deferredTarget = target
            return
        }
        companions.isShowing = true
        showNow(target, staged: staged)
        // Applies asked for while this one ran: the newest wins, diffed from what is shown now.
        while let next = companions.deferredTarget {
            companions.deferredTarget = nil
            showNow(next, staged: stagedChanges(from: displayed, to: next))
        }
        companions.isShowing = false
    }

    private func showNow(_ target: TableModel, staged: StagedChangeset<[DiffSection<SectionID, SectionHeader, ListItem>]>) {
        companions.displayGeneration &+= 1
        defer { listView?.contentStateDidChange(state) }
        guard let listView else {
            displayed = target
            return
        }
        for duplicate in staged.duplicates {
            diagnostics(Diagnostic(.duplicateIdentifier, duplicate.description))
        }
        if staged.isReload {
            displayed = target
            listView.reloadData()
            return
        }
        for (index, stage) in staged.stages.enumerated() {
            let after = TableModel(stage.data, index: target.sectionIndexStyle)
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
            if case .reloaded = outcome, index == staged.stages.count - 1 { return }
            listView.reloadData()
            return
        }
        displayed = target
    }

    // MARK: Resources

    /// Hands a resource of `object` to the visible cells that show it or refer to
    /// it (Coffee's `provideResourceToVisibleCells:updatedKey:`). No other cell
    /// is touched and nothing is reloaded. Returns the paths updated.
    @discardableResult
    public func provideResource(_ object: any Sendable, key: ResourceKey, value: (any Sendable)? = nil) -> [ItemPath] {
        guard let listView else { return [] }
        let update = ResourceUpdate(object: object, key: key, value: value)
        let objectID = ItemID(anyModel: object)
        var updated: [ItemPath] = []
        for path in listView.visibleItemPaths {
            guard let item = displayed.item(at: path), let cell = listView.cell(at: path),
                  Self.item(item, concerns: object, id: objectID) else { continue }
            let handled: Bool
            if let (presenter, _) = presenters.resolve(item.model) {
                handled = presenter.update(cell, item.model, update)
            } else {
                handled = dispatch.resource(update, cell: cell, model: item.model)
            }
            if handled {
                updated.append(path)
                listView.cellDidChange(at: path, reason: .resource(key))
            }
        }
        return updated
    }

    static func item(_ item: ListItem, concerns object: Any, id: ItemID?) -> Bool {
        if let id, item.id == id { return true }
        if type(of: object) is AnyClass, type(of: item.model) is AnyClass, (object as AnyObject) === (item.model as AnyObject) { return true }
        if let referencing = item.model as? any ResourceReferencing { return referencing.refers(to: object) }
        return false
    }

    // MARK: ListViewDataSource

    public func numberOfSections(in listView: any ListView) -> Int { displayed.sections.count }

    public func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int {
        displayed.itemCount(inSection: section)
    }

    public func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject {
        guard let item = displayed.item(at: path) else {
            diagnostics(Diagnostic(.other, "list view asked for the cell at section \(path.section), row \(path.item), but the list has \(displayed.sections.count) sections\(displayed.sections.indices.contains(path.section) ? " and \(displayed.sections[path.section].items.count) rows in that section" : ""); showing an empty default cell"))
            return registry.dequeue(registry.defaultCell, from: listView, at: path)
        }
        // A row already on screen is being reconfigured: its configure reset the cell, so
        // the resources cached for it are handed to it again (UIKit contract 4).
        let isReconfigure = listView.cell(at: path) != nil
        let cell = configuredCell(for: item.model, in: listView, at: path)
        if isReconfigure, !companions.resourceLoaders.isEmpty, let content = contentItem(at: path) {
            for loader in companions.resourceLoaders { loader.reconfigured(content) }
        }
        return cell
    }

    /// A dequeued cell for `model`, configured by its presenter or by the registry and dispatch table.
    func configuredCell(for model: Any, in listView: any ListView, at path: ItemPath) -> AnyObject {
        if let (presenter, _) = presenters.resolve(model) {
            let cell = registry.dequeue(presenter.source, from: listView, at: path)
            if !presenter.present(cell, model, path) {
                diagnostics(Diagnostic(.cellTypeMismatch, "presenter for \(type(of: model)) got a \(type(of: cell)) cell from source \(presenter.source) at section \(path.section), row \(path.item)"))
            }
            return cell
        }
        let binding = registry.binding(for: model)
        let cell = registry.dequeue(binding.source, from: listView, at: path)
        registry.configure(cell, with: model, binding: binding)
        dispatch.configure(cell, with: model, at: path)
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
        guard let item = displayed.item(at: path) else { return nil }
        if let height = rowHeights.height(for: item) { return height }
        let model = item.model
        if let (presenter, _) = presenters.resolve(model), let height = presenter.height(model) { return height }
        return dispatch.height(for: model, at: path)
    }

    public func listView(_ listView: any ListView, needsMeasuringItemAt path: ItemPath) -> Bool {
        displayed.item(at: path).map { rowHeights.isEstimate(for: $0) } ?? false
    }

    public func listView(_ listView: any ListView, didMeasureHeight height: Double, forItemAt path: ItemPath) {
        guard let item = displayed.item(at: path) else { return }
        rowHeights.didMeasure(item, height: height)
    }

    public func listView(_ listView: any ListView, didSelectItemAt path: ItemPath) {
        guard let model = displayed.item(at: path)?.model else { return }
        if let (presenter, _) = presenters.resolve(model) {
            presenter.select(model)
            return
        }
        if dispatch.select(model, at: path) == nil, let error = model as? ErrorPlaceholder, error.canRetry {
            onRetry?()
        }
    }
}

extension ItemID {
    /// The identity `object` would have as a row, if it is `Identifiable`.
    init?(anyModel object: Any) {
        guard let identifiable = object as? any Identifiable else { return nil }
        self.init(opening: identifiable)
    }

    private init<Model: Identifiable>(opening model: Model) {
        // The object handed to `provideResource` is `Sendable`, so its stored
        // identifier is too; `Sendable` is a marker with no runtime layout.
        let id = unsafeBitCast(model.id as any Hashable, to: (any Hashable & Sendable).self)
        self.init(type: Model.self, erasedID: id)
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
        sections.map { DiffSection(id: $0.id, content: SectionHeader(header: $0.header, footer: $0.footer), elements: $0.items) }
    }
}

/// A section's titles, compared by the diff to report section updates.
struct SectionHeader: Equatable, Sendable {
    var header: String?
    var footer: String?
}

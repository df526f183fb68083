/// Maps model types to cells (Nimbus `NICellFactory`, Instant Cocoa's
/// `registerCellClass:forModelClass:`), and builds configured cells.
///
/// Resolution order for a model:
/// 1. an explicit registration: the model's exact type, else the nearest
///    registered superclass, else a registered protocol it conforms to (of
///    several, the one registered first; registering it again keeps its place);
/// 2. the model's own choice, if it adopts ``CellModel``;
/// 3. the ``defaultCell``: a ``TextCell`` that shows the model's description.
///    The first miss per model type is reported once to ``diagnostics``.
///
/// Resolution runs once per concrete model type and is cached. Registering a
/// type again replaces its earlier registration.
///
/// ```swift
/// final class UserCell: TextCell {}
/// struct User: Identifiable, Sendable { let id: Int; var name: String }
///
/// @MainActor func makeRegistry() -> CellRegistry {
///     let registry = CellRegistry()
///     registry.register(UserCell.self, for: User.self) { cell, user in
///         cell.text = user.name
///     }
///     return registry
/// }
/// ```
@MainActor
public final class CellRegistry {
    /// How a model got its cell.
    public enum Origin: Hashable, Sendable {
        /// An explicit registration, matched as described.
        case registered(TypeMatch)
        /// The model's own ``CellModel/cellSource``.
        case modelChoice
        /// Nothing matched: the default cell.
        case defaultCell
    }

    /// A resolved binding: where the cell comes from, and how to configure it.
    ///
    /// A class, so that handing the cached binding to every row costs one retain.
    public final class Binding {
        /// The cell source.
        public let source: CellSource
        /// How the binding was found.
        public let origin: Origin
        /// Configures a cell; returns `false` when it takes another cell type (reported, skipped).
        let configure: (@MainActor (AnyObject, Any) -> Bool)?

        init(source: CellSource, origin: Origin, configure: (@MainActor (AnyObject, Any) -> Bool)?) {
            self.source = source
            self.origin = origin
            self.configure = configure
        }
    }

    struct Registration {
        let source: CellSource
        let configure: (@MainActor (AnyObject, Any) -> Bool)?
    }

    private var table = TypeTable<Registration>()
    private var cache: [ObjectIdentifier: Binding] = [:]
    private var recentBindings = RecentTypes<Binding>()
    /// Whether each cell class seen adopts ``UpdatableCell``: a conformance cast per row costs more than this look-up.
    private var updatableCells = RecentTypes<Bool>()
    private var reportedMisses: Set<ObjectIdentifier> = []

    /// The cell for models nothing else maps (Instant Cocoa's `defaultCellClass`).
    public var defaultCell: CellSource { didSet { clearCache() } }
    /// Where misses and misuses are reported. Default: standard error.
    public var diagnostics: DiagnosticHandler

    /// Creates a registry with the placeholder cells registered.
    public init(defaultCell: CellSource = .type(TextCell.self), diagnostics: DiagnosticHandler = .standardError) {
        self.defaultCell = defaultCell
        self.diagnostics = diagnostics
        // With no configure closure, a placeholder's registration gets the built-in one.
        register(LoadingCell.self, for: LoadingPlaceholder.self)
        register(NoResultsCell.self, for: NoResultsPlaceholder.self)
        register(ErrorCell.self, for: ErrorPlaceholder.self)
        register(LoadMoreCell.self, for: LoadMorePlaceholder.self)
    }

    /// The built-in configure of a placeholder's rows (`nil` for any other model type): what
    /// a registration for ``LoadingPlaceholder``, ``NoResultsPlaceholder``, ``ErrorPlaceholder`` or
    /// ``LoadMorePlaceholder`` gets when it brings no configure closure. A ``TextCell`` shows the
    /// placeholder's text (and the retry hint as its detail line when the row retries), a
    /// ``LoadingCell`` runs its spinner while loading, an ``ErrorCell`` or ``LoadMoreCell`` gets the error
    /// (and an ``ErrorCell`` ``ErrorCell/canRetry``).
    static func placeholderConfigure(for model: Any.Type) -> (@MainActor (AnyObject, Any) -> Bool)? {
        if model == LoadingPlaceholder.self {
            return { cell, model in
                guard let placeholder = model as? LoadingPlaceholder else { return true }
                (cell as? TextCell)?.text = placeholder.message
                (cell as? LoadingCell)?.isAnimating = true
                return true
            }
        }
        if model == NoResultsPlaceholder.self {
            return { cell, model in
                guard let placeholder = model as? NoResultsPlaceholder else { return true }
                (cell as? TextCell)?.text = placeholder.message
                return true
            }
        }
        if model == ErrorPlaceholder.self {
            return { cell, model in
                guard let placeholder = model as? ErrorPlaceholder else { return true }
                if let cell = cell as? TextCell {
                    cell.text = placeholder.message
                    cell.detailText = placeholder.canRetry ? placeholder.retryHint : nil
                }
                if let cell = cell as? ErrorCell {
                    cell.error = placeholder.error
                    cell.canRetry = placeholder.canRetry
                }
                return true
            }
        }
        if model == LoadMorePlaceholder.self {
            return { cell, model in
                guard let placeholder = model as? LoadMorePlaceholder else { return true }
                if let cell = cell as? TextCell {
                    cell.text = placeholder.text
                    cell.detailText = placeholder.isFailed ? placeholder.retryHint : nil
                }
                (cell as? LoadingCell)?.isAnimating = !placeholder.isFailed
                (cell as? LoadMoreCell)?.error = placeholder.error
                return true
            }
        }
        return nil
    }

    // MARK: Registering

    /// Maps `Model` (a class, a struct, or a protocol type such as `(any Named).self`)
    /// to cells of `source`, optionally configured by `configure`.
    ///
    /// `Cell` must be the source's cell type (or a supertype of it); a mismatch is
    /// reported once and the handler is skipped.
    ///
    /// Without `configure`, something else sets the cell up: the cell itself
    /// (``UpdatableCell``, for a model its `Model` takes), a dispatch configure handler, or,
    /// for the placeholder rows (``LoadingPlaceholder``, ``NoResultsPlaceholder``,
    /// ``ErrorPlaceholder``, ``LoadMorePlaceholder``), the built-in configure, which shows the
    /// placeholder's text in any ``TextCell``, runs a ``LoadingCell``'s spinner and gives an
    /// ``ErrorCell`` its error and ``ErrorCell/canRetry``. A cell that nothing sets up is not
    /// left blank silently: a ``TextCell`` shows the model's description, as the default cell
    /// does, and the first such row of each model type and cell type is reported (a
    /// ``Diagnostic/Kind/missingRegistration`` diagnostic; a
    /// ``Diagnostic/Kind/cellTypeMismatch`` one for an ``UpdatableCell`` whose `Model` does not
    /// take the model, naming both types). A configure closure or dispatch configure handler
    /// that takes another cell type does not set the cell up: it is skipped and reported once (a
    /// ``Diagnostic/Kind/cellTypeMismatch`` diagnostic), and a ``TextCell`` shows the model's
    /// description as if there were no handler. With `configure`, a placeholder's registration sets
    /// up the cell itself: its text (the placeholder's `message`), a ``LoadingCell``'s
    /// ``LoadingCell/isAnimating``, an ``ErrorCell``'s ``ErrorCell/canRetry``.
    @inlinable
    public func register<Model, Cell: AnyObject>(
        _ source: CellSource, for model: Model.Type,
        configure: (@MainActor (Cell, Model) -> Void)? = nil
    ) {
        // `@inlinable`, so that the wrapper's casts of the cell and the model
        // are specialised for the caller's concrete types: generic casts through
        // the runtime would cost every row more than the look-up of its binding.
        var wrapped: (@MainActor (AnyObject, Any) -> Bool)?
        if let handler = configure {
            let report: @MainActor (AnyObject, Any) -> Void = { [weak self] cell, model in
                self?.reportMismatch(cell: cell, expected: Cell.self, model: model)
            }
            wrapped = { cell, model in
                guard let typedCell = cell as? Cell else {
                    report(cell, model)
                    return false
                }
                // A `switch` pattern casts `model` in place (`as?` copies the
                // existential first) and, where this wrapper is not specialised,
                // needs no metadata of `Optional<Model>`.
                switch model {
                case let typedModel as Model:
                    handler(typedCell, typedModel)
                    return true
                default:
                    report(cell, model)
                    return false
                }
            }
        }
        store(source, configure: wrapped, for: model)
    }

    /// Maps `Model` to cells of `source` with no configure handler: the cell updates
    /// itself (``UpdatableCell``), or a presenter or a dispatch handler configures it.
    ///
    /// ```swift
    /// final class BannerCell: ListCell { init() {} }
    /// struct Banner {}
    /// let factory = CellSource.type(BannerCell.self, style: "compact")
    /// let registry = CellRegistry()
    /// registry.register(factory, for: Banner.self)
    /// ```
    public func register<Model>(_ source: CellSource, for model: Model.Type) {
        store(source, configure: nil, for: model)
    }

    /// Sets the registration of `Model` (behind the `@inlinable` `register`, so the table stays internal).
    @usableFromInline
    func store<Model>(_ source: CellSource, configure: (@MainActor (AnyObject, Any) -> Bool)?, for model: Model.Type) {
        // A second registration for the same model type replaces the first (documented above);
        // a placeholder's registration with no configure keeps the built-in one.
        // Not `??`: through its generic parameter the closure would be reabstracted, and
        // every row's configure would then pay two conversion thunks.
        let handler: (@MainActor (AnyObject, Any) -> Bool)?
        if let configure { handler = configure } else { handler = Self.placeholderConfigure(for: model) }
        table.set(Registration(source: source, configure: handler), for: model)
        clearCache()
    }

    /// Maps `Model` to cells of type `Cell`, built with `init()`, in `style`.
    @inlinable
    public func register<Model, Cell: ListCell>(
        _ cell: Cell.Type, for model: Model.Type, style: CellStyle = .default,
        configure: (@MainActor (Cell, Model) -> Void)? = nil
    ) {
        register(CellSource.type(cell, style: style), for: model, configure: configure)
    }

    /// Removes the registration for exactly `Model`.
    public func unregister<Model>(_ model: Model.Type) {
        table.remove(model)
        clearCache()
    }

    private func clearCache() {
        cache.removeAll()
        recentBindings.removeAll()
    }

    // MARK: Resolving

    /// The binding for `model`: registration, the model's own choice, or the default cell.
    public func binding(for model: Any) -> Binding {
        let key = ObjectIdentifier(type(of: model))
        if let recent = recentBindings.value(for: key) { return recent }
        if let cached = cache[key] {
            recentBindings.insert(cached, for: key)
            return cached
        }
        let binding: Binding
        if let (registration, match) = table.resolve(model) {
            binding = Binding(source: registration.source, origin: .registered(match), configure: registration.configure)
        } else if let own = model as? any CellModel {
            binding = Binding(source: type(of: own).cellSource, origin: .modelChoice, configure: nil)
        } else {
            binding = Binding(source: defaultCell, origin: .defaultCell, configure: nil)
            if reportedMisses.insert(key).inserted {
                diagnostics(Diagnostic(
                    .missingRegistration,
                    "no cell registered for \(type(of: model)); showing it with the default cell \(defaultCell.reuseIdentifier). Register one with register(_:for:) or adopt CellModel."
                ))
            }
        }
        cache[key] = binding
        recentBindings.insert(binding, for: key)
        return binding
    }

    /// Configures `cell` for `model` with `binding`: the registration's handler,
    /// then ``UpdatableCell/update(with:)`` if the cell adopts it. A default
    /// ``TextCell`` with nothing else to show gets the model's description; so does a
    /// registered one that nothing sets up (see ``register(_:for:configure:)``), reported once.
    /// Returns whether the cell reported a change: what ``UpdatableCell/update(with:)``
    /// returned, `true` when it cannot tell (no ``UpdatableCell``). CellKit itself does not use
    /// it (a ``ListController`` shows whatever the cell set); it is there for a data source of
    /// your own, as Nimbus's `shouldUpdateCellWithObject:` result was.
    /// `path`, when given, is named by the diagnostic of a handler that gets
    /// another cell type than it expects.
    @discardableResult
    public func configure(_ cell: AnyObject, with model: Any, binding: Binding, at path: ItemPath? = nil) -> Bool {
        configure(cell, with: model, binding: binding, at: path, dispatch: nil)
    }

    /// ``configure(_:with:binding:at:)``, with `dispatch`'s configure handler for the model, when
    /// given, run after the registry's steps and counted among what sets the cell up: the
    /// controller's rows (`RowBinding`), which always have a `path` to name.
    @discardableResult
    func configure(_ cell: AnyObject, with model: Any, binding: Binding, at path: ItemPath?, dispatch: DispatchTable?) -> Bool {
        // Set up by anything: the default cell's text, the registration's configure, an
        // UpdatableCell that takes the model, a dispatch handler. Else showUnconfigured, which
        // reports it unless a closure or handler that takes another cell type was skipped
        // (that was reported already).
        var configured = false, skipped = false
        var changed = true
        configuringPath = path
        if case .defaultCell = binding.origin, let textCell = cell as? TextCell {
            textCell.prepareForReuse()
            textCell.text = TextCell.defaultText(for: model)
            configured = true
        }
        // Called through `?.`, not bound with `if let`: a bound copy of the closure cost every
        // row a retain and a release of its context (dispatch-registry 142.0M -> 149.0M).
        if let ran = binding.configure?(cell, model) {
            if ran { configured = true } else { skipped = true }
        }
        let cellType = ObjectIdentifier(type(of: cell))
        let adopts: Bool
        if let known = updatableCells.value(for: cellType) {
            adopts = known
        } else {
            adopts = cell is any UpdatableCell
            updatableCells.insert(adopts, for: cellType)
        }
        if adopts, let updatable = cell as? any UpdatableCell, let updated = updatable._update(withAny: model) {
            changed = updated
            configured = true
        }
        configuringPath = nil
        if let dispatch, let path, let handler = dispatch.runConfigure(cell, with: model, at: path) {
            if handler.ran { configured = true } else { skipped = true }
        }
        if !configured { showUnconfigured(cell, with: model, binding: binding, at: path, report: !skipped) }
        return changed
    }

    /// `cell`, which nothing set up for `model` (no configure closure, no dispatch configure
    /// handler, no ``UpdatableCell`` that takes it): a ``TextCell`` shows the model's description
    /// (CellKit never leaves a row blank), and the first such row of each model type and cell
    /// type is reported, naming both, unless `report` is `false` (a configure closure or dispatch
    /// handler that takes another cell type was skipped and reported). The default cell is left
    /// alone: its miss was reported.
    private func showUnconfigured(_ cell: AnyObject, with model: Any, binding: Binding, at path: ItemPath?, report: Bool) {
        if case .defaultCell = binding.origin { return }
        if let textCell = cell as? TextCell { textCell.text = TextCell.defaultText(for: model) }
        guard report else { return }
        let key = [ObjectIdentifier(type(of: model)), ObjectIdentifier(type(of: cell))]
        guard reportedUnconfigured.insert(key).inserted else { return }
        let row = path.map { " (section \($0.section), row \($0.item))" } ?? ""
        let shows = cell is TextCell ? "it shows the model's description" : "it shows nothing"
        if let updatable = cell as? any UpdatableCell {
            diagnostics(Diagnostic(
                .cellTypeMismatch,
                "\(type(of: cell)) is an UpdatableCell of \(Self.modelType(of: updatable)) and cannot show a \(type(of: model))\(row); \(shows). Register it for a model its update(with:) takes, or give the registration for \(type(of: model)) a configure closure"
            ))
        } else {
            diagnostics(Diagnostic(
                .missingRegistration,
                "the cell \(type(of: cell)) for \(type(of: model))\(row) has no configure closure, no dispatch configure handler and no update(with:) that takes it; \(shows). Pass a configure closure to register(_:for:), or adopt UpdatableCell"
            ))
        }
    }

    /// The `Model` of an ``UpdatableCell``.
    private static func modelType<Cell: UpdatableCell>(of cell: Cell) -> Any.Type { Cell.Model.self }

    /// A configured cell for `model` at `path`, dequeued from `listView`
    /// (Nimbus's `cellForTableView:atIndexPath:withObject:`). Never nil: an
    /// unmapped model gets the default cell.
    ///
    /// Use it from a data source of your own (the first level of adoption).
    public func cell(for model: Any, in listView: any ListView, at path: ItemPath) -> AnyObject {
        let binding = binding(for: model)
        let cell = dequeue(binding.source, from: listView, at: path)
        configure(cell, with: model, binding: binding, at: path)
        return cell
    }

    /// Dequeues a cell of `source` from `listView` (which registers it on first use).
    public func dequeue(_ source: CellSource, from listView: any ListView, at path: ItemPath) -> AnyObject {
        listView.dequeueReusableCell(source, for: path)
    }

    private var mismatches = MismatchReporter()
    /// The (model type, cell type) pairs reported as set up by nothing (``showUnconfigured(_:with:binding:at:)``).
    private var reportedUnconfigured: Set<[ObjectIdentifier]> = []
    /// The row being configured, for the mismatch diagnostic.
    private var configuringPath: ItemPath?

    @usableFromInline
    func reportMismatch(cell: AnyObject, expected: Any.Type, model: Any) {
        mismatches.report(cell: cell, expected: expected, model: model, at: configuringPath, to: diagnostics)
    }
}

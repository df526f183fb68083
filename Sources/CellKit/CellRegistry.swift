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
        let configure: (@MainActor (AnyObject, Any) -> Void)?

        init(source: CellSource, origin: Origin, configure: (@MainActor (AnyObject, Any) -> Void)?) {
            self.source = source
            self.origin = origin
            self.configure = configure
        }
    }

    struct Registration {
        let source: CellSource
        let configure: (@MainActor (AnyObject, Any) -> Void)?
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
        register(LoadingCell.self, for: LoadingPlaceholder.self) { cell, placeholder in
            cell.text = placeholder.message
            cell.isAnimating = true
        }
        register(NoResultsCell.self, for: NoResultsPlaceholder.self) { cell, placeholder in
            cell.text = placeholder.message
        }
        register(ErrorCell.self, for: ErrorPlaceholder.self) { cell, placeholder in
            cell.text = placeholder.message
            cell.error = placeholder.error
            cell.canRetry = placeholder.canRetry
            cell.detailText = placeholder.canRetry ? placeholder.retryHint : nil
        }
        register(LoadMoreCell.self, for: LoadMorePlaceholder.self) { cell, placeholder in
            cell.text = placeholder.text
            cell.error = placeholder.error
            cell.isAnimating = !placeholder.isFailed
            cell.detailText = placeholder.isFailed ? placeholder.retryHint : nil
        }
    }

    // MARK: Registering

    /// Maps `Model` (a class, a struct, or a protocol type such as `(any Named).self`)
    /// to cells of `source`, optionally configured by `configure`.
    ///
    /// `Cell` must be the source's cell type (or a supertype of it); a mismatch is
    /// reported once and the handler is skipped.
    @inlinable
    public func register<Model, Cell: AnyObject>(
        _ source: CellSource, for model: Model.Type,
        configure: (@MainActor (Cell, Model) -> Void)? = nil
    ) {
        // `@inlinable`, so that the wrapper's casts of the cell and the model
        // are specialised for the caller's concrete types: generic casts through
        // the runtime would cost every row more than the look-up of its binding.
        var wrapped: (@MainActor (AnyObject, Any) -> Void)?
        if let handler = configure {
            let report: @MainActor (AnyObject, Any) -> Void = { [weak self] cell, model in
                self?.reportMismatch(cell: cell, expected: Cell.self, model: model)
            }
            wrapped = { cell, model in
                guard let typedCell = cell as? Cell else {
                    report(cell, model)
                    return
                }
                // A `switch` pattern casts `model` in place (`as?` copies the
                // existential first) and, where this wrapper is not specialised,
                // needs no metadata of `Optional<Model>`.
                switch model {
                case let typedModel as Model: handler(typedCell, typedModel)
                default: report(cell, model)
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
    func store<Model>(_ source: CellSource, configure: (@MainActor (AnyObject, Any) -> Void)?, for model: Model.Type) {
        // A second registration for the same model type replaces the first (documented above).
        table.set(Registration(source: source, configure: configure), for: model)
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
    /// ``TextCell`` with nothing else to show gets the model's description.
    /// Returns whether the cell reported a change (`true` when it cannot tell).
    /// `path`, when given, is named by the diagnostic of a handler that gets
    /// another cell type than it expects.
    @discardableResult
    public func configure(_ cell: AnyObject, with model: Any, binding: Binding, at path: ItemPath? = nil) -> Bool {
        configuringPath = path
        defer { configuringPath = nil }
        if case .defaultCell = binding.origin, let textCell = cell as? TextCell {
            textCell.prepareForReuse()
            textCell.text = TextCell.defaultText(for: model)
        }
        binding.configure?(cell, model)
        let cellType = ObjectIdentifier(type(of: cell))
        let adopts: Bool
        if let known = updatableCells.value(for: cellType) {
            adopts = known
        } else {
            adopts = cell is any UpdatableCell
            updatableCells.insert(adopts, for: cellType)
        }
        if adopts, let updatable = cell as? any UpdatableCell, let changed = updatable._update(withAny: model) {
            return changed
        }
        return true
    }

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
    /// The row being configured, for the mismatch diagnostic.
    private var configuringPath: ItemPath?

    @usableFromInline
    func reportMismatch(cell: AnyObject, expected: Any.Type, model: Any) {
        mismatches.report(cell: cell, expected: expected, model: model, at: configuringPath, to: diagnostics)
    }
}

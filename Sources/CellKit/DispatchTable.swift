/// Typed handlers per model type for configure, select, height and resource
/// updates (Instant Cocoa's `cellConfigurationDelegate`, without selectors).
///
/// Each kind of handler resolves with the same fallback order as Instant
/// Cocoa's `configureCell:with<ModelName>:` → `with<ModelClassName>:` →
/// `withObject:`: the model's exact type → the nearest registered superclass →
/// a registered protocol (of several the model conforms to, the one registered first)
/// → the catch-all for any object → the default
/// (configure and select do nothing; height is the list's default).
/// Resolution happens once per concrete type, then is cached. One handler of each
/// kind per model type: registering a type again replaces its earlier handler of
/// that kind (a second `onSelect(Photo.self)` replaces the first, as a second
/// `register(_:for:)` does).
///
/// The built-in placeholder rows (``LoadingPlaceholder``, ``NoResultsPlaceholder``,
/// ``ErrorPlaceholder``, ``LoadMorePlaceholder``) take only handlers registered
/// for their own type: a catch-all or a protocol or supertype handler leaves them
/// their built-in look, height and tap (retry).
///
/// ```swift
/// final class UserCell: TextCell {}
/// struct User: Identifiable, Sendable { let id: Int; var name: String; var bio: String }
///
/// @MainActor func wire(_ table: DispatchTable) {
///     table.configure(User.self) { (cell: UserCell, user) in
///         cell.text = user.name
///         cell.detailText = user.bio
///     }
///     table.onSelect(User.self) { user, _ in print("selected", user.name) }
///     table.height(for: User.self) { _ in 2 }
/// }
/// ```
@MainActor
public final class DispatchTable {
    @usableFromInline typealias ConfigureHandler = @MainActor (AnyObject, Any, ItemPath) -> Bool
    @usableFromInline typealias SelectHandler = @MainActor (Any, ItemPath) -> Void
    @usableFromInline typealias HeightHandler = @MainActor (Any, ItemPath) -> Double
    @usableFromInline typealias ResourceHandler = @MainActor (AnyObject, Any, ResourceUpdate) -> Void

    var configureTable = TypeTable<ConfigureHandler>()
    var selectTable = TypeTable<SelectHandler>()
    var heightTable = TypeTable<HeightHandler>()
    var resourceTable = TypeTable<ResourceHandler>()

    /// Where a handler that got the wrong cell type is reported.
    public var diagnostics: DiagnosticHandler
    private var mismatches = MismatchReporter()

    /// Creates an empty table.
    public init(diagnostics: DiagnosticHandler = .standardError) {
        self.diagnostics = diagnostics
    }

    // MARK: Registering

    // The registering methods are `@inlinable` so that the wrappers they build
    // (the casts of the cell and the model to the handler's types) are
    // specialised for the caller's concrete types: generic casts through the
    // runtime would cost every row more than the look-up of its handler.

    /// Configures cells showing a `Model` (a type, a superclass, or a protocol type).
    @inlinable
    public func configure<Model, Cell>(_ model: Model.Type, _ handler: @escaping @MainActor (Cell, Model) -> Void) {
        store(typedConfigure(handler), for: model)
    }

    /// Configures cells showing any model that no more specific handler takes (`configureCell:withObject:`).
    ///
    /// The built-in placeholder rows (loading, no results, error, load more) are
    /// not handed to it: they keep their built-in look unless configured for
    /// their own type (`configure(ErrorPlaceholder.self) { ... }`).
    @inlinable
    public func configureAny<Cell>(_ handler: @escaping @MainActor (Cell, Any) -> Void) {
        storeAny(typedConfigure(handler))
    }

    /// Handles selection of rows showing a `Model` (`tableView:didSelect<ModelName>:`).
    /// Registering a type again replaces its earlier select handler.
    @inlinable
    public func onSelect<Model>(_ model: Model.Type, _ handler: @escaping @MainActor (Model, ItemPath) -> Void) {
        store({ m, path in handler(Self.cast(m, to: Model.self), path) } as SelectHandler, for: model)
    }

    /// Handles selection of any row no more specific handler takes (`didSelectObject:`).
    public func onSelectAny(_ handler: @escaping @MainActor (Any, ItemPath) -> Void) {
        selectTable.catchAll = handler
    }

    /// The height of rows showing a `Model` (`tableView:heightFor<ModelName>:`).
    @inlinable
    public func height<Model>(for model: Model.Type, _ handler: @escaping @MainActor (Model) -> Double) {
        store({ m, _ in handler(Self.cast(m, to: Model.self)) } as HeightHandler, for: model)
    }

    /// The height of any row no more specific handler takes (`heightForObject:`).
    public func heightAny(_ handler: @escaping @MainActor (Any) -> Double) {
        heightTable.catchAll = { m, _ in handler(m) }
    }

    /// Updates a visible cell showing a `Model` when a resource it shows arrives
    /// (for cells bound through the registry; presenters have their own update).
    @inlinable
    public func onResource<Model, Cell>(_ model: Model.Type, _ handler: @escaping @MainActor (Cell, Model, ResourceUpdate) -> Void) {
        store({ [weak self] cell, m, update in
            guard let typed = cell as? Cell else {
                self?.reportMismatch(cell: cell, expected: Cell.self, model: m, at: nil)
                return
            }
            handler(typed, Self.cast(m, to: Model.self), update)
        } as ResourceHandler, for: model)
    }

    // The stores behind the `@inlinable` registering methods: each sets a wrapped
    // handler for `Model` in its table (not inlined, so the tables stay internal).

    @usableFromInline
    func store<Model>(_ handler: @escaping ConfigureHandler, for model: Model.Type) {
        configureTable.set(handler, for: model)
    }

    @usableFromInline
    func storeAny(_ handler: @escaping ConfigureHandler) {
        configureTable.catchAll = handler
    }

    @usableFromInline
    func store<Model>(_ handler: @escaping SelectHandler, for model: Model.Type) {
        selectTable.set(handler, for: model)
    }

    @usableFromInline
    func store<Model>(_ handler: @escaping HeightHandler, for model: Model.Type) {
        heightTable.set(handler, for: model)
    }

    @usableFromInline
    func store<Model>(_ handler: @escaping ResourceHandler, for model: Model.Type) {
        resourceTable.set(handler, for: model)
    }

    // MARK: Dispatching

    /// Runs the configure handler that matches `model`; returns how it matched, or `nil` (the default: nothing).
    @discardableResult
    public func configure(_ cell: AnyObject, with model: Any, at path: ItemPath) -> TypeMatch? {
        runConfigure(cell, with: model, at: path)?.match
    }

    /// ``configure(_:with:at:)``, also saying whether the handler ran: `false` when it takes
    /// another cell type than `cell`'s (reported, and skipped).
    func runConfigure(_ cell: AnyObject, with model: Any, at path: ItemPath) -> (match: TypeMatch, ran: Bool)? {
        guard let (handler, match) = Self.admitted(configureTable.resolve(model), for: model) else { return nil }
        return (match, handler(cell, model, path))
    }

    /// Runs the select handler that matches `model`; returns how it matched, or `nil` (the default: nothing).
    @discardableResult
    public func select(_ model: Any, at path: ItemPath) -> TypeMatch? {
        guard let (handler, match) = Self.admitted(selectTable.resolve(model), for: model) else { return nil }
        handler(model, path)
        return match
    }

    /// Whether a select handler would take `model` (without calling it).
    func handlesSelect(of model: Any) -> Bool {
        Self.admitted(selectTable.resolve(model), for: model) != nil
    }

    /// The height for `model`, or `nil` when no handler matches (the list's default applies).
    public func height(for model: Any, at path: ItemPath) -> Double? {
        Self.admitted(heightTable.resolve(model), for: model).map { $0.value(model, path) }
    }

    /// Runs the resource handler that matches `model`; returns whether one ran.
    @discardableResult
    public func resource(_ update: ResourceUpdate, cell: AnyObject, model: Any) -> Bool {
        guard let (handler, _) = Self.admitted(resourceTable.resolve(model), for: model) else { return false }
        handler(cell, model, update)
        return true
    }

    /// A resolved handler, unless `model` is a built-in placeholder and the handler is not for its own type.
    private static func admitted<Value>(_ resolved: (value: Value, match: TypeMatch)?, for model: Any) -> (value: Value, match: TypeMatch)? {
        guard let resolved, resolved.match != .exact, isBuiltInPlaceholder(model) else { return resolved }
        return nil
    }

    /// Whether `model` is one of the list's own placeholder rows.
    static func isBuiltInPlaceholder(_ model: Any) -> Bool {
        model is LoadingPlaceholder || model is NoResultsPlaceholder || model is ErrorPlaceholder || model is LoadMorePlaceholder
    }

    /// Whether any height handler is registered (lists may skip per-row height calls otherwise).
    public var hasHeightHandlers: Bool { !heightTable.isEmpty }

    /// A handler that casts the cell and the model to the types `handler` takes, and
    /// returns whether it ran: a cell of another type is reported and skipped.
    @inlinable
    func typedConfigure<Cell, Model>(_ handler: @escaping @MainActor (Cell, Model) -> Void) -> ConfigureHandler {
        { [weak self] cell, model, path in
            guard let typed = cell as? Cell else {
                self?.reportMismatch(cell: cell, expected: Cell.self, model: model, at: path)
                return false
            }
            handler(typed, Self.cast(model, to: Model.self))
            return true
        }
    }

    /// `model` as a `Model`, the type its handler was resolved for.
    ///
    /// A `switch` pattern rather than `as!`: it casts `model` in place (`as!`
    /// copies the existential first) and, unspecialised, needs no metadata of
    /// `Optional<Model>` as `as?` would.
    @inlinable
    static func cast<Model>(_ model: Any, to _: Model.Type) -> Model {
        switch model {
        case let model as Model: model
        default: preconditionFailure("DispatchTable: a \(type(of: model)) reached a handler for \(Model.self)")
        }
    }

    @usableFromInline
    func reportMismatch(cell: AnyObject, expected: Any.Type, model: Any, at path: ItemPath?) {
        mismatches.report(cell: cell, expected: expected, model: model, at: path, to: diagnostics)
    }
}

/// A resource of some object that arrived (Coffee's updated object and key).
public struct ResourceUpdate: Sendable {
    /// The object whose resource changed (a user whose image arrived).
    public let object: any Sendable
    /// Which resource changed (`"image"`).
    public let key: ResourceKey
    /// The resource itself, if the sender passed it along.
    public let value: (any Sendable)?

    /// Creates an update.
    public init(object: any Sendable, key: ResourceKey, value: (any Sendable)? = nil) {
        self.object = object
        self.key = key
        self.value = value
    }
}

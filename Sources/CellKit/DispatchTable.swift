/// Typed handlers per model type for configure, select, height and resource
/// updates (Instant Cocoa's `cellConfigurationDelegate`, without selectors).
///
/// Each kind of handler resolves with the same fallback order as Instant
/// Cocoa's `configureCell:with<ModelName>:` → `with<ModelClassName>:` →
/// `withObject:`: the model's exact type → the nearest registered superclass or
/// a registered protocol → the catch-all for any object → the default
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
    typealias ConfigureHandler = @MainActor (AnyObject, Any, ItemPath) -> Void
    typealias SelectHandler = @MainActor (Any, ItemPath) -> Void
    typealias HeightHandler = @MainActor (Any, ItemPath) -> Double
    typealias ResourceHandler = @MainActor (AnyObject, Any, ResourceUpdate) -> Void

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

    /// Configures cells showing a `Model` (a type, a superclass, or a protocol type).
    public func configure<Model, Cell>(_ model: Model.Type, _ handler: @escaping @MainActor (Cell, Model) -> Void) {
        configureTable.set(typedConfigure(handler), for: model)
    }

    /// Configures cells showing any model that no more specific handler takes (`configureCell:withObject:`).
    ///
    /// The built-in placeholder rows (loading, no results, error, load more) are
    /// not handed to it: they keep their built-in look unless configured for
    /// their own type (`configure(ErrorPlaceholder.self) { ... }`).
    public func configureAny<Cell>(_ handler: @escaping @MainActor (Cell, Any) -> Void) {
        configureTable.catchAll = typedConfigure(handler)
    }

    /// Handles selection of rows showing a `Model` (`tableView:didSelect<ModelName>:`).
    /// Registering a type again replaces its earlier select handler.
    public func onSelect<Model>(_ model: Model.Type, _ handler: @escaping @MainActor (Model, ItemPath) -> Void) {
        selectTable.set({ m, path in handler(m as! Model, path) }, for: model)
    }

    /// Handles selection of any row no more specific handler takes (`didSelectObject:`).
    public func onSelectAny(_ handler: @escaping @MainActor (Any, ItemPath) -> Void) {
        selectTable.catchAll = handler
    }

    /// The height of rows showing a `Model` (`tableView:heightFor<ModelName>:`).
    public func height<Model>(for model: Model.Type, _ handler: @escaping @MainActor (Model) -> Double) {
        heightTable.set({ m, _ in handler(m as! Model) }, for: model)
    }

    /// The height of any row no more specific handler takes (`heightForObject:`).
    public func heightAny(_ handler: @escaping @MainActor (Any) -> Double) {
        heightTable.catchAll = { m, _ in handler(m) }
    }

    /// Updates a visible cell showing a `Model` when a resource it shows arrives
    /// (for cells bound through the registry; presenters have their own update).
    public func onResource<Model, Cell>(_ model: Model.Type, _ handler: @escaping @MainActor (Cell, Model, ResourceUpdate) -> Void) {
        resourceTable.set({ [weak self] cell, m, update in
            guard let cell = cell as? Cell else {
                self?.reportMismatch(cell: cell, expected: Cell.self, model: m, at: nil)
                return
            }
            handler(cell, m as! Model, update)
        }, for: model)
    }

    // MARK: Dispatching

    /// Runs the configure handler that matches `model`; returns how it matched, or `nil` (the default: nothing).
    @discardableResult
    public func configure(_ cell: AnyObject, with model: Any, at path: ItemPath) -> TypeMatch? {
        guard let (handler, match) = Self.admitted(configureTable.resolve(model), for: model) else { return nil }
        handler(cell, model, path)
        return match
    }

    /// Runs the select handler that matches `model`; returns how it matched, or `nil` (the default: nothing).
    @discardableResult
    public func select(_ model: Any, at path: ItemPath) -> TypeMatch? {
        guard let (handler, match) = Self.admitted(selectTable.resolve(model), for: model) else { return nil }
        handler(model, path)
        return match
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

    private func typedConfigure<Cell, Model>(_ handler: @escaping @MainActor (Cell, Model) -> Void) -> ConfigureHandler {
        { [weak self] cell, model, path in
            guard let typed = cell as? Cell else {
                self?.reportMismatch(cell: cell, expected: Cell.self, model: model, at: path)
                return
            }
            handler(typed, model as! Model)
        }
    }

    private func reportMismatch(cell: AnyObject, expected: Any.Type, model: Any, at path: ItemPath?) {
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

/// A data source over content already in memory: an array, or an array of
/// arrays as sections (Instant Cocoa's `ICSimpleDataSource`, Coffee's arrays).
///
/// It is loaded from the start; setting new content publishes it, and the
/// controller diffs it against what is shown.
///
/// ```swift
/// struct Follower: Identifiable, Equatable, Sendable { let id: Int; var name: String }
///
/// @MainActor func followers(in listView: any ListView) async {
///     let source = SimpleDataSource([Follower(id: 1, name: "Ada")])
///     let controller = ListController()
///     controller.attach(to: listView)
///     controller.bind(to: source)
///     source.set([Follower(id: 1, name: "Ada"), Follower(id: 2, name: "Grace")])
///     await controller.settle()
///     assert(controller.model.itemCount == 2)
/// }
/// ```
@MainActor
public final class SimpleDataSource: ListDataSource {
    public private(set) var snapshot: ListSnapshot
    public var onSnapshot: (@MainActor (ListSnapshot) -> Void)?
    /// Where a nested edit is reported (the binding controller's diagnostics).
    var diagnostics: DiagnosticHandler = .standardError
    /// Whether the closure of an ``edit(_:)`` runs.
    private var isEditing = false

    /// Creates a source showing `model`.
    public init(model: TableModel) {
        snapshot = ListSnapshot(model, state: .settled(model))
    }

    /// Creates a one-section source showing `items`.
    @inlinable
    public convenience init<Item: Identifiable & Sendable>(_ items: [Item]) where Item.ID: Sendable {
        self.init(model: TableModel(items))
    }

    /// Creates a one-section source showing `Hashable` items that are not
    /// `Identifiable` (each row's identity is its value).
    @_disfavoredOverload
    @inlinable
    public convenience init<Item: Hashable & Sendable>(_ items: [Item]) {
        self.init(model: TableModel(items))
    }

    /// Creates a source with one section per inner array.
    @inlinable
    public convenience init<Item: Identifiable & Sendable>(sections: [[Item]]) where Item.ID: Sendable {
        self.init(model: TableModel(sections: sections))
    }

    /// Creates a source with one section per inner array of `Hashable` items
    /// that are not `Identifiable` (each row's identity is its value).
    @_disfavoredOverload
    @inlinable
    public convenience init<Item: Hashable & Sendable>(sections: [[Item]]) {
        self.init(model: TableModel(sections: sections))
    }

    /// The content shown.
    public var model: TableModel { snapshot.model }

    /// Replaces the content with `model` and publishes it.
    ///
    /// Called from inside the closure of ``edit(_:)`` it is not applied (the edit's
    /// result replaces the content when the closure returns): a
    /// ``Diagnostic/Kind/nestedEdit`` diagnostic says so.
    public func set(model: TableModel) {
        guard !isEditing else { return diagnostics(.nestedEdit(Self.self, "set(model:)")) }
        snapshot = ListSnapshot(model, state: .settled(model))
        onSnapshot?(snapshot)
    }

    /// Replaces the content with one section of `items` and publishes it.
    @inlinable
    public func set<Item: Identifiable & Sendable>(_ items: [Item]) where Item.ID: Sendable {
        set(model: TableModel(items))
    }

    /// Replaces the content with one section of `Hashable` items that are not `Identifiable` and publishes it.
    @_disfavoredOverload
    @inlinable
    public func set<Item: Hashable & Sendable>(_ items: [Item]) {
        set(model: TableModel(items))
    }

    /// Edits the content at once with ``TableModel``'s mutations (insert, remove,
    /// move, replace) and publishes it; returns what `change` returns (the paths
    /// the mutations report). The same shape as ``PaginatedDataSource/edit(_:)``;
    /// nothing loads here, so there is nothing to respect later.
    ///
    /// The closure works on a copy: while it runs, ``model`` and ``snapshot`` still
    /// show the content from before the edit, and the edit is published when it
    /// returns (also when it throws: the changes made before the throw are kept). An
    /// `edit(_:)` or `set` called from inside the closure (a helper of the screen that
    /// edits) is not applied: its closure runs on a copy of the content from before
    /// the outer edit, its result is returned, and a ``Diagnostic/Kind/nestedEdit``
    /// diagnostic naming the source type goes to the binding controller's
    /// ``ListController/diagnostics`` (standard error while none binds it). Make the
    /// change on the model handed to the outer closure, or edit again after it returns.
    ///
    /// ```swift
    /// struct Chore: Identifiable, Equatable, Sendable { let id: Int; var done = false }
    ///
    /// @MainActor func swipeToDelete() {
    ///     let source = SimpleDataSource([Chore(id: 1), Chore(id: 2), Chore(id: 3)])
    ///     let removed = source.edit { model in model.remove(at: ItemPath(item: 1, section: 0)) }
    ///     source.edit { model in _ = model.move(from: ItemPath(item: 1, section: 0), to: ItemPath(item: 0, section: 0)) }
    ///     assert(removed == [ItemPath(item: 1, section: 0)])
    ///     assert(source.model.sections[0].items.map { $0.model(as: Chore.self)!.id } == [3, 1])
    /// }
    /// ```
    @discardableResult
    public func edit<Result>(_ change: (inout TableModel) throws -> Result) rethrows -> Result {
        var model = snapshot.model
        guard !isEditing else {
            diagnostics(.nestedEdit(Self.self, "edit(_:)"))
            return try change(&model)
        }
        isEditing = true
        defer {
            isEditing = false
            set(model: model)
        }
        return try change(&model)
    }

    /// Publishes the content again.
    @discardableResult
    public func load() -> Task<Void, Never> {
        onSnapshot?(snapshot)
        return Task {}
    }
}

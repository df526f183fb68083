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
    /// Whether the closure of an ``edit(_:)`` runs, and the edits and sets made inside it, applied after it.
    private let nested = NestedEdits<TableModel>()

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
    /// Called from inside the closure of ``edit(_:)``, it applies after that edit (its
    /// content replaces the edit's result), as if called right after it.
    public func set(model: TableModel) {
        guard !nested.isEditing else { return nested.replaced(with: model) }
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
    /// returns (also when it throws: the changes made before the throw are kept).
    ///
    /// An `edit(_:)` called from inside the closure (a helper of the screen that edits
    /// the source) is applied after the outer edit, in one publication with it: its
    /// closure runs at once, on a copy of the content from before the outer edit (what
    /// reading the source shows), its result is returned, and what it changed is then
    /// replayed on the outer edit's result, rows and sections matched by identity (those
    /// that share one by content, then order: see <doc:PagingAndEdits>): the
    /// rows it removed go, the rows it changed take its version, the rows it inserted or
    /// moved go where it put them (at the top when nothing was before them, at the end
    /// when only new rows followed them, else after the row before them). A row the
    /// outer edit removed stays removed; where both changed a row, the nested edit's
    /// version shows. A ``set(model:)`` from inside the closure replaces the content
    /// after the outer edit.
    ///
    /// ```swift
    /// struct Chore: Identifiable, Equatable, Sendable { let id: Int; var done = false }
    ///
    /// @MainActor func swipeToDelete() {
    ///     let source = SimpleDataSource([Chore(id: 1), Chore(id: 2), Chore(id: 3)])
    ///     let removed = source.edit { model in model.remove(at: ItemPath(item: 1, section: 0)) }
    ///     source.edit { model in _ = model.move(from: ItemPath(item: 1, section: 0), to: ItemPath(item: 0, section: 0)) }
    ///     assert(removed == Changeset(itemDeletes: [ItemPath(item: 1, section: 0)]))
    ///     assert(source.model.sections[0].items.map { $0.model(as: Chore.self)!.id } == [3, 1])
    /// }
    /// ```
    @discardableResult
    public func edit<Result>(_ change: (inout TableModel) throws -> Result) rethrows -> Result {
        try nested.edit(snapshot.model, change, replay: EditReplay.replay) { set(model: $0) }
    }

    /// Publishes the content again.
    @discardableResult
    public func load() -> Task<Void, Never> {
        onSnapshot?(snapshot)
        return Task {}
    }
}

/// An action offered when a row is swiped (UIKit's contextual actions), in
/// platform-neutral terms.
public struct RowAction: Sendable {
    /// How the action looks.
    public enum Style: Hashable, Sendable {
        /// A plain action.
        case normal
        /// A destructive action (red in UIKit), such as delete.
        case destructive
    }

    /// The action's title.
    public var title: String
    /// How it looks.
    public var style: Style
    /// The name of a system image (an SF Symbol on Apple platforms), if any.
    public var systemImage: String?
    /// Runs the action for the row at the path; returns whether it was performed. The UIKit
    /// adapters hand it the swiped row's path at the moment the action is picked, wherever
    /// batches moved the row meanwhile, and do not run it once the row is gone
    /// (``ListViewCore/rowActions(_:offeredAt:)``).
    public var handler: @MainActor @Sendable (ItemPath) -> Bool

    /// Creates an action.
    public init(
        title: String, style: Style = .normal, systemImage: String? = nil,
        handler: @escaping @MainActor @Sendable (ItemPath) -> Bool
    ) {
        self.title = title
        self.style = style
        self.systemImage = systemImage
        self.handler = handler
    }
}

/// Per model type: whether rows can be deleted or reordered (Nimbus's
/// `canEdit` / `canMove`), what deleting and moving do, and the swipe actions.
///
/// Handlers resolve like the ``DispatchTable``: exact type → nearest registered
/// superclass or protocol → catch-all; a row whose model matches nothing can
/// neither be edited nor moved and offers no swipe actions.
///
/// ```swift
/// struct Note: Identifiable, Sendable { let id: Int; var text: String }
///
/// @MainActor func wire(_ editing: EditingTable) {
///     editing.onDelete(Note.self) { note, path in print("delete", note.id, "at", path) }
///     editing.trailingActions(Note.self) { note, _ in
///         [RowAction(title: "Pin") { _ in true }]
///     }
///     assert(editing.canDelete(Note(id: 1, text: "a"), at: ItemPath(item: 0, section: 0)))
/// }
/// ```
@MainActor
public final class EditingTable {
    typealias Predicate = @MainActor (Any, ItemPath) -> Bool
    typealias Commit = @MainActor (Any, ItemPath) -> Void
    typealias Actions = @MainActor (Any, ItemPath) -> [RowAction]

    var canEditTable = TypeTable<Predicate>()
    var deleteTable = TypeTable<Commit>()
    var canMoveTable = TypeTable<Predicate>()
    var leadingTable = TypeTable<Actions>()
    var trailingTable = TypeTable<Actions>()
    var keepsInSectionTable = TypeTable<Bool>()
    /// Called after the user moved a row from one path to another; update your data here.
    public var onMove: (@MainActor (_ from: ItemPath, _ to: ItemPath) -> Void)?

    /// The title of the destructive action a deletable row offers when it has no trailing
    /// actions of its own (``trailingActions(for:at:deleteTitle:)``): "Delete" from CellKit's
    /// strings table, in the app's language or the one the table was created with. On Apple
    /// platforms a package's strings follow the language the app runs in (the user's
    /// preferred language among the app's own localizations), not the device's: an app
    /// localized only in English shows "Delete" on a German device, unless its Info.plist
    /// sets `CFBundleAllowMixedLocalizations` or it passes `localization`.
    public var deleteTitle: String

    /// Creates an empty table whose ``deleteTitle`` is in the app's language, or in
    /// `localization` (a language code such as `"de"`); English where CellKit has no strings
    /// for it. On Linux, Foundation reports English as the user's language whatever `LANG`
    /// says: pass `localization` there to show another language.
    public init(localization: String? = nil) {
        deleteTitle = LocalizedStrings.string(.delete, localization: localization)
    }

    // MARK: Registering

    /// Rows showing a `Model` can be deleted; `handler` commits the deletion (remove the
    /// model from your data and apply it). Deletable unless ``canEdit(_:_:)`` says otherwise.
    public func onDelete<Model>(_ model: Model.Type, _ handler: @escaping @MainActor (Model, ItemPath) -> Void) {
        deleteTable.set({ m, path in handler(m as! Model, path) }, for: model)
    }

    /// Whether rows showing a `Model` can be edited (Nimbus `canEdit`).
    public func canEdit<Model>(_ model: Model.Type, _ predicate: @escaping @MainActor (Model, ItemPath) -> Bool) {
        canEditTable.set({ m, path in predicate(m as! Model, path) }, for: model)
    }

    /// Whether rows showing a `Model` can be reordered (Nimbus `canMove`); set ``onMove`` too.
    public func canMove<Model>(_ model: Model.Type, _ predicate: @escaping @MainActor (Model, ItemPath) -> Bool = { _, _ in true }) {
        canMoveTable.set({ m, path in predicate(m as! Model, path) }, for: model)
    }

    /// The actions offered when a row showing a `Model` is swiped from the leading edge.
    public func leadingActions<Model>(_ model: Model.Type, _ actions: @escaping @MainActor (Model, ItemPath) -> [RowAction]) {
        leadingTable.set({ m, path in actions(m as! Model, path) }, for: model)
    }

    /// The actions offered when a row showing a `Model` is swiped from the trailing edge.
    /// Without them, a deletable row offers the system's delete action.
    public func trailingActions<Model>(_ model: Model.Type, _ actions: @escaping @MainActor (Model, ItemPath) -> [RowAction]) {
        trailingTable.set({ m, path in actions(m as! Model, path) }, for: model)
    }

    /// Rows showing a `Model` can be reordered only within their own section: a
    /// drag into another section stops at the nearest end of the row's section.
    public func keepsInSection<Model>(_ model: Model.Type) {
        keepsInSectionTable.set(true, for: model)
    }

    // MARK: Asking

    /// Where a drag of the row showing `model` from `source` may go when the user
    /// proposes `proposed`: `proposed`, or, for models kept in their section, the
    /// nearest place inside `source`'s section (which has `rowsInSourceSection` rows).
    ///
    /// ```swift
    /// struct Note: Sendable {}
    ///
    /// @MainActor func pinNotes(_ editing: EditingTable) {
    ///     editing.keepsInSection(Note.self)
    ///     let target = editing.target(forMoving: Note(), from: ItemPath(item: 1, section: 0),
    ///                                 proposed: ItemPath(item: 0, section: 1), rowsInSourceSection: 3)
    ///     assert(target == ItemPath(item: 2, section: 0))
    /// }
    /// ```
    public func target(forMoving model: Any, from source: ItemPath, proposed: ItemPath, rowsInSourceSection: Int) -> ItemPath {
        guard proposed.section != source.section, keepsInSectionTable.resolve(model) != nil else { return proposed }
        let item = proposed.section < source.section ? 0 : max(0, rowsInSourceSection - 1)
        return ItemPath(item: item, section: source.section)
    }

    /// Whether the row showing `model` at `path` can be edited (deleted, or swiped for actions).
    public func canEdit(_ model: Any, at path: ItemPath) -> Bool {
        if let (predicate, _) = canEditTable.resolve(model) { return predicate(model, path) }
        return deleteTable.resolve(model) != nil || leadingTable.resolve(model) != nil || trailingTable.resolve(model) != nil
    }

    /// Whether the row showing `model` at `path` can be deleted.
    public func canDelete(_ model: Any, at path: ItemPath) -> Bool {
        deleteTable.resolve(model) != nil && canEdit(model, at: path)
    }

    /// Whether the row showing `model` at `path` can be moved.
    public func canMove(_ model: Any, at path: ItemPath) -> Bool {
        guard onMove != nil, let (predicate, _) = canMoveTable.resolve(model) else { return false }
        return predicate(model, path)
    }

    /// Commits the deletion of the row showing `model` at `path`; returns whether a handler ran.
    @discardableResult
    public func delete(_ model: Any, at path: ItemPath) -> Bool {
        guard canDelete(model, at: path), let (handler, _) = deleteTable.resolve(model) else { return false }
        handler(model, path)
        return true
    }

    /// The leading swipe actions for the row showing `model` at `path`.
    public func leadingActions(for model: Any, at path: ItemPath) -> [RowAction] {
        leadingTable.resolve(model)?.value(model, path) ?? []
    }

    /// The trailing swipe actions for the row showing `model` at `path`: the registered
    /// ones, or a single destructive action titled `deleteTitle` (`nil`: the table's
    /// ``deleteTitle``, "Delete" in the app's language) when the row can be deleted.
    public func trailingActions(for model: Any, at path: ItemPath, deleteTitle: String? = nil) -> [RowAction] {
        if let (actions, _) = trailingTable.resolve(model) { return actions(model, path) }
        guard canDelete(model, at: path) else { return [] }
        return [RowAction(title: deleteTitle ?? self.deleteTitle, style: .destructive) { [weak self] path in
            self?.delete(model, at: path) ?? false
        }]
    }
}

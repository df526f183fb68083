/// A cell that CellKit can build by calling `init()`.
///
/// Cells for the headless and terminal list views adopt it; UIKit cells are
/// built by their table or collection view instead (see `CellKitUIKit`).
///
/// ```swift
/// final class NoteCell: ListCell {
///     var text = ""
///     init() {}
/// }
/// ```
public protocol ListCell: AnyObject {
    /// Creates an empty cell, ready to be configured.
    @MainActor init()
    /// Clears what the previous row set, before the cell is reused for another
    /// row (the list view's reuse pool calls it). Default: nothing.
    @MainActor func prepareForReuse()
}

extension ListCell {
    /// Does nothing: a cell whose ``UpdatableCell/update(with:)`` resets everything needs no more.
    @MainActor public func prepareForReuse() {}
}

/// A cell that takes its model and says whether it changed (Nimbus `NICell`).
///
/// CellKit calls ``update(with:)`` when the cell is created and every time it
/// is reused for a row, before it is shown. Reset everything the previous model
/// may have set: cells are reused.
///
/// ```swift
/// struct Note: Sendable { var text: String }
/// final class NoteCell: ListCell, UpdatableCell {
///     var text = ""
///     init() {}
///     func update(with note: Note) -> Bool {
///         guard text != note.text else { return false }
///         text = note.text
///         return true
///     }
/// }
/// ```
public protocol UpdatableCell<Model>: AnyObject {
    /// The model type this cell shows; may be a protocol several models share.
    associatedtype Model
    /// Shows `model`; returns whether the cell changed.
    ///
    /// The row shows whatever the cell set, whatever it returns: a ``ListController``
    /// does not use the result (a content change reconfigures the row either way). It is
    /// what ``CellRegistry/configure(_:with:binding:at:)`` returns, for a data source of
    /// your own that wants it, as Nimbus left `shouldUpdateCellWithObject:`'s to subclasses.
    @MainActor func update(with model: Model) -> Bool
}

extension UpdatableCell {
    /// Calls ``update(with:)`` if `model` is of this cell's model type; `nil` otherwise.
    @MainActor
    func _update(withAny model: Any) -> Bool? {
        // A `switch` pattern: called through the existential, an `as?` would
        // look up `Optional<Model>`'s metadata on every row.
        switch model {
        case let model as Model: update(with: model)
        default: nil
        }
    }
}

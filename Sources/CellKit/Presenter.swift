/// Creates, presents, updates and handles taps on the cells of one model type
/// (Coffee's `CModelPresenterProtocol`), in a style chosen at registration.
///
/// Registering the same presenter with another style changes the presentation
/// without touching the presenter:
///
/// ```swift
/// // Coffee: kUserPresenterStyleWithByline
/// final class UserCell: TextCell { var image: String? }
/// struct User: Identifiable, Sendable { let id: Int; var name: String; var byline: String; var image: String? }
///
/// struct UserPresenter: Presenter {
///     enum Event: Sendable { case selected(User) }
///     func present(_ user: User, in cell: UserCell, style: CellStyle, context: PresentationContext<Event>) {
///         cell.text = user.name
///         cell.detailText = style == "byline" ? user.byline : nil
///         cell.image = user.image
///     }
///     func update(_ cell: UserCell, showing user: User, style: CellStyle, resource: ResourceUpdate) {
///         if resource.key == "image" { cell.image = resource.value as? String }
///     }
///     func selected(_ user: User, style: CellStyle) -> Event? { .selected(user) }
/// }
/// ```
@MainActor
public protocol Presenter<Model, Cell> {
    /// The model type presented.
    associatedtype Model
    /// The cell type used.
    associatedtype Cell: AnyObject
    /// The events this presenter's cells send (taps packaged for a delegate).
    associatedtype Event: Sendable = Never

    /// The source of cells for `style`: how the cell is created and initialised.
    func cellSource(for style: CellStyle) -> CellSource
    /// Shows `model` in `cell`, in `style`. Called on creation and on every reuse.
    func present(_ model: Model, in cell: Cell, style: CellStyle, context: PresentationContext<Event>)
    /// Updates a visible `cell` because a resource of some object it shows arrived
    /// (Coffee's `updatePresentationForCell:…withUpdatedObject:andUpdatedKey:`). Default: nothing.
    func update(_ cell: Cell, showing model: Model, style: CellStyle, resource: ResourceUpdate)
    /// The event for a tap on the row (Coffee's `cellClickedForObject:`). Default: none.
    func selected(_ model: Model, style: CellStyle) -> Event?
    /// The row height for `model` in `style`; `nil`: the list's default. Default: `nil`.
    func height(for model: Model, style: CellStyle) -> Double?
}

extension Presenter {
    public func update(_ cell: Cell, showing model: Model, style: CellStyle, resource: ResourceUpdate) {}
    public func selected(_ model: Model, style: CellStyle) -> Event? { nil }
    public func height(for model: Model, style: CellStyle) -> Double? { nil }
}

extension Presenter where Cell: ListCell {
    /// Cells built with `init()`, one reuse pool per style.
    public func cellSource(for style: CellStyle) -> CellSource { .type(Cell.self, style: style) }
}

/// What a presenter gets besides the model and cell: where the row is, and how to send events.
///
/// Keep ``emit`` in a cell's button action to send taps on controls inside the cell.
public struct PresentationContext<Event: Sendable> {
    /// The row being presented.
    public let path: ItemPath
    /// Sends an event to the handler given at registration.
    public let emit: @MainActor (Event) -> Void

    /// Creates a context.
    public init(path: ItemPath, emit: @escaping @MainActor (Event) -> Void) {
        self.path = path
        self.emit = emit
    }
}

/// A presenter registered with a style and an event handler, with its types erased.
@MainActor
struct PresenterBinding {
    let style: CellStyle
    let source: CellSource
    let present: @MainActor (AnyObject, Any, ItemPath) -> Bool
    let update: @MainActor (AnyObject, Any, ResourceUpdate) -> Bool
    let select: @MainActor (Any) -> Void
    let height: @MainActor (Any) -> Double?

    init<P: Presenter>(_ presenter: P, style: CellStyle, onEvent: @escaping @MainActor (P.Event) -> Void) {
        self.style = style
        self.source = presenter.cellSource(for: style)
        // The model casts are `switch` patterns: in this unspecialised generic
        // code an `as?` would look up `Optional<P.Model>`'s metadata on every row.
        present = { cell, model, path in
            guard let cell = cell as? P.Cell else { return false }
            switch model {
            case let model as P.Model:
                presenter.present(model, in: cell, style: style, context: PresentationContext(path: path, emit: onEvent))
                return true
            default: return false
            }
        }
        update = { cell, model, resource in
            guard let cell = cell as? P.Cell else { return false }
            switch model {
            case let model as P.Model:
                presenter.update(cell, showing: model, style: style, resource: resource)
                return true
            default: return false
            }
        }
        select = { model in
            switch model {
            case let model as P.Model:
                if let event = presenter.selected(model, style: style) { onEvent(event) }
            default: return
            }
        }
        height = { model in
            switch model {
            case let model as P.Model: presenter.height(for: model, style: style)
            default: nil
            }
        }
    }
}

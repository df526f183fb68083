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
    /// The row height for `model` in `style`; `nil`: no say, the controller's dispatch height
    /// handler for the type decides, else the list's default. Default: `nil`.
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
/// Keep the context in a cell's button action to send taps on controls inside the
/// cell: ``emit`` sends the event, and ``path`` read there is where the row is at the
/// time of the tap, also after rows were inserted or deleted above it (a row that
/// only moves is not presented again, so a path copied in `present` would name the
/// row that was there before):
///
/// ```swift
/// final class FollowCell: TextCell { var onFollow: (@MainActor () -> Void)? }
/// struct Account: Identifiable, Equatable, Sendable { let id: Int; var name: String }
///
/// struct AccountPresenter: Presenter {
///     enum Event: Sendable { case follow(ItemPath) }
///     func present(_ account: Account, in cell: FollowCell, style: CellStyle, context: PresentationContext<Event>) {
///         cell.text = account.name
///         cell.onFollow = { context.emit(.follow(context.path)) }    // read at the tap
///     }
/// }
///
/// let controller = ListController()
/// var followed: [ItemPath] = []
/// controller.addPresenter(AccountPresenter()) { event in
///     if case .follow(let path) = event { followed.append(path) }
/// }
/// let listView = HeadlessListView()
/// controller.attach(to: listView)
/// controller.apply(TableModel([Account(id: 1, name: "Ada"), Account(id: 2, name: "Bob")]))
/// controller.apply(TableModel([Account(id: 0, name: "Cy"), Account(id: 1, name: "Ada"), Account(id: 2, name: "Bob")]))
/// (listView.cell(at: ItemPath(item: 2, section: 0)) as? FollowCell)?.onFollow?()
/// assert(followed == [ItemPath(item: 2, section: 0)])                   // Bob's row now
/// ```
public struct PresentationContext<Event: Sendable> {
    /// Where the row presented is now, when read.
    ///
    /// Read in `present`, the path the row is presented at. Read later (in a cell's
    /// button action), the row's current path: the path at which its cell shows it;
    /// with the cell gone from the screen, the path it was presented at while the list
    /// has not changed since, else where the row with its identity is in what the list
    /// shows. When several rows show one identity (the same object in two sections), the
    /// one nearest to where it was presented: a row scrolled away follows its own row
    /// through inserts and deletes elsewhere, but once its own row is gone it can name
    /// another row with that identity. When no row has it any more, the path it was last
    /// presented at. A context made with ``init(path:emit:)`` always gives `path`. Kept
    /// by a cell after its controller is gone, it gives the path it was presented at
    /// (there is no list left to follow), and ``emit`` still reaches the handler the
    /// presenter was added with (a cell of a list view the app kept, tapped after the
    /// screen went): capture the screen weakly in that handler (`[weak self]`), which then
    /// finds it gone (see ``ListController/addPresenter(_:style:onEvent:)``).
    ///
    /// Cheap while the cell shows the row or the list is unchanged; otherwise it reads
    /// every row (O(n)), so read it when it is needed (at a tap), not per frame.
    @MainActor public var path: ItemPath { row?.currentPath ?? presentedPath }
    /// Sends an event to the handler given at registration.
    public let emit: @MainActor (Event) -> Void

    /// The path the row was presented at.
    private let presentedPath: ItemPath
    /// The presented row, followed to its current path (`nil`: a fixed path).
    private let row: PresentedRow?

    /// Creates a context whose ``path`` is `path` (a presenter under test).
    public init(path: ItemPath, emit: @escaping @MainActor (Event) -> Void) {
        self.presentedPath = path
        self.row = nil
        self.emit = emit
    }

    /// Creates the context of `row`, whose path follows the row.
    init(row: PresentedRow, emit: @escaping @MainActor (Event) -> Void) {
        self.presentedPath = row.presentedAt
        self.row = row
        self.emit = emit
    }
}

/// A row a presenter presented in a cell, followed to its current path through the
/// controller when a ``PresentationContext`` is asked for its ``PresentationContext/path``.
@MainActor
final class PresentedRow {
    private weak var controller: ListController?
    private weak var cell: AnyObject?
    private let id: ItemID
    /// ``ListController/displayedGeneration`` when the row was presented.
    private let generation: Int
    let presentedAt: ItemPath

    init(controller: ListController?, cell: AnyObject, id: ItemID, presentedAt: ItemPath) {
        self.controller = controller
        self.cell = cell
        self.id = id
        self.generation = controller?.displayedGeneration ?? 0
        self.presentedAt = presentedAt
    }

    /// Forgets the cell: it presents another row now.
    func cellWasReused() { cell = nil }

    /// The row's path now (see ``PresentationContext/path``).
    var currentPath: ItemPath {
        controller?.currentPath(ofRow: id, generation: generation, shownIn: cell, presentedAt: presentedAt) ?? presentedAt
    }
}

/// A presenter registered with a style and an event handler, with its types erased.
@MainActor
struct PresenterBinding {
    let style: CellStyle
    let source: CellSource
    /// The presenter's type and its `Cell`, for the diagnostic of a cell source that builds another type.
    let presenterType: Any.Type
    let cellType: Any.Type
    let present: @MainActor (AnyObject, Any, PresentedRow) -> Bool
    let update: @MainActor (AnyObject, Any, ResourceUpdate) -> Bool
    let select: @MainActor (Any) -> Void
    let height: @MainActor (Any) -> Double?

    init<P: Presenter>(_ presenter: P, style: CellStyle, onEvent: @escaping @MainActor (P.Event) -> Void) {
        self.style = style
        self.source = presenter.cellSource(for: style)
        self.presenterType = P.self
        self.cellType = P.Cell.self
        // The model casts are `switch` patterns: in this unspecialised generic
        // code an `as?` would look up `Optional<P.Model>`'s metadata on every row.
        present = { cell, model, row in
            guard let cell = cell as? P.Cell else { return false }
            switch model {
            case let model as P.Model:
                presenter.present(model, in: cell, style: style, context: PresentationContext(row: row, emit: onEvent))
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

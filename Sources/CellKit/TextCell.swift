/// A plain cell with a title, an optional detail line and an accessory: the
/// default cell for models with no binding, and the base of the placeholder cells.
///
/// Platform-neutral: the headless and terminal list views show it directly.
/// CellKit never leaves it blank: an unmapped model (or one whose registration of a
/// `TextCell` nothing sets up) shows its description, or, when
/// that shows nothing (empty, or only spaces and invisible characters), its type name
/// and id (`Blank(id: 1)`; the type name alone when it is not `Identifiable`).
///
/// ```swift
/// let cell = TextCell()
/// cell.text = "Ada Lovelace"
/// cell.detailText = "First programmer"
/// ```
@MainActor
open class TextCell: ListCell {
    /// The main line.
    public var text: String = ""
    /// A second line, if any.
    public var detailText: String?
    /// A short marker shown at the trailing edge (for example "›").
    public var accessory: String?

    /// What assistive technologies read for the cell (VoiceOver on UIKit list
    /// views): the text and the detail line joined by a comma, unless set.
    /// Setting it overrides that until the cell is reused.
    ///
    /// ```swift
    /// let cell = TextCell()
    /// cell.text = "Ada Lovelace"
    /// cell.detailText = "First programmer"
    /// assert(cell.accessibilityLabel == "Ada Lovelace, First programmer")
    /// ```
    public var accessibilityLabel: String {
        get { customAccessibilityLabel ?? [text, detailText ?? ""].filter { !$0.isEmpty }.joined(separator: ", ") }
        set { customAccessibilityLabel = newValue }
    }
    private var customAccessibilityLabel: String?

    /// Creates an empty cell.
    public required init() {}

    /// Clears the cell for its next row.
    open func prepareForReuse() {
        text = ""
        detailText = nil
        accessory = nil
        customAccessibilityLabel = nil
    }
}

/// The default cell of the loading placeholder row: a spinner and a message.
///
/// Open: a replacement loading cell that subclasses it keeps the running indicator
/// that the terminal list view and `HostedCellRenderer.standard` (CellKitUIKit) draw
/// for a `LoadingCell` whose ``isAnimating`` is `true`. Registered for
/// ``LoadingPlaceholder`` with no configure closure, it keeps the built-in configure,
/// which shows the placeholder's message and sets ``isAnimating``; a configure closure
/// replaces that one, so it sets the text and ``isAnimating`` itself.
/// A replacement that is not a `LoadingCell` draws as a plain ``TextCell`` (the message,
/// no spinner: ``isAnimating`` of the terminal list view stays `false`), and not the
/// placeholder's dimmed look.
///
/// ```swift
/// final class BrandedLoadingCell: LoadingCell {
///     override var isAnimating: Bool { didSet { accessory = isAnimating ? "☕︎" : nil } }
/// }
///
/// let controller = ListController()
/// controller.placeholders.loading.message = "Brewing…"
/// controller.register(BrandedLoadingCell.self, for: LoadingPlaceholder.self)   // the built-in configure
/// let listView = HeadlessListView()
/// controller.attach(to: listView)
/// assert(listView.visibleTexts == ["Brewing…"])
/// assert((listView.visibleCells.first as? BrandedLoadingCell)?.accessory == "☕︎")
/// ```
@MainActor
open class LoadingCell: TextCell {
    /// Whether the activity indicator runs (Instant Cocoa's `startAnimating`).
    open var isAnimating = false
}

/// The default cell of the ``LoadMorePlaceholder`` row: a spinner and "Loading
/// more…" while the next page loads; the error and a retry hint when it failed.
///
/// Open, as ``LoadingCell`` is: a replacement that subclasses it keeps the spinner
/// while the page loads and the failed row's look (the terminal list view's "↻" line)
/// when ``error`` is set; registered with no configure closure, it keeps the built-in
/// configure, which sets both.
@MainActor
open class LoadMoreCell: LoadingCell {
    /// Why the next page failed; `nil` while it loads.
    open var error: (any Error)?
}

/// The default cell of the no-results placeholder row.
///
/// Open: a replacement that subclasses it keeps the placeholder's look (the terminal
/// list view's dimmed "∅" line, the secondary text colour of
/// `HostedCellRenderer.standard`); any other cell draws as a plain ``TextCell``. With no
/// configure closure, the built-in configure shows the message.
@MainActor
open class NoResultsCell: TextCell {}

/// The default cell of the error placeholder row: the message and a retry hint.
///
/// Open: a replacement that subclasses it keeps the error row's look (the terminal
/// list view's red "✖" message, wrapped, and its "(Enter)" retry hint when
/// ``canRetry``); any other cell draws as a plain ``TextCell``. With no configure closure,
/// the built-in configure shows the message and the retry hint and sets ``error`` and
/// ``canRetry``; a configure closure replaces it, so it sets ``canRetry`` itself (selecting
/// the row retries either way, when a retry is offered).
@MainActor
open class ErrorCell: TextCell {
    /// The error shown.
    open var error: (any Error)?
    /// Whether selecting the row retries the load.
    open var canRetry = false
}

extension TextCell {
    /// The default cell's text for `model`: its description, or, when that shows nothing
    /// (empty, or only white space, controls, invisible format characters and other
    /// default-ignorable ones such as the Hangul filler), its type name and id.
    nonisolated static func defaultText(for model: Any) -> String {
        let description = String(describing: model)
        guard BlankText.showsNothing(description) else { return description }
        let typeName = String(describing: type(of: model))
        guard let identifiable = model as? any Identifiable else { return typeName }
        return "\(typeName)(id: \(identifierText(of: identifiable)))"
    }

    private nonisolated static func identifierText(of model: some Identifiable) -> String {
        String(describing: model.id)
    }
}

/// The placeholder a list view shows *behind* its rows (Coffee's loading and
/// error views), for screens that turn placeholder rows off
/// (``ListController/Placeholders/showsRows`` = `false`).
///
/// ```swift
/// var placeholders = ListController.Placeholders()
/// placeholders.showsRows = false
/// let background = BackgroundPlaceholder.for(.loading, isEmpty: true, placeholders: placeholders)
/// assert(background == .loading(message: "Loading…"))
/// ```
public enum BackgroundPlaceholder: Hashable, Sendable {
    /// A load is running and nothing is showing: a spinner and a message.
    case loading(message: String)
    /// The load returned nothing.
    case noResults(message: String)
    /// The load failed and nothing is showing: the error's user-facing message,
    /// and the retry button's title when the error offers a retry.
    case error(message: String, retryTitle: String?)

    /// What to show behind the rows: `nil` when content is showing (a failed
    /// refresh keeps the content) or when the placeholders are rows.
    public static func `for`(_ state: ContentState, isEmpty: Bool, placeholders: ListController.Placeholders) -> BackgroundPlaceholder? {
        guard !placeholders.showsRows, isEmpty else { return nil }
        switch state {
        case .loading: return .loading(message: placeholders.loading.message)
        case .loaded, .empty: return .noResults(message: placeholders.noResults.message)
        case .failed(let error):
            return .error(message: placeholders.message(for: error), retryTitle: placeholders.errorCanRetry ? placeholders.retryTitle : nil)
        }
    }

    /// What assistive technologies read for the placeholder: its message (a retry
    /// button carries its own title).
    public var accessibilityLabel: String {
        switch self {
        case .loading(let message), .noResults(let message), .error(let message, _): message
        }
    }
}

extension ListController {
    /// The background placeholder for the current content and state (see ``BackgroundPlaceholder``).
    public var backgroundPlaceholder: BackgroundPlaceholder? {
        BackgroundPlaceholder.for(state, isEmpty: model.isEmpty, placeholders: shownPlaceholders)
    }
}

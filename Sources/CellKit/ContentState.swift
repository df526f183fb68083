/// Where a list's content stands: what the controller shows placeholder rows from.
///
/// | state | no content | with content |
/// | --- | --- | --- |
/// | `loading` | the loading row | the content (a refresh keeps it) |
/// | `loaded` | the no-results row | the content |
/// | `empty` | the no-results row | the content |
/// | `failed` | the error row, with retry | the content; the error is reported |
public enum ContentState: Sendable, CustomStringConvertible {
    /// A load is running.
    case loading
    /// The last load succeeded.
    case loaded
    /// The last load succeeded with nothing to show.
    case empty
    /// The last load failed.
    case failed(any Error)

    /// Whether this is `.loading`.
    public var isLoading: Bool { if case .loading = self { true } else { false } }
    /// The error, if this is `.failed`.
    public var error: (any Error)? { if case .failed(let e) = self { e } else { nil } }

    public var description: String {
        switch self {
        case .loading: "loading"
        case .loaded: "loaded"
        case .empty: "empty"
        case .failed(let e): "failed(\(e))"
        }
    }
}

/// The row shown while the first load runs (Instant Cocoa's `ICLoadingPlaceholder`).
///
/// Its default cell is ``LoadingCell``; register another cell or a configure
/// handler for `LoadingPlaceholder` to change it.
public struct LoadingPlaceholder: Hashable, Sendable, Identifiable {
    /// The message shown.
    public var message: String
    /// A fixed identity: there is one loading row.
    public var id: String { "loading" }
    /// Creates a loading placeholder.
    public init(message: String = "Loading…") { self.message = message }
}

/// The row shown when a load succeeded with nothing to show (`ICNoResultsPlaceholder`).
public struct NoResultsPlaceholder: Hashable, Sendable, Identifiable {
    /// The message shown.
    public var message: String
    /// A fixed identity: there is one no-results row.
    public var id: String { "no-results" }
    /// Creates a no-results placeholder.
    public init(message: String = "No results") { self.message = message }
}

/// The row shown when the first load failed (Instant Cocoa's `NSError` row), with a retry.
public struct ErrorPlaceholder: Sendable, Identifiable {
    /// The error that ended the load.
    public var error: any Error
    /// Whether selecting the row retries.
    public var canRetry: Bool
    /// A fixed identity: there is one error row.
    public var id: String { "error" }
    /// The text shown for the error.
    public var message: String { "\(error)" }
    /// Creates an error placeholder.
    public init(error: any Error, canRetry: Bool = true) {
        self.error = error
        self.canRetry = canRetry
    }
}

extension ErrorPlaceholder: ContentFingerprinting {
    /// The error's text: a different error is an update of the row.
    public var contentFingerprint: String { "\(error)|\(canRetry)" }
}

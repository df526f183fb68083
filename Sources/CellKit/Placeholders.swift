/// The row shown while the first load runs (Instant Cocoa's `ICLoadingPlaceholder`).
///
/// Its default cell is ``LoadingCell``; register another cell or a configure
/// handler for `LoadingPlaceholder` to change it. A replacement cell keeps the
/// running indicator (the terminal list view's spinner, UIKit's standard renderer's
/// activity indicator) only when it subclasses ``LoadingCell`` and ``LoadingCell/isAnimating``
/// is set: by the built-in configure, which a registration with no configure closure keeps,
/// or by its own closure. Any other cell shows the message as plain text, without it. The default message comes from
/// CellKit's strings table ("Loading…" in English); change it on
/// ``ListController/placeholders``.
public struct LoadingPlaceholder: Hashable, Sendable, Identifiable {
    /// The message shown, also the row's accessibility label.
    public var message: String
    /// A fixed identity: there is one loading row.
    public var id: String { "loading" }
    /// Creates a loading placeholder; `nil`: the localized "Loading…".
    public init(message: String? = nil) { self.message = message ?? LocalizedStrings.string(.loading) }
}

/// The row shown when a load succeeded with nothing to show (`ICNoResultsPlaceholder`).
public struct NoResultsPlaceholder: Hashable, Sendable, Identifiable {
    /// The message shown, also the row's accessibility label.
    public var message: String
    /// A fixed identity: there is one no-results row.
    public var id: String { "no-results" }
    /// Creates a no-results placeholder; `nil`: the localized "No results".
    public init(message: String? = nil) { self.message = message ?? LocalizedStrings.string(.noResults) }
}

/// The row shown when the first load failed (Instant Cocoa's `NSError` row), with a retry.
///
/// Its ``message`` is for users: the error's `LocalizedError.errorDescription`,
/// the description of Foundation's own errors (`URLError`, `CocoaError`), or a
/// generic localized sentence — never the developer-facing `"\(error)"`, which
/// stays available through ``error`` and the diagnostics.
///
/// ```swift
/// struct Offline: Error {}
/// let row = ErrorPlaceholder(error: Offline())
/// assert(row.message == "Couldn't load the content." && row.retryHint == "Select to retry")
/// ```
public struct ErrorPlaceholder: Sendable, Identifiable {
    /// The error that ended the load.
    public var error: any Error
    /// Whether selecting the row retries.
    public var canRetry: Bool
    /// The text shown for the error (see the type's discussion).
    public var message: String
    /// The row's second line when it allows a retry ("Select to retry").
    public var retryHint: String
    /// A fixed identity: there is one error row.
    public var id: String { "error" }
    /// Creates an error placeholder whose texts come from `placeholders`.
    public init(error: any Error, canRetry: Bool = true, placeholders: ListController.Placeholders = ListController.Placeholders()) {
        self.error = error
        self.canRetry = canRetry
        self.message = placeholders.message(for: error)
        self.retryHint = placeholders.retryHint
    }
}

extension ErrorPlaceholder: ContentFingerprinting {
    /// The error and the texts: a different error is an update of the row.
    public var contentFingerprint: String { "\(error)|\(message)|\(canRetry)|\(retryHint)" }
}

extension ListController.Placeholders {
    /// What the error row and background say for `error`: its user-facing
    /// description if it has one (a description that shows nothing, empty or only
    /// spaces and invisible characters, counts as none), ``cancelledMessage`` for a
    /// cancellation, else ``unknownErrorMessage``.
    ///
    /// ```swift
    /// struct Offline: Error, CustomStringConvertible { var description: String { "socket 3 closed" } }
    /// var placeholders = ListController.Placeholders()
    /// placeholders.unknownErrorMessage = "The feed is offline."
    /// assert(placeholders.message(for: Offline()) == "The feed is offline.")
    /// assert(placeholders.message(for: CancellationError()) == "Loading was cancelled.")
    /// ```
    public func message(for error: any Error) -> String {
        if let text = LocalizedStrings.userFacingDescription(of: error) { return text }
        return error is CancellationError ? cancelledMessage : unknownErrorMessage
    }

    /// The languages CellKit ships strings for (`"de"`, `"en"`); English is the base.
    public static var availableLocalizations: [String] { LocalizedStrings.localizations }
}

/// The row at the end of a paged list while its next page loads ("Loading
/// more…"), and, when that page failed, in its failed form: "Couldn't load
/// more", with a retry.
///
/// The controller adds it after the content from the snapshot's
/// ``ListSnapshot/activity`` (``ListActivity/loadingMore``) and
/// ``ListSnapshot/nextPageError``, in a section of its own, on every list view
/// (it is a row). Both forms are one row (one identity), so a retry that starts
/// or fails again updates the row in place. Selecting the failed row, or the row
/// coming on screen again, calls ``ListDataSource/loadNextPage()``.
///
/// Its default cell is ``LoadMoreCell``; register another cell or a configure
/// handler for `LoadMorePlaceholder` to restyle it (a replacement keeps the spinner and
/// the failed row's look only when it subclasses ``LoadMoreCell``), and change its texts in
/// ``ListController/Placeholders/loadMore``. With placeholder rows turned off
/// (``ListController/Placeholders/showsRows``), there is no such row: show a footer
/// from ``ListController/activity`` and ``ListController/nextPageError`` instead.
///
/// ```swift
/// var placeholders = ListController.Placeholders()
/// placeholders.loadMore.failureMessage = "No connection"
/// let failed = placeholders.loadMore.failed(with: CancellationError())
/// assert(failed.isFailed && failed.text.hasPrefix("No connection"))
/// ```
public struct LoadMorePlaceholder: Sendable, Identifiable {
    /// The text while the next page loads.
    public var message: String
    /// The text when the next page failed; the error follows it.
    public var failureMessage: String
    /// Why the next page failed; `nil` while it loads.
    public var error: (any Error)?
    /// A fixed identity: there is one load-more row, loading or failed.
    public var id: String { "load-more" }
    /// Whether this is the failed form (selecting it retries).
    public var isFailed: Bool { error != nil }
    /// The failed row's second line ("Select to retry"). In a controller's
    /// ``ListController/Placeholders/loadMore`` it is ``ListController/Placeholders/retryHint``
    /// (in the placeholders' language; setting that one sets this one), which the row shows.
    public var retryHint: String
    /// The text shown: the message, or the failure message and the error's user-facing
    /// description (`LocalizedError.errorDescription`; none for errors without one).
    public var text: String {
        guard let error else { return message }
        return LocalizedStrings.userFacingDescription(of: error).map { "\(failureMessage): \($0)" } ?? failureMessage
    }

    /// Creates a load-more placeholder; `nil` texts: the localized "Loading more…" and
    /// "Couldn't load more".
    public init(message: String? = nil, failureMessage: String? = nil, error: (any Error)? = nil) {
        self.message = message ?? LocalizedStrings.string(.loadingMore)
        self.failureMessage = failureMessage ?? LocalizedStrings.string(.loadMoreFailed)
        self.retryHint = LocalizedStrings.string(.retryHint)
        self.error = error
    }

    /// The failed form of this row, for `error`.
    public func failed(with error: any Error) -> LoadMorePlaceholder {
        var copy = self
        copy.error = error
        return copy
    }
}

extension LoadMorePlaceholder: ContentFingerprinting {
    /// The text: loading and failed (or another error) are updates of the one row.
    public var contentFingerprint: String { error.map { "\(text)|\($0)" } ?? text }
}

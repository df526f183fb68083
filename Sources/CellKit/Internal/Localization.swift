// The only file of CellKit besides the generated resource accessor that uses
// Foundation: its strings table (`Localization/*.lproj/Localizable.strings`,
// English the base) and the user-facing description of errors.
import Foundation

/// CellKit's user-visible strings, looked up in its own strings table.
enum LocalizedStrings {
    /// A key of `Localizable.strings`, with its English text as the fallback.
    enum Key: String, CaseIterable {
        case loading = "cellkit.loading"
        case noResults = "cellkit.no-results"
        case retryHint = "cellkit.retry-hint"
        case retry = "cellkit.retry"
        case unknownError = "cellkit.error.unknown"
        case cancelled = "cellkit.error.cancelled"
        case loadedAnnouncement = "cellkit.announcement.loaded"
        case loadingMore = "cellkit.loading-more"
        case loadMoreFailed = "cellkit.load-more-failed"
        case delete = "cellkit.delete"

        /// The English text, used when the table lacks the key.
        var english: String {
            switch self {
            case .loading: "Loading…"
            case .noResults: "No results"
            case .retryHint: "Select to retry"
            case .retry: "Retry"
            case .unknownError: "Couldn't load the content."
            case .cancelled: "Loading was cancelled."
            case .loadedAnnouncement: "Content loaded"
            case .loadingMore: "Loading more…"
            case .loadMoreFailed: "Couldn't load more"
            case .delete: "Delete"
            }
        }
    }

    /// The text for `key` in the user's preferred language, or in `localization`
    /// (a language code such as `"de"`) when given; English when that language
    /// has no table or lacks the key.
    static func string(_ key: Key, localization: String? = nil) -> String {
        guard var bundle = tableURL.flatMap(Bundle.init(url:)) else { return key.english }
        if let localization {
            guard let path = bundle.path(forResource: localization, ofType: "lproj"), let lproj = Bundle(path: path) else {
                return key.english
            }
            bundle = lproj
        }
        return bundle.localizedString(forKey: key.rawValue, value: key.english, table: nil)
    }

    /// Language codes CellKit has strings for.
    static var localizations: [String] {
        guard let bundle = tableURL.flatMap(Bundle.init(url:)) else { return ["en"] }
        return bundle.localizations.filter { $0 != "Base" }.sorted()
    }

    /// Where the strings table is: SwiftPM's resource bundle, or the framework's own
    /// bundle when CellKit is built another way; `nil` (English) when it is missing.
    ///
    /// SwiftPM's `Bundle.module` stops the program when its bundle is missing (a
    /// binary copied without `CellKit_CellKit.resources`); this looks in the same
    /// places — beside the main executable or bundle, beside CellKit's own code —
    /// and falls back to the English texts instead.
    static let tableURL: URL? = {
        let own = Bundle(for: BundleToken.self)
        #if SWIFT_PACKAGE
        let directories = [Bundle.main.resourceURL, Bundle.main.bundleURL, own.resourceURL, own.bundleURL,
                           own.bundleURL.deletingLastPathComponent()]
        for directory in directories.compactMap({ $0 }) {
            for suffix in ["bundle", "resources"] {
                let url = directory.appendingPathComponent("CellKit_CellKit.\(suffix)")
                if Bundle(url: url) != nil { return url }
            }
        }
        return nil
        #else
        return own.bundleURL
        #endif
    }()

    private final class BundleToken {}

    /// What to show a user for `error`: `LocalizedError.errorDescription`, else the
    /// description of Foundation's own errors (`URLError`, `CocoaError`, `NSError`),
    /// else `nil` (a Swift error's `description` is for developers).
    static func userFacingDescription(of error: any Error) -> String? {
        if let localized = error as? any LocalizedError, let text = localized.errorDescription, !BlankText.showsNothing(text) {
            return text
        }
        if error is URLError || error is CocoaError || type(of: error) is NSError.Type {
            let text = error.localizedDescription
            return BlankText.showsNothing(text) ? nil : text
        }
        return nil
    }
}

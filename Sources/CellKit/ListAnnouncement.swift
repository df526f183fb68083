/// What a list says to assistive technologies when what it shows changes
/// category: a placeholder appears, content replaces a placeholder, a load fails.
///
/// The controller decides (platform-neutral, tested here) and hands it to its list
/// view's ``ListView/announce(_:)``: UIKit adapters post it as a VoiceOver
/// announcement, the headless list view records it in its log, and the SwiftUI
/// list view goes through the UIKit adapter it wraps. The texts come from
/// ``ListController/placeholders`` (localized).
///
/// | shown before → now | announced |
/// | --- | --- |
/// | anything else → the loading placeholder | the loading message |
/// | a placeholder → content | ``ListController/Placeholders/loadedAnnouncement`` |
/// | anything else → the no-results placeholder | the no-results message |
/// | anything → failed (a new error; content may stay) | the error's user-facing message |
///
/// A failure is new unless the list showed a failure just before with the same
/// user-facing message and as much content (both empty, or both not): a second error
/// with the same text, with no load in between, is not read out again, while a retry
/// that fails again (failed → loading → failed) is.
///
/// Nothing is announced while the category stays (a refresh that keeps content,
/// more rows arriving), so VoiceOver is not flooded. What a list shows first is not a
/// change either: ``ListController/attach(to:)`` shows the loading row (or whatever the
/// controller holds) without an announcement, since VoiceOver reads a screen that appears;
/// the table above starts with the first change after it.
///
/// ```swift
/// let placeholders = ListController.Placeholders()
/// let before = ListAnnouncement.Shown(state: .loading, isEmpty: true)
/// let after = ListAnnouncement.Shown(state: .loaded, isEmpty: false)
/// let said = ListAnnouncement.between(before, after, placeholders: placeholders)
/// assert(said == ListAnnouncement(kind: .loaded, message: "Content loaded"))
/// ```
public struct ListAnnouncement: Hashable, Sendable, CustomStringConvertible {
    /// Which change is announced.
    public enum Kind: Hashable, Sendable {
        /// The first load (or a retry) started with nothing showing.
        case loading
        /// Content replaced a placeholder.
        case loaded
        /// A load came back with nothing to show.
        case empty
        /// A load failed.
        case failed
    }

    /// Which change is announced.
    public var kind: Kind
    /// The text to read.
    public var message: String

    /// Creates an announcement.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "announce \(kind): \(message)" }

    /// What a list showed at one moment, as far as announcements care.
    public struct Shown: Sendable {
        /// The content state.
        public var state: ContentState
        /// Whether there was no content (a placeholder showed, or nothing).
        public var isEmpty: Bool
        /// Creates a moment.
        public init(state: ContentState, isEmpty: Bool) {
            self.state = state
            self.isEmpty = isEmpty
        }
    }

    /// The announcement for going from `old` to `new`, or `nil` (see the table above).
    public static func between(_ old: Shown, _ new: Shown, placeholders: ListController.Placeholders) -> ListAnnouncement? {
        switch new.state {
        case .failed(let error):
            let message = placeholders.message(for: error)
            if case .failed(let previous) = old.state, placeholders.message(for: previous) == message, old.isEmpty == new.isEmpty {
                return nil
            }
            return ListAnnouncement(kind: .failed, message: message)
        case .loading:
            guard new.isEmpty, !(old.state.isLoading && old.isEmpty) else { return nil }
            return ListAnnouncement(kind: .loading, message: placeholders.loading.message)
        case .loaded, .empty:
            if new.isEmpty {
                let wasEmptyResult = old.isEmpty && !old.state.isLoading && old.state.error == nil
                return wasEmptyResult ? nil : ListAnnouncement(kind: .empty, message: placeholders.noResults.message)
            }
            return old.isEmpty ? ListAnnouncement(kind: .loaded, message: placeholders.loadedAnnouncement) : nil
        }
    }
}

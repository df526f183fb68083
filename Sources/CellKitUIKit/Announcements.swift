#if canImport(UIKit)
@preconcurrency import UIKit
import CellKit

// The UIKit adapters post the controller's announcements (loading, loaded, failed,
// empty) to VoiceOver. Type-checked against the iOS SDK; never run here.
// `@preconcurrency`: the iOS 16 SDK declares the notification names as mutable C globals.

extension TableViewAdapter {
    /// Posts `announcement` to VoiceOver (`UIAccessibility.post(notification: .announcement, …)`)
    /// while the table view is in a window; a list off screen says nothing.
    public func announce(_ announcement: ListAnnouncement) {
        AccessibilityAnnouncer.post(announcement, from: tableView)
    }
}

extension CollectionViewAdapter {
    /// Posts `announcement` to VoiceOver (`UIAccessibility.post(notification: .announcement, …)`)
    /// while the collection view is in a window; a list off screen says nothing.
    public func announce(_ announcement: ListAnnouncement) {
        AccessibilityAnnouncer.post(announcement, from: collectionView)
    }
}

@MainActor
enum AccessibilityAnnouncer {
    static func post(_ announcement: ListAnnouncement, from view: UIView) {
        guard view.window != nil, UIAccessibility.isVoiceOverRunning else { return }
        UIAccessibility.post(notification: .announcement, argument: announcement.message)
    }
}
#endif

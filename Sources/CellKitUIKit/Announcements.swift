#if canImport(UIKit)
@preconcurrency import UIKit
import CellKit

// The UIKit adapters post the controller's announcements (loading, loaded, failed,
// empty) to VoiceOver. Type-checked against the iOS SDK; never run here.
// `@preconcurrency`: the iOS 16 SDK declares the notification names as mutable C globals.

extension TableViewAdapter {
    /// Posts `announcement` to VoiceOver (`UIAccessibility.post(notification: .announcement, …)`).
    public func announce(_ announcement: ListAnnouncement) {
        UIAccessibility.post(notification: .announcement, argument: announcement.message)
    }
}

extension CollectionViewAdapter {
    /// Posts `announcement` to VoiceOver (`UIAccessibility.post(notification: .announcement, …)`).
    public func announce(_ announcement: ListAnnouncement) {
        UIAccessibility.post(notification: .announcement, argument: announcement.message)
    }
}
#endif

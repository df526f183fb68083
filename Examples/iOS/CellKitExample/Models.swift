#if canImport(UIKit)
import UIKit
import CellKitUIKit

/// A tweet that names its own cell (Nimbus `NICellObject`'s `cellClass`).
struct Tweet: CellModel, Identifiable, Equatable, Sendable {
    let id: Int
    var author: String
    var text: String
    var likes: Int
    var isLiked = false

    @MainActor static var cellSource: CellSource { .tableCell(TweetCell.self, cellStyle: .subtitle) }
}

/// A note from the app shown between tweets, drawn by a SwiftUI view (`PromoRow`)
/// inside the UIKit feed.
struct Promo: Identifiable, Equatable, Sendable {
    let id: String
    var title: String
    var message: String
}

/// A user of Coffee's Basic example: a name, a byline, an avatar that arrives later.
struct User: Identifiable, Equatable, Sendable {
    let id: Int
    var name: String
    var byline: String
}

/// A downloaded avatar, handed to the visible cells that show its user.
struct Avatar: Sendable {
    let symbolName: String
}

extension CellStyle {
    /// Coffee's `kUserPresenterStyleWithByline`.
    static let withByline: CellStyle = "byline"
}
#endif

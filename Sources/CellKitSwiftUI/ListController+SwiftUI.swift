#if canImport(SwiftUI) && canImport(UIKit)
import SwiftUI
import CellKit

extension CellSource {
    /// The source of ``SwiftUICell``s showing `Content` in `style`: one reuse pool per
    /// view type and style, like any cell type.
    public static func swiftUI<Content: View>(_ content: Content.Type, style: CellStyle = .default) -> CellSource {
        .type(SwiftUICell<Content>.self, style: style)
    }
}

extension CellRegistry {
    /// Maps `Model` to a SwiftUI view: rows showing a `Model` are ``SwiftUICell``s
    /// hosting `content(model)`, in `style`. Resolution, fallbacks, styles and reuse
    /// are those of any registration (see ``CellRegistry``).
    ///
    /// ```swift
    /// struct Tweet: Identifiable, Equatable, Sendable { let id: Int; var text: String }
    /// struct TweetRow: View {
    ///     let tweet: Tweet
    ///     var body: some View { Text(tweet.text).padding(.vertical, 4) }
    /// }
    ///
    /// @MainActor func registerTweets(in registry: CellRegistry) {
    ///     registry.register(Tweet.self) { tweet in TweetRow(tweet: tweet) }
    /// }
    /// ```
    public func register<Model, Content: View>(
        _ model: Model.Type, style: CellStyle = .default,
        @ViewBuilder content: @escaping @MainActor (Model) -> Content
    ) {
        register(CellSource.swiftUI(Content.self, style: style), for: model) { (cell: SwiftUICell<Content>, model: Model) in
            cell.prepare(for: model)
            cell.show(content(model))
        }
    }
}

extension ListController {
    /// Maps `Model` to a SwiftUI view (see ``CellRegistry/register(_:style:content:)``).
    ///
    /// The same registration serves a UIKit screen (`TableViewAdapter`,
    /// `CollectionViewAdapter`) and a SwiftUI screen (``CellKitList``).
    ///
    /// ```swift
    /// struct Tweet: Identifiable, Equatable, Sendable { let id: Int; var text: String }
    ///
    /// @MainActor func wire(_ controller: ListController) {
    ///     controller.register(Tweet.self) { tweet in
    ///         Text(tweet.text).font(.body).padding(.vertical, 6)
    ///     }
    /// }
    /// ```
    public func register<Model, Content: View>(
        _ model: Model.Type, style: CellStyle = .default,
        @ViewBuilder content: @escaping @MainActor (Model) -> Content
    ) {
        registry.register(model, style: style, content: content)
    }

    /// Maps `Model` to a SwiftUI view that also shows the resources delivered for its
    /// model with ``ListController/provideResource(_:key:value:)`` (Coffee's avatar that
    /// arrives later): the visible row showing that model is redrawn with them, and
    /// no other row. Resources stay with the cell while it shows the same model
    /// (a reconfigure keeps them) and are cleared when it is reused for another.
    ///
    /// ```swift
    /// struct User: Identifiable, Equatable, Sendable { let id: Int; var name: String }
    ///
    /// @MainActor func wire(_ controller: ListController) {
    ///     controller.register(User.self) { user, resources in
    ///         Label(user.name, systemImage: resources["image"] as? String ?? "person.crop.circle")
    ///     }
    /// }
    /// ```
    public func register<Model, Content: View>(
        _ model: Model.Type, style: CellStyle = .default,
        @ViewBuilder content: @escaping @MainActor (Model, _ resources: [ResourceKey: any Sendable]) -> Content
    ) {
        registry.register(CellSource.swiftUI(Content.self, style: style), for: model) { (cell: SwiftUICell<Content>, model: Model) in
            cell.prepare(for: model)
            cell.show(content(model, cell.resources))
        }
        dispatch.onResource(model) { (cell: SwiftUICell<Content>, model: Model, update: ResourceUpdate) in
            cell.resources[update.key] = update.value
            cell.show(content(model, cell.resources))
        }
    }
}
#endif

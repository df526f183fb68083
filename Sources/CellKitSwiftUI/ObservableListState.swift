#if canImport(SwiftUI) && canImport(UIKit)
import Combine
import CellKit

/// A ``ListController``'s ``ListState`` as an `ObservableObject`, for SwiftUI views
/// on iOS 15 and later: a toolbar spinner while refreshing, a footer while the next
/// page loads, a counter of rows.
///
/// `ListState` itself stays platform-neutral (CellKit imports neither Combine nor
/// Observation); this wrapper forwards its ``ListState/observe(_:)`` to
/// `objectWillChange`, and reads every property of it by dynamic member lookup.
/// Observation's `@Observable` would need iOS 17, above CellKit's iOS 15.
///
/// ```swift
/// struct Toolbar: View {
///     @ObservedObject var list: ObservableListState
///     var body: some View {
///         if list.isRefreshing || list.isLoadingMore { ProgressView() }
///         else { Text("\(list.itemCount) users") }
///     }
/// }
/// ```
@MainActor
@dynamicMemberLookup
public final class ObservableListState: @preconcurrency ObservableObject {
    /// Sent before any value of ``state`` changes.
    public let objectWillChange = ObservableObjectPublisher()
    /// The state observed.
    public let state: ListState
    private var observation: ListState.Observation?

    /// Observes `state` (usually `controller.listState`).
    public init(_ state: ListState) {
        self.state = state
        observation = state.observe { [weak self] in self?.objectWillChange.send() }
    }

    /// Observes `controller.listState`.
    public convenience init(_ controller: ListController) { self.init(controller.listState) }

    /// Reads a property of ``state``: `isRefreshing`, `isLoadingMore`, `hasMore`, `itemCount`, `error`, …
    public subscript<Value>(dynamicMember keyPath: KeyPath<ListState, Value>) -> Value {
        state[keyPath: keyPath]
    }
}
#endif

#if canImport(SwiftUI) && canImport(UIKit)
// `@preconcurrency`: the iOS 16 SDK's `RefreshAction` is not marked `Sendable`.
@preconcurrency import SwiftUI
import UIKit
import CellKit
import CellKitUIKit

/// A SwiftUI list view that shows a ``ListController``'s content with the
/// registry's cells: the same registrations, presenters, placeholders and data
/// sources as a UIKit screen.
///
/// It wraps a `UICollectionView` with a list layout driven by a
/// `CollectionViewAdapter` (a `UIViewRepresentable`), rather than building
/// SwiftUI's `List` from the rows, so that every CellKit rule holds unchanged:
/// cells are built only for visible rows and reused (UIKit cells, nib cells,
/// ``SwiftUICell``s and the placeholder cells alike), batches follow the diff's
/// staged changes, rows whose content changed are reconfigured in place, the first
/// visible row stays put when rows arrive above it, resources reach only the
/// visible cell that shows their object, and a paginated data source loads its
/// next page as the last rows appear. SwiftUI's `List` would need every row as a
/// SwiftUI view, could not host the registry's UIKit cells or presenters, and
/// offers no control over reuse or the scroll anchor.
///
/// What it does, and where it comes from:
/// - placeholder rows (or, with ``ListController/Placeholders/showsRows`` off, a
///   background view) from the controller's state, announced to VoiceOver;
/// - `.refreshable { … }` on this view (or an ancestor) installs pull to refresh;
///   the spinner stops when the action returns;
/// - selection goes to the controller's `onSelect` handlers and presenters;
/// - swipe actions, deletion and reordering come from the adapter's
///   `EditingTable`, reached with ``adapter(_:)``;
/// - section header titles (with `sectionHeaders: true`), footer titles (with
///   `sectionFooters: true`) and the section index from the table model, in the
///   header and footer style of the list's appearance.
///
/// One list view per controller: a controller shown by a second `CellKitList` (or
/// attached to another list view) leaves the first.
///
/// Type-checked against the iOS 16.4 SDK, for iOS 15 and later targets; it has never
/// run (see the DocC article "Using CellKit from SwiftUI"). On iOS 15 ``SwiftUICell``
/// falls back to an embedded `UIHostingController`.
///
/// ```swift
/// struct Song: Identifiable, Equatable, Sendable { let id: Int; var title: String }
///
/// @MainActor struct SongsScreen: View {   // @MainActor: the iOS 16 SDK does not isolate View yet
///     @StateObject private var model = SongsModel()
///     var body: some View {
///         CellKitList(model.controller)
///             .refreshable { await model.source.refresh().value }
///             .onAppear { model.source.load() }
///     }
/// }
///
/// @MainActor final class SongsModel: ObservableObject {
///     let controller = ListController()
///     let source = RemoteDataSource { [Song(id: 1, title: "Blue")] }
///     init() {
///         controller.register(Song.self) { song in Text(song.title) }
///         controller.bind(to: source)
///     }
/// }
/// ```
public struct CellKitList: UIViewRepresentable {
    /// The controller whose content is shown; it becomes the adapter's data source.
    public let controller: ListController
    /// The list layout's appearance.
    public var appearance: UICollectionLayoutListConfiguration.Appearance
    /// Whether sections show their header titles.
    public var sectionHeaders: Bool
    /// Whether sections show their footer titles. A list layout gives every section a
    /// footer or none: turn it on only for a model whose sections have footer titles, or
    /// each section ends with an empty footer.
    public var sectionFooters: Bool
    private var configurations: [@MainActor (CollectionViewAdapter) -> Void] = []

    /// Shows `controller`'s content in a list of `appearance`; with `sectionHeaders`,
    /// the sections' header titles are shown too, with `sectionFooters` their footer titles.
    public init(
        _ controller: ListController,
        appearance: UICollectionLayoutListConfiguration.Appearance = .plain,
        sectionHeaders: Bool = false,
        sectionFooters: Bool = false
    ) {
        self.controller = controller
        self.appearance = appearance
        self.sectionHeaders = sectionHeaders
        self.sectionFooters = sectionFooters
    }

    /// Configures the `CollectionViewAdapter` once, when the view is made: swipe
    /// actions, deletion and reordering (`adapter.editing`), background views,
    /// the renderer of platform-neutral cells, `keepsFirstVisibleRow`.
    ///
    /// ```swift
    /// struct User: Identifiable, Sendable { let id: Int; var name: String }
    ///
    /// @MainActor func users(_ controller: ListController, unfollow: @escaping @MainActor @Sendable (User) -> Void) -> some View {
    ///     CellKitList(controller).adapter { adapter in
    ///         adapter.editing.trailingActions(User.self) { user, _ in
    ///             [RowAction(title: "Unfollow", style: .destructive) { _ in unfollow(user); return true }]
    ///         }
    ///     }
    /// }
    /// ```
    public func adapter(_ configure: @escaping @MainActor (CollectionViewAdapter) -> Void) -> CellKitList {
        var copy = self
        copy.configurations.append(configure)
        return copy
    }

    /// Holds the adapter for as long as the view exists (the controller and the
    /// collection view hold it weakly).
    @MainActor
    public final class Coordinator {
        /// The adapter driving the collection view.
        public fileprivate(set) var adapter: CollectionViewAdapter?
        /// The controller attached last by this view.
        fileprivate weak var controller: ListController?
        /// The appearance, header and footer settings the layout was made with.
        fileprivate var layout: (appearance: UICollectionLayoutListConfiguration.Appearance, sectionHeaders: Bool, sectionFooters: Bool)?
        fileprivate init() {}
    }

    public func makeCoordinator() -> Coordinator { Coordinator() }

    public func makeUIView(context: Context) -> UICollectionView {
        let collectionView = UICollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
        let adapter = CollectionViewAdapter(collectionView: collectionView)
        applyLayout(to: collectionView, adapter: adapter, coordinator: context.coordinator)
        for configure in configurations { configure(adapter) }
        context.coordinator.adapter = adapter
        context.coordinator.controller = controller
        installRefresh(context.environment.refresh, on: adapter)
        controller.attach(to: adapter)
        return collectionView
    }

    public func updateUIView(_ collectionView: UICollectionView, context: Context) {
        guard let adapter = context.coordinator.adapter else { return }
        installRefresh(context.environment.refresh, on: adapter)
        // A new appearance, header or footer setting from the parent view: a new layout.
        applyLayout(to: collectionView, adapter: adapter, coordinator: context.coordinator)
        // Another controller for the same view (SwiftUI kept the view, the screen swapped models).
        if context.coordinator.controller !== controller {
            context.coordinator.controller = controller
            controller.attach(to: adapter)
        }
    }

    /// The view leaves the SwiftUI hierarchy: every row on screen ends display (UIKit
    /// reports nothing for a view it releases), so the controller stops the loads of
    /// those rows; the adapter goes with the coordinator.
    public static func dismantleUIView(_ collectionView: UICollectionView, coordinator: Coordinator) {
        coordinator.adapter?.core.endDisplayOfEveryRow()
    }

    /// Gives the collection view a list layout of ``appearance``, ``sectionHeaders`` and
    /// ``sectionFooters``, unless the one it has was made with them.
    @MainActor private func applyLayout(to collectionView: UICollectionView, adapter: CollectionViewAdapter, coordinator: Coordinator) {
        if let made = coordinator.layout, made.appearance == appearance, made.sectionHeaders == sectionHeaders,
           made.sectionFooters == sectionFooters { return }
        coordinator.layout = (appearance, sectionHeaders, sectionFooters)
        collectionView.collectionViewLayout = adapter.makeListLayout(appearance: appearance, headers: sectionHeaders, footers: sectionFooters)
    }

    /// Pull to refresh runs SwiftUI's `.refreshable` action; none without one.
    @MainActor private func installRefresh(_ refresh: RefreshAction?, on adapter: CollectionViewAdapter) {
        if let refresh {
            adapter.refreshAction = { await refresh() }
        } else if adapter.refreshAction != nil {
            adapter.refreshAction = nil
        }
    }
}
#endif

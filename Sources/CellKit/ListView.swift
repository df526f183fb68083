@_exported import CellKitDiff

/// What every list view has in common: UITableView, UICollectionView, the
/// terminal list view and the headless test list view.
///
/// A list view pulls: it asks its ``dataSource`` for counts, and for the cell
/// at a path only when that row becomes visible. It dequeues cells by reuse
/// identifier, keeps a reuse pool, and applies batches of changes.
@MainActor
public protocol ListView: AnyObject {
    /// Who answers counts and cells; held weakly by implementations.
    var dataSource: (any ListViewDataSource)? { get set }
    /// Who hears about heights, selection and display; held weakly by implementations.
    var delegate: (any ListViewDelegate)? { get set }

    /// Makes the list view able to build cells of `source`.
    func register(_ source: CellSource)
    /// A cell for `path`: a reused one of `source`'s reuse identifier, or a new one.
    /// A source that was never registered is registered on first use.
    func dequeueReusableCell(_ source: CellSource, for path: ItemPath) -> AnyObject
    /// The paths of the rows on screen, in order.
    var visibleItemPaths: [ItemPath] { get }
    /// The cell showing `path`, if that row is on screen.
    func cell(at path: ItemPath) -> AnyObject?
    /// Forgets everything and asks the data source again.
    func reloadData()
    /// Applies one batch: calls `updateData` inside the batch (the data source
    /// switches to the data after the batch), then animates `changeset`.
    ///
    /// List views on a ``ListViewCore`` validate the batch once, against the
    /// counts they cached, and reload instead of applying a batch that breaks a
    /// rule (``BatchOutcome/reloaded(_:)`` with ``BatchPlan/ReloadReason/invalid(_:)``
    /// naming it). A batch started inside another one is refused
    /// (``BatchOutcome/refused(_:)``): `updateData` does not run; so is one started
    /// while the list view lays out rows (``isUpdating``).
    @discardableResult
    func performBatchUpdates(_ changeset: Changeset, updateData: () -> Void) -> BatchOutcome
    /// Whether the list view is in a batch, a reconfigure or a layout pass in which it
    /// makes the cells of rows coming into view (a scroll, a resize, a scroll to a row,
    /// the layout after a batch or a reload): a batch started now is refused. A
    /// configure handler or display hook runs inside such a pass. Default: `false`.
    var isUpdating: Bool { get }
    /// Runs `body` once the batch, reconfigure or layout pass under way is over (at
    /// once when ``isUpdating`` is `false`). ``ListController`` applies there a model
    /// asked for from a configure handler or display hook during a layout pass; list
    /// views on a ``ListViewCore`` run there their own scrolls and resizes asked meanwhile
    /// (``ListViewCore/performViewportChange(_:_:)``). They run the work handed here one
    /// piece at a time, `body` included when it runs at once: what a batch or a layout pass
    /// inside it leaves waiting runs when it is over, in the order asked (a ``ListController``
    /// shows each apply so). Default: runs `body` at once.
    func performWhenIdle(_ body: @escaping @MainActor () -> Void)
    /// Told when CellKit configured or updated a visible cell in place; list
    /// views that keep an event log or repaint lines use it. Default: nothing.
    func cellDidChange(at path: ItemPath, reason: CellChangeReason)
    /// Told after every apply, with the content state now shown, even when no row
    /// changed (loading → failed while empty): list views that show placeholders
    /// as a background view update it here. Default: nothing.
    func contentStateDidChange(_ state: ContentState)
    /// Told when the list should say something to assistive technologies (see
    /// ``ListAnnouncement``): UIKit adapters post a VoiceOver announcement, the
    /// headless list view records it in its log. Default: nothing.
    func announce(_ announcement: ListAnnouncement)
}

extension ListView {
    public var isUpdating: Bool { false }
    public func performWhenIdle(_ body: @escaping @MainActor () -> Void) { body() }
    public func cellDidChange(at path: ItemPath, reason: CellChangeReason) {}
    public func contentStateDidChange(_ state: ContentState) {}
    public func announce(_ announcement: ListAnnouncement) {}
}

/// Why a visible cell changed without being dequeued again.
public enum CellChangeReason: Hashable, Sendable {
    /// Its model's content changed (a reconfigure).
    case reconfigured
    /// A resource of the object it shows arrived, with its key.
    case resource(ResourceKey)
}

/// A key naming which resource of an object changed (Coffee's `updatedKey`), such as `"image"`.
public struct ResourceKey: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The key's name.
    public let name: String
    /// Creates a key.
    public init(_ name: String) { self.name = name }
    /// Creates a key from a string literal.
    public init(stringLiteral value: String) { self.name = value }
    public var description: String { name }
}

/// Answers a list view's questions about sections, rows and cells (UITableViewDataSource's role).
@MainActor
public protocol ListViewDataSource: AnyObject {
    /// The number of sections.
    func numberOfSections(in listView: any ListView) -> Int
    /// The number of rows in `section`.
    func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int
    /// The configured cell for the row at `path`; dequeue it from `listView`.
    func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject
    /// The header title of `section`. Default: none.
    func listView(_ listView: any ListView, titleForHeaderInSection section: Int) -> String?
    /// The footer title of `section`. Default: none.
    func listView(_ listView: any ListView, titleForFooterInSection section: Int) -> String?
    /// The section index titles (A–Z, or the sections' initials). Default: none.
    func sectionIndexTitles(for listView: any ListView) -> [String]
    /// The section to scroll to when the index title at `index` is picked. Default: `index`.
    func listView(_ listView: any ListView, sectionForSectionIndexTitle title: String, at index: Int) -> Int
    /// The identity of the row at `path` (UIKit's `itemIdentifier(for:)`), or `nil` when
    /// the data source has none. A list view that keeps its own state per row (the terminal
    /// list view's selection) finds a row again by it after a batch that deleted and
    /// inserted it (a row moved into a new section, a section moved while its rows
    /// changed). Default: `nil`.
    func listView(_ listView: any ListView, identityOfItemAt path: ItemPath) -> ItemID?
}

extension ListViewDataSource {
    public func listView(_ listView: any ListView, titleForHeaderInSection section: Int) -> String? { nil }
    public func listView(_ listView: any ListView, titleForFooterInSection section: Int) -> String? { nil }
    public func sectionIndexTitles(for listView: any ListView) -> [String] { [] }
    public func listView(_ listView: any ListView, sectionForSectionIndexTitle title: String, at index: Int) -> Int { index }
    public func listView(_ listView: any ListView, identityOfItemAt path: ItemPath) -> ItemID? { nil }
}

/// Hears about heights, selection and rows coming and going (UITableViewDelegate's role).
@MainActor
public protocol ListViewDelegate: AnyObject {
    /// The height of the row at `path`, in the list view's units; `nil`: the list's default.
    func listView(_ listView: any ListView, heightForItemAt path: ItemPath) -> Double?
    /// Whether the height at `path` is only an estimate, so a self-sizing list view
    /// should measure the cell (and report it with `didMeasureHeight`). Default: `false`.
    func listView(_ listView: any ListView, needsMeasuringItemAt path: ItemPath) -> Bool
    /// A self-sizing list view measured the row at `path`. Default: nothing.
    func listView(_ listView: any ListView, didMeasureHeight height: Double, forItemAt path: ItemPath)
    /// The row at `path` was selected.
    func listView(_ listView: any ListView, didSelectItemAt path: ItemPath)
    /// Whether the row at `path` takes the selection: `false` for a row that does
    /// nothing when selected. The terminal list view's cursor skips such rows, the
    /// UIKit adapters do not highlight them (`shouldHighlightRowAt`), and a tap on one
    /// in the headless list view, or an activation in the GTK list view, does nothing.
    /// Default: `true`.
    func listView(_ listView: any ListView, canSelectItemAt path: ItemPath) -> Bool
    /// The row at `path` is about to show `cell`.
    func listView(_ listView: any ListView, willDisplay cell: AnyObject, at path: ItemPath)
    /// The row at `path` left the screen.
    func listView(_ listView: any ListView, didEndDisplaying cell: AnyObject, at path: ItemPath)
    /// Rows near the visible window that will probably show soon.
    func listView(_ listView: any ListView, prefetchItemsAt paths: [ItemPath])
    /// Rows that were announced by prefetch and are no longer expected.
    func listView(_ listView: any ListView, cancelPrefetchingItemsAt paths: [ItemPath])
}

extension ListViewDelegate {
    public func listView(_ listView: any ListView, heightForItemAt path: ItemPath) -> Double? { nil }
    public func listView(_ listView: any ListView, needsMeasuringItemAt path: ItemPath) -> Bool { false }
    public func listView(_ listView: any ListView, didMeasureHeight height: Double, forItemAt path: ItemPath) {}
    public func listView(_ listView: any ListView, didSelectItemAt path: ItemPath) {}
    public func listView(_ listView: any ListView, canSelectItemAt path: ItemPath) -> Bool { true }
    public func listView(_ listView: any ListView, willDisplay cell: AnyObject, at path: ItemPath) {}
    public func listView(_ listView: any ListView, didEndDisplaying cell: AnyObject, at path: ItemPath) {}
    public func listView(_ listView: any ListView, prefetchItemsAt paths: [ItemPath]) {}
    public func listView(_ listView: any ListView, cancelPrefetchingItemsAt paths: [ItemPath]) {}
}

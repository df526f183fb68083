/// The identifier a platform list view that keeps its own reuse pools (UIKit) dequeues a
/// template's cells by.
///
/// A template source's cells are dequeued by identifier alone (no class or nib is
/// registered for them). A platform pools each cell under the identifier the cell
/// itself carries: the derived ``CellSource/reuseIdentifier`` handed to the template,
/// or, for a cell loaded from a nib, the identifier set in the nib. Once a template
/// has built a cell carrying another identifier, its cells are dequeued by that one,
/// so they are reused. Sources whose cells carry one nib identifier share that pool,
/// as they do in UIKit.
public struct TemplateReuseIdentifiers {
    private var carried: [String: String] = [:]

    /// No identifier learnt yet.
    public init() {}

    /// The identifier to dequeue `source`'s cells by.
    public func dequeueIdentifier(for source: CellSource) -> String {
        carried[source.reuseIdentifier] ?? source.reuseIdentifier
    }

    /// `source` built a cell that carries `identifier` (`nil` or empty: none, so the
    /// platform never reuses it).
    public mutating func built(_ source: CellSource, carrying identifier: String?) {
        guard let identifier, !identifier.isEmpty, identifier != source.reuseIdentifier else { return }
        carried[source.reuseIdentifier] = identifier
    }
}

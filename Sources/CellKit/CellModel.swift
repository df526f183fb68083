/// A model that names its own cell (Nimbus `NICellObject`).
///
/// An explicit registration in a ``CellRegistry`` wins over the model's own
/// choice, so a screen can show the same model differently.
///
/// ```swift
/// final class TweetCell: ListCell { var text = ""; init() {} }
/// struct Tweet: CellModel, Identifiable, Sendable {
///     let id: Int
///     var text: String
///     static var cellSource: CellSource { .type(TweetCell.self) }
/// }
/// ```
public protocol CellModel {
    /// The source of this model's cells.
    ///
    /// Return a ``CellSource/type(_:style:)`` source, or a template kept in a `static let`:
    /// each call to ``CellSource/template(_:style:make:)`` makes a new source with a pool of
    /// its own, and the registry reads this property again after every registration, so a
    /// template made here each time would leave the cells already made unused.
    @MainActor static var cellSource: CellSource { get }
}

/// A model whose content is captured when it enters a snapshot, so an object
/// mutated in place is still seen as changed by the diff.
///
/// Value types that are `Equatable` need nothing: their content is compared
/// with `==`. Classes that are mutated in place adopt this protocol.
///
/// A class whose stored properties change is not `Sendable` by itself, and
/// `@unchecked Sendable` would promise what it does not keep. Make it a main-actor
/// class instead (`Sendable` as such), mutated on the main actor, with an isolated
/// conformance (`@MainActor ContentFingerprinting`) and a `nonisolated let id`, which the
/// diff reads off the main actor. Build the snapshots that hold it on the main actor,
/// where it changes: a ``TableModel`` built off the main actor does not see a main-actor
/// conformance and compares the object by identity, so its changes go unseen there.
///
/// ```swift
/// @MainActor final class Counter: Identifiable, @MainActor ContentFingerprinting {
///     nonisolated let id: Int
///     var count = 0
///     var contentFingerprint: Int { count }
///     init(id: Int) { self.id = id }
/// }
///
/// @MainActor func increment(_ counter: Counter, of counters: [Counter], in controller: ListController) {
///     counter.count += 1
///     controller.apply(TableModel(counters))   // its row is configured again
/// }
/// ```
public protocol ContentFingerprinting {
    /// A value that changes whenever what the row shows changes.
    associatedtype Fingerprint: Hashable & Sendable
    /// The current fingerprint; read when the model enters a snapshot.
    var contentFingerprint: Fingerprint { get }
}

/// A model that refers to other objects, so that a resource arriving for one of
/// them reaches this model's visible cell too (a tweet refers to its author).
///
/// ```swift
/// struct Author: Identifiable, Sendable { let id: Int }
/// struct Post: Identifiable, Sendable, ResourceReferencing {
///     let id: Int
///     let author: Author
///     func refers(to object: Any) -> Bool { (object as? Author)?.id == author.id }
/// }
/// ```
public protocol ResourceReferencing {
    /// Whether a resource update of `object` concerns this model.
    func refers(to object: Any) -> Bool
}

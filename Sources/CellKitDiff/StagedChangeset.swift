/// One stage of a staged changeset: a batch, and the data to show once it is applied.
public struct Stage<Data> {
    /// The batch of changes for this stage.
    public var changeset: Changeset
    /// The data the list shows after this stage is applied.
    public var data: Data

    /// Creates a stage.
    @inlinable
    public init(changeset: Changeset, data: Data) {
        self.changeset = changeset
        self.data = data
    }
}

extension Stage: Sendable where Data: Sendable {}
extension Stage: Equatable where Data: Equatable {}

/// A duplicate identifier found while diffing, with where it was found.
///
/// CellKit's policy: the first occurrence of an identifier (in section order,
/// then item order) keeps the identity; every later occurrence is treated as a
/// distinct item that has no counterpart on the other side, so it is deleted
/// or inserted. The changeset stays valid; nothing is dropped silently.
public struct DuplicateIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// Which snapshot held the duplicate.
    public enum Side: String, Hashable, Sendable { case old, new }
    /// Which snapshot held the duplicate.
    public var side: Side
    /// The identifier, as text.
    public var identifier: String
    /// Every position where the identifier occurs in that snapshot, first one first.
    public var positions: [ItemPath]

    /// Creates a diagnostic.
    public init(side: Side, identifier: String, positions: [ItemPath]) {
        self.side = side
        self.identifier = identifier
        self.positions = positions
    }

    public var description: String {
        "duplicate identifier \(identifier) in \(side) snapshot at \(positions.map(\.description).joined(separator: ", ")); the first occurrence keeps the identity, later ones are distinct items"
    }
}

/// A sequence of batches that takes a list from an old snapshot to a new one.
///
/// Apply the stages in order, each in its own `performBatchUpdates`, setting the
/// list's data to the stage's ``Stage/data`` inside the update block. When
/// ``isReload`` is true the caller asked for a plain reload (the change was
/// larger than its threshold): call `reloadData` with ``finalData`` instead.
public struct StagedChangeset<Data> {
    /// The stages, in the order they must be applied.
    public var stages: [Stage<Data>]
    /// Duplicate identifiers found in the old or new snapshot.
    public var duplicates: [DuplicateIdentifier]
    /// Whether the changes exceeded the caller's threshold and a reload is advised.
    public var isReload: Bool
    /// The data after the last stage: the new snapshot.
    public var finalData: Data

    /// Creates a staged changeset.
    public init(stages: [Stage<Data>], duplicates: [DuplicateIdentifier] = [], isReload: Bool = false, finalData: Data) {
        self.stages = stages
        self.duplicates = duplicates
        self.isReload = isReload
        self.finalData = finalData
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { stages.allSatisfy { $0.changeset.isEmpty } && !isReload }
}

extension StagedChangeset: Sendable where Data: Sendable {}

/// Options for a diff.
public struct DiffOptions: Sendable {
    /// When the total number of changes exceeds this, the result is a reload
    /// (``StagedChangeset/isReload``) instead of stages. `nil`: never.
    public var reloadThreshold: Int?

    /// Creates options.
    public init(reloadThreshold: Int? = nil) {
        self.reloadThreshold = reloadThreshold
    }
}

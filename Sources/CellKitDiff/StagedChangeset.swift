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
/// or inserted. The changeset stays valid; nothing is dropped silently. Section
/// identifiers follow the same policy (a later section with the same identifier
/// is deleted or inserted as a whole).
///
/// Flat diffs first set aside the runs at the start and the end that are
/// identical in both snapshots (same identifier and equal content, position for
/// position; see ``DiffOptions/trimsIdenticalEnds``). Those rows stay as they are
/// and are neither hashed nor checked: the rows between the runs are diffed among
/// themselves, duplicates are looked for only among them, and ``positions`` lists
/// only those. So an identifier is reported when it occurs twice or more between
/// the runs (at those positions only, even when it occurs inside a run too: the first
/// of them is then the "first occurrence" the description names, and the row inside
/// the run stays as it is); one that occurs once between them and again inside a run is
/// not, and its row inside the run stays whichever occurrence comes first. Turn trimming off
/// to have every duplicate reported, at every position, with the first occurrence
/// keeping the identity.
public struct DuplicateIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// Which snapshot held the duplicate.
    public enum Side: String, Hashable, Sendable { case old, new }
    /// Whether the duplicate identifies items or sections.
    public enum Kind: String, Hashable, Sendable { case item, section }
    /// Which snapshot held the duplicate.
    public var side: Side
    /// Whether an item identifier or a section identifier is duplicated.
    public var kind: Kind
    /// The identifier, as text: `String(describing:)` of the id the diff compared.
    ///
    /// For a bare diff that is the element's `differenceIdentifier` as it prints
    /// (`5`, `"a"`); for rows of a CellKit model it is the row's `ItemID`-style
    /// description, the model type and its id (`Post(5)`). The text is not escaped here;
    /// CellKit's diagnostics escape control and bidi characters when they print it.
    public var identifier: String
    /// Every position where the identifier occurs in that snapshot, first one first
    /// (in a flat diff that trims identical ends, every position between the runs it
    /// set aside: see the type's discussion).
    ///
    /// For a section identifier, `section` is the section index and `item` is -1.
    public var positions: [ItemPath]

    /// Creates a diagnostic.
    public init(side: Side, kind: Kind = .item, identifier: String, positions: [ItemPath]) {
        self.side = side
        self.kind = kind
        self.identifier = identifier
        self.positions = positions
    }

    public var description: String {
        let places: String
        switch kind {
        case .item:
            // "rows 1, 2 of section 0 and row 0 of section 1": which number is the row is never in doubt.
            var groups: [(section: Int, rows: [Int])] = []
            for path in positions {
                if groups.last?.section == path.section { groups[groups.count - 1].rows.append(path.item) } else { groups.append((path.section, [path.item])) }
            }
            places = groups.map { "\($0.rows.count == 1 ? "row" : "rows") \($0.rows.map(String.init).joined(separator: ", ")) of section \($0.section)" }.joined(separator: " and ")
        case .section: places = "sections " + positions.map { String($0.section) }.joined(separator: ", ")
        }
        switch kind {
        case .item:
            return "duplicate identifier \(identifier) in \(side) snapshot at \(places); the first occurrence keeps the identity, later ones are distinct items"
        case .section:
            return "duplicate section identifier \(identifier) in \(side) snapshot at \(places); the first occurrence keeps the identity, later ones are distinct sections (each deleted or inserted whole, with its rows)"
        }
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
    /// Whether a flat diff first sets aside the identical runs at the start and the
    /// end (same identifier and equal content, position for position) before any
    /// hashing. On by default: "one new item at the top" of a long list then costs
    /// about one read of the arrays. Off: every element is hashed, so every
    /// duplicate identifier is reported, including those with an occurrence inside the
    /// identical runs (on, only duplicates between the runs are: see ``DuplicateIdentifier``).
    public var trimsIdenticalEnds: Bool

    /// Creates options.
    public init(reloadThreshold: Int? = nil, trimsIdenticalEnds: Bool = true) {
        self.reloadThreshold = reloadThreshold
        self.trimsIdenticalEnds = trimsIdenticalEnds
    }
}

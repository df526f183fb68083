/// A move of one element from an old position to a new one.
public struct Move<Index: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// The position before the update, in old coordinates.
    public var from: Index
    /// The position after the update, in new coordinates.
    public var to: Index

    /// Creates a move.
    @inlinable
    public init(from: Index, to: Index) {
        self.from = from
        self.to = to
    }

    public var description: String { "\(from)→\(to)" }
}

/// One batch of list changes, with UIKit's `performBatchUpdates` semantics.
///
/// Deletes, updates and the source of moves are in the coordinates *before*
/// the batch; inserts and the destination of moves are in the coordinates
/// *after* it. Section changes apply before item changes. A list view that
/// follows UIKit's rules accepts every `Changeset` that CellKit produces.
///
/// ```swift
/// var batch = Changeset()
/// batch.itemInserts = [ItemPath(item: 0, section: 0)]
/// assert(batch.changeCount == 1)
/// ```
public struct Changeset: Hashable, Sendable {
    /// Sections deleted, old indices.
    public var sectionDeletes: [Int]
    /// Sections inserted, new indices.
    public var sectionInserts: [Int]
    /// Sections whose header or footer changed, old indices.
    public var sectionUpdates: [Int]
    /// Sections moved, old index → new index.
    public var sectionMoves: [Move<Int>]
    /// Items deleted, old paths.
    public var itemDeletes: [ItemPath]
    /// Items inserted, new paths.
    public var itemInserts: [ItemPath]
    /// Items whose identity stayed and whose content changed, old paths.
    public var itemUpdates: [ItemPath]
    /// Items moved, old path → new path (possibly across sections).
    public var itemMoves: [Move<ItemPath>]

    /// Creates a changeset; every list defaults to empty.
    @inlinable
    public init(
        sectionDeletes: [Int] = [],
        sectionInserts: [Int] = [],
        sectionUpdates: [Int] = [],
        sectionMoves: [Move<Int>] = [],
        itemDeletes: [ItemPath] = [],
        itemInserts: [ItemPath] = [],
        itemUpdates: [ItemPath] = [],
        itemMoves: [Move<ItemPath>] = []
    ) {
        self.sectionDeletes = sectionDeletes
        self.sectionInserts = sectionInserts
        self.sectionUpdates = sectionUpdates
        self.sectionMoves = sectionMoves
        self.itemDeletes = itemDeletes
        self.itemInserts = itemInserts
        self.itemUpdates = itemUpdates
        self.itemMoves = itemMoves
    }

    /// The number of individual changes in the batch.
    @inlinable
    public var changeCount: Int {
        sectionDeletes.count + sectionInserts.count + sectionUpdates.count + sectionMoves.count
            + itemDeletes.count + itemInserts.count + itemUpdates.count + itemMoves.count
    }

    /// Whether the batch changes nothing.
    @inlinable
    public var isEmpty: Bool { changeCount == 0 }
}

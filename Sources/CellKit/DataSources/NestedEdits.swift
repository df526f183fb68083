/// The `edit(_:)` of a data source, re-entered or not: whether its closure runs, and the
/// edits made on the source from inside that closure (a helper of the screen that edits
/// the source, called from an edit): each ran at once on a copy of the content from
/// before the outer edit, and what it changed is applied after the outer edit, on its
/// result (see ``SimpleDataSource/edit(_:)``).
///
/// A class: a nested edit reaches it through the source while the outer edit runs.
final class NestedEdits<Content> {
    private enum Change {
        /// An edit that turned the content before the outer edit into this.
        case edited(Content)
        /// A `set` that replaced the content with this.
        case replaced(Content)
    }

    /// Whether the closure of an outer edit runs (a `set` then waits for its end).
    private(set) var isEditing = false
    private var changes: [Change] = []

    /// Notes a `set` made inside the outer edit (call it while ``isEditing``).
    func replaced(with content: Content) { changes.append(.replaced(content)) }

    /// Runs `change` on a copy of `content` (the source's content, which reading the
    /// source shows meanwhile) and returns what it returns. Called from inside an outer
    /// edit's `change`, that is all: what it did is noted, to be applied after the outer
    /// edit. Otherwise, when `change` returns or throws, `finish` gets the edited copy
    /// with the nested changes applied after it, in the order they were made (an edit's
    /// changes from `content` replayed by `replay`, a `set` replacing everything).
    func edit<Result>(
        _ content: Content, _ change: (inout Content) throws -> Result,
        replay: (_ before: Content, _ after: Content, _ onto: Content) -> Content,
        finish: (Content) -> Void
    ) rethrows -> Result {
        var edited = content
        guard !isEditing else {
            defer { changes.append(.edited(edited)) }
            return try change(&edited)
        }
        isEditing = true
        defer {
            isEditing = false
            var result = edited
            for change in changes {
                switch change {
                case .edited(let after): result = replay(content, after, result)
                case .replaced(let content): result = content
                }
            }
            changes.removeAll()
            finish(result)
        }
        return try change(&edited)
    }
}

/// Replaying what one edit changed (`before` → `after`) on content that another edit
/// changed meanwhile (`onto`), rows matched by identity; rows that share an identity
/// (duplicates) by content, then by order (see ``RowMatching``): which of them an edit
/// removed, kept or moved is read from what it left.
enum EditReplay {
    /// `onto` with the changes that turned `before` into `after`:
    /// - rows `after` lacks (removed) are removed;
    /// - rows whose content changed (not `isContentEqual`) replace their row;
    /// - rows `after` added, and rows it moved, are put where it put them: at the front
    ///   when nothing precedes them, at the end when nothing or only added rows follow them
    ///   (after rows `onto` appended, too), else after the row before them: the nearest row
    ///   before them in `after` that `onto` still has, at the top when `onto` has none of them.
    /// A row that `onto` no longer holds stays removed (it is not moved or updated back).
    static func replay<Row, ID: Hashable>(
        _ before: [Row], _ after: [Row], onto: [Row], id: (Row) -> ID, isContentEqual: (Row, Row) -> Bool
    ) -> [Row] {
        replayKeyed(before, after, onto: onto, id: id, isContentEqual: isContentEqual).rows
    }

    /// ``replay(_:_:onto:id:isContentEqual:)``, with the key of each row of the result (see
    /// ``RowMatching/keys(_:_:id:isContentEqual:)``: counted in `before`).
    static func replayKeyed<Row, ID: Hashable>(
        _ before: [Row], _ after: [Row], onto: [Row], id: (Row) -> ID, isContentEqual: (Row, Row) -> Bool
    ) -> (rows: [Row], keys: [RowMatching.Key<ID>]) {
        let keyed = RowMatching.keys(before, [after, onto], id: id, isContentEqual: isContentEqual)
        let afterKeys = keyed.versions[0]
        var beforeIndex: [RowMatching.Key<ID>: Int] = [:]
        beforeIndex.reserveCapacity(before.count)
        for (index, key) in keyed.before.enumerated() { beforeIndex[key] = index }
        let kept = Set(afterKeys)
        var result: [Row] = []
        var resultKeys: [RowMatching.Key<ID>] = []
        for (row, key) in zip(onto, keyed.versions[1]) where beforeIndex[key] == nil || kept.contains(key) {
            result.append(row)
            resultKeys.append(key)
        }

        // The kept rows that did not move: the longest run in their old order.
        var stayed: [(after: Int, before: Int)] = []
        for (index, key) in afterKeys.enumerated() {
            if let old = beforeIndex[key] { stayed.append((index, old)) }
        }
        let stays = Set(longestIncreasing(stayed.map(\.before)).map { stayed[$0].after })
        // Whether a row of `before` follows position `index` of `after`.
        var keptAfter = [Bool](repeating: false, count: after.count + 1)
        for index in after.indices.reversed() {
            keptAfter[index] = keptAfter[index + 1] || beforeIndex[afterKeys[index]] != nil
        }

        for (index, row) in after.enumerated() {
            let key = afterKeys[index]
            let position = resultKeys.firstIndex(of: key)
            if let old = beforeIndex[key] {
                guard let position else { continue }  // removed meanwhile: stays removed
                if !isContentEqual(before[old], row) { result[position] = row }
                if stays.contains(index) { continue }
                result.remove(at: position)
                resultKeys.remove(at: position)
            } else if position != nil {
                continue  // added meanwhile too
            }
            let target: Int
            if index == 0 {
                target = 0
            } else if !keptAfter[index + 1] {
                target = result.count
            } else {
                var anchor: Int?
                var previous = index - 1
                while anchor == nil, previous >= 0 {
                    anchor = resultKeys.firstIndex(of: afterKeys[previous])
                    previous -= 1
                }
                target = anchor.map { $0 + 1 } ?? 0
            }
            result.insert(row, at: min(target, result.count))
            resultKeys.insert(key, at: min(target, resultKeys.count))
        }
        return (result, resultKeys)
    }

    /// `onto` with what turned the items `before` into `after`, rows matched by their
    /// ``ItemID`` and compared as ``ListItem`` rows are (`==` for `Equatable` models).
    static func replay<Item: Identifiable & Sendable>(_ before: [Item], _ after: [Item], onto: [Item]) -> [Item] where Item.ID: Sendable {
        replay(before, after, onto: onto, id: { ItemID($0) }, isContentEqual: { ListItem($0).isContentEqual(to: ListItem($1)) })
    }

    /// `onto` with what turned the model `before` into `after`: sections matched by
    /// ``SectionID`` (added, removed and moved as rows are; their titles replaced when
    /// they changed), and in each section both hold, its rows replayed by identity.
    static func replay(_ before: TableModel, _ after: TableModel, onto: TableModel) -> TableModel {
        var result = onto
        // Sections that share an ID are told apart by their order (see ``RowMatching``).
        let sections = replayKeyed(before.sections, after.sections, onto: onto.sections, id: \.id, isContentEqual: { _, _ in true })
        result.sections = sections.rows
        let keyed = RowMatching.keys(before.sections, [after.sections], id: \.id, isContentEqual: { _, _ in true })
        var beforeSections: [RowMatching.Key<SectionID>: TableSection] = [:]
        for (key, section) in zip(keyed.before, before.sections) { beforeSections[key] = section }
        var afterSections: [RowMatching.Key<SectionID>: TableSection] = [:]
        for (key, section) in zip(keyed.versions[0], after.sections) { afterSections[key] = section }
        for (index, key) in sections.keys.enumerated() {
            let sectionID = key.id
            guard let old = beforeSections[key], let new = afterSections[key] else { continue }
            if old.header != new.header { result.sections[index].header = new.header }
            if old.footer != new.footer { result.sections[index].footer = new.footer }
            let oldRows = Array(old.items)
            let newRows = Array(new.items)
            let unchanged = oldRows.count == newRows.count
                && zip(oldRows, newRows).allSatisfy { $0.id == $1.id && $0.isContentEqual(to: $1) }
            guard !unchanged else { continue }
            let rows = replay(oldRows, newRows, onto: Array(result.sections[index].items), id: \.id,
                              isContentEqual: { $0.isContentEqual(to: $1) })
            result.sections[index] = TableSection(id: sectionID, header: result.sections[index].header,
                                                  footer: result.sections[index].footer, items: rows)
        }
        if before.sectionIndexStyle != after.sectionIndexStyle { result.sectionIndexStyle = after.sectionIndexStyle }
        return result
    }

    /// The positions in `values` of one longest strictly increasing subsequence.
    /// - Complexity: O(*n* log *n*).
    static func longestIncreasing(_ values: [Int]) -> [Int] {
        var tails: [Int] = []              // positions of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var result: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            result.append(position)
            position = previous[position]
        }
        return result.reversed()
    }
}

/// One section of a ``TableModel``: an identity, optional header and footer titles, and rows.
///
/// A section built from an array of one value type (by ``TableModel``'s initialisers
/// and `append` from an array of models) keeps its rows as that one type, in one
/// contiguous copy of the array (an app that keeps its own array as well holds the rows
/// twice): its rows are typed, cost the size of the model each, and are diffed as fast as the bare diff
/// of the same values. A section built from ``ListItem``s (models of several types,
/// built by hand) keeps those. Both mean the same rows; see <doc:Performance>.
public struct TableSection: Sendable, CustomStringConvertible {
    /// The section's identity, used by the diff to match sections.
    public var id: SectionID
    /// The header title, if any.
    public var header: String?
    /// The footer title, if any.
    public var footer: String?
    /// The rows, typed or type-erased.
    @usableFromInline var rows: _SectionRows

    /// The rows, as ``ListItem``s: a collection read on demand.
    ///
    /// Reading a row of a typed section (built from an array of one model type)
    /// makes its `ListItem` then; counting, reading and replacing the whole
    /// collection cost nothing per row. Changing rows through it (insert, remove,
    /// assign one) turns a typed section into `ListItem` rows; ``TableModel``'s
    /// mutations keep a typed section typed where they can.
    public var items: Items {
        get { Items(rows: rows) }
        _modify {
            var items = Items(rows: rows)
            rows = .empty
            defer { rows = items.rows }
            yield &items
        }
        set { rows = newValue.rows }
    }

    /// Creates a section.
    public init(id: SectionID, header: String? = nil, footer: String? = nil, items: [ListItem] = []) {
        self.init(id: id, header: header, footer: footer, rows: .items(items))
    }

    /// Creates a section with the rows of another one (typed rows stay typed).
    public init(id: SectionID, header: String? = nil, footer: String? = nil, items: Items) {
        self.init(id: id, header: header, footer: footer, rows: items.rows)
    }

    @usableFromInline
    init(id: SectionID, header: String?, footer: String?, rows: _SectionRows) {
        self.id = id
        self.header = header
        self.footer = footer
        self.rows = rows
    }

    /// The number of rows.
    var count: Int { rows.count }

    public var description: String {
        "Section \(id)\(header.map { " \"\($0)\"" } ?? ""): \(count) rows"
    }
}

extension TableSection {
    /// The rows of a section as ``ListItem``s, read on demand: see ``TableSection/items``.
    ///
    /// A random-access, mutable and range-replaceable collection indexed from 0, so
    /// it reads and edits like an array (`count`, subscripts, `first`, `map`,
    /// `append`, `remove(at:)`); `Array(section.items)` makes an array.
    public struct Items: RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
        ExpressibleByArrayLiteral, Sendable, CustomStringConvertible
    {
        @usableFromInline var rows: _SectionRows

        init(rows: _SectionRows) { self.rows = rows }

        /// No rows.
        public init() { rows = .empty }

        /// The rows listed.
        public init(arrayLiteral elements: ListItem...) { rows = .items(elements) }

        public var startIndex: Int { 0 }
        public var endIndex: Int { rows.count }

        /// The row at `position` (0 ..< `count`).
        public subscript(position: Int) -> ListItem {
            get {
                precondition(position >= 0 && position < rows.count, "TableSection.Items: row \(position) is out of range 0..<\(rows.count)")
                return rows.item(at: position)
            }
            set {
                precondition(position >= 0 && position < rows.count, "TableSection.Items: row \(position) is out of range 0..<\(rows.count)")
                rows.replace(position..<position + 1, with: .items([newValue]))
            }
        }

        public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == ListItem {
            precondition(subrange.lowerBound >= 0 && subrange.upperBound <= rows.count, "TableSection.Items: rows \(subrange) are out of range 0..<\(rows.count)")
            rows.replace(subrange, with: .items(Array(newElements)))
        }

        public mutating func reserveCapacity(_ n: Int) {
            withListItems { $0.reserveCapacity(n) }
        }

        public var description: String { "[" + map(\.description).joined(separator: ", ") + "]" }

        /// Runs `body` on the rows as an array held only here (edited in place).
        private mutating func withListItems<R>(_ body: (inout [ListItem]) -> R) -> R {
            var items: [ListItem]
            if case .items(let held) = rows { items = held } else { items = rows.listItems }
            rows = .empty
            defer { rows = .items(items) }
            return body(&items)
        }
    }
}

/// How a table shows its section index (Nimbus `NITableViewModelSectionIndex`).
public enum SectionIndexStyle: Hashable, Sendable {
    /// No section index.
    case none
    /// The first letters of the section header titles.
    case dynamic
    /// A to Z, then `#`, whatever sections exist (none when there is no section: see
    /// ``TableModel/sectionIndexTitles``).
    case alphabetic
}

/// The rows of a list, in sections: what a data source publishes and a list shows
/// (Nimbus `NITableViewModel` / `NIMutableTableViewModel`, Coffee's 2-D array).
///
/// A value type: mutate a copy, then hand it to a ``ListController``, which
/// diffs it against what is shown. The mutating methods also return the
/// ``/CellKitDiff/Changeset`` that animates what they did, for code that drives a list view by
/// hand: hand it to ``ListView/performBatchUpdates(_:updateData:)``, switching the
/// data source to the changed model in the update closure. An `append` that creates
/// the model's first section returns that section's insert, not its rows' (the rows
/// of an inserted section come with it).
///
/// ```swift
/// struct Tweet: Identifiable, Equatable, Sendable { let id: Int; var text: String }
/// var model = TableModel()
/// let section = model.appendSection(header: "Today")
/// let inserted = model.append([Tweet(id: 1, text: "hello")], toSection: section)
/// assert(inserted == Changeset(itemInserts: [ItemPath(item: 0, section: 0)]))
/// assert(model.indexPath(of: Tweet(id: 1, text: "")) == ItemPath(item: 0, section: 0))
/// var first = TableModel()
/// assert(first.append([Tweet(id: 2, text: "new")]) == Changeset(sectionInserts: [0]))
/// ```
public struct TableModel: Sendable, CustomStringConvertible {
    /// The sections, in order.
    public var sections: [TableSection]
    /// How the section index is built.
    public var sectionIndexStyle: SectionIndexStyle

    /// Creates a model from sections.
    public init(sections: [TableSection] = [], sectionIndexStyle: SectionIndexStyle = .none) {
        self.sections = sections
        self.sectionIndexStyle = sectionIndexStyle
    }

    /// Creates a one-section model from `Identifiable` models (Coffee's flat array).
    ///
    /// Inlinable, so that the walk over `models` is specialised for `Model` in the
    /// caller: unspecialised, reading each element allocated once per row.
    @inlinable
    public init<Model: Identifiable & Sendable>(_ models: [Model]) where Model.ID: Sendable {
        self.init(sections: [TableSection(id: 0, header: nil, footer: nil, rows: _identifiableRows(models))])
    }

    /// Creates a one-section model from `Hashable` models that are not
    /// `Identifiable`: each row's identity is its value (see <doc:RowIdentity>).
    /// A type that is both goes by its `id`.
    @_disfavoredOverload
    @inlinable
    public init<Model: Hashable & Sendable>(_ models: [Model]) {
        self.init(sections: [TableSection(id: 0, header: nil, footer: nil, rows: _hashableRows(models))])
    }

    /// Creates one section per inner array (Coffee's two-dimensional array).
    @inlinable
    public init<Model: Identifiable & Sendable>(sections models: [[Model]]) where Model.ID: Sendable {
        self.init(sections: models.enumerated().map { TableSection(id: SectionID($0.offset), header: nil, footer: nil, rows: _identifiableRows($0.element)) })
    }

    /// Creates one section per inner array of `Hashable` models that are not
    /// `Identifiable` (each row's identity is its value).
    @_disfavoredOverload
    @inlinable
    public init<Model: Hashable & Sendable>(sections models: [[Model]]) {
        self.init(sections: models.enumerated().map { TableSection(id: SectionID($0.offset), header: nil, footer: nil, rows: _hashableRows($0.element)) })
    }

    /// The number of rows in all sections.
    public var itemCount: Int { sections.reduce(0) { $0 + $1.count } }
    /// Whether there are no rows (there may be empty sections).
    public var isEmpty: Bool { sections.allSatisfy { $0.count == 0 } }

    /// The row at `path`, or `nil` if `path` is out of range.
    public func item(at path: ItemPath) -> ListItem? {
        guard contains(path) else { return nil }
        return sections[path.section].rows.item(at: path.item)
    }

    /// Whether a row exists at `path`.
    func contains(_ path: ItemPath) -> Bool {
        sections.indices.contains(path.section) && path.item >= 0 && path.item < sections[path.section].count
    }

    /// The number of rows in `section`; 0 for a section that does not exist.
    public func itemCount(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].count : 0
    }

    /// The header title of `section`, if it exists and has one.
    public func header(ofSection section: Int) -> String? {
        sections.indices.contains(section) ? sections[section].header : nil
    }

    /// The footer title of `section`, if it exists and has one.
    public func footer(ofSection section: Int) -> String? {
        sections.indices.contains(section) ? sections[section].footer : nil
    }

    /// The model at `path`, or `nil` if `path` is out of range.
    public func model(at path: ItemPath) -> (any Sendable)? {
        guard contains(path) else { return nil }
        return sections[path.section].rows.model(at: path.item)
    }

    /// The path of the row with identity `id`. - Complexity: O(n).
    public func indexPath(of id: ItemID) -> ItemPath? {
        for (s, section) in sections.enumerated() {
            if let i = section.rows.firstIndex(of: id) { return ItemPath(item: i, section: s) }
        }
        return nil
    }

    /// The paths of every row showing the object with identity `id` (`ItemID(photo)`), in
    /// order: the rows with that identity (a duplicate's too) and the rows made with an
    /// explicit id (``ListItem/init(_:id:)``) whose model's own identity it is; the rows a
    /// resource of the object reaches. `indexPath(of:)` gives the first row with the identity.
    ///
    /// ```swift
    /// struct Photo: Identifiable, Equatable, Sendable { let id: Int }
    /// var model = TableModel([Photo(id: 1), Photo(id: 2), Photo(id: 1)])   // a duplicate
    /// model.append([ListItem(Photo(id: 1), id: "pinned")])
    /// assert(model.indexPaths(of: ItemID(Photo(id: 1))) == [ItemPath(item: 0, section: 0), ItemPath(item: 2, section: 0), ItemPath(item: 3, section: 0)])
    /// ```
    /// - Complexity: O(n).
    public func indexPaths(of id: ItemID) -> [ItemPath] {
        var paths: [ItemPath] = []
        for (s, section) in sections.enumerated() {
            let rows = section.rows
            for i in 0..<rows.count {
                let item = rows.item(at: i)
                if item.id == id || item.showsObject(id) { paths.append(ItemPath(item: i, section: s)) }
            }
        }
        return paths
    }

    /// The path of the row with identity `id` nearest to `path` (by position in the
    /// whole list; of two as near, the earlier), or `nil` when no row has it.
    /// - Complexity: O(n).
    func indexPath(of id: ItemID, nearest path: ItemPath) -> ItemPath? {
        let target = sections.prefix(min(path.section, sections.count)).reduce(0) { $0 + $1.rows.count } + path.item
        var best: (path: ItemPath, distance: Int)?
        var offset = 0
        for (s, section) in sections.enumerated() {
            let rows = section.rows
            for i in 0..<rows.count where rows.item(at: i).id == id {
                let distance = abs(offset + i - target)
                if best.map({ distance < $0.distance }) ?? true { best = (ItemPath(item: i, section: s), distance) }
            }
            offset += rows.count
        }
        return best?.path
    }

    /// The path of the row showing `model`, matched by its identity (``ItemID``):
    /// an equal fresh copy finds the row too. - Complexity: O(n).
    public func indexPath<Model: Identifiable & Sendable>(of model: Model) -> ItemPath? where Model.ID: Sendable {
        indexPath(of: ItemID(model))
    }

    /// The path of the row showing `model`, a `Hashable` model that is its own
    /// identity (``ItemID``). - Complexity: O(n).
    public func indexPath<Model: Hashable & Sendable>(of model: Model) -> ItemPath? {
        indexPath(of: ItemID(model))
    }

    /// The path of the row showing `model`, which is `Identifiable` and `Hashable`:
    /// matched by its `id` (``ItemID``). - Complexity: O(n).
    public func indexPath<Model: Identifiable & Hashable & Sendable>(of model: Model) -> ItemPath? where Model.ID: Sendable {
        indexPath(of: ItemID(model))
    }

    public var description: String { "TableModel(\(sections.count) sections, \(itemCount) rows)" }
}

// MARK: - Mutations

extension TableModel {
    /// Appends an empty section; returns its index (to append rows to; animate it as
    /// `Changeset(sectionInserts: [index])`).
    @discardableResult
    public mutating func appendSection(id: SectionID? = nil, header: String? = nil, footer: String? = nil) -> Int {
        sections.append(TableSection(id: id ?? SectionID(header ?? "section-\(sections.count)"), header: header, footer: footer))
        return sections.count - 1
    }

    /// Inserts an empty section at `index`; returns the changes to animate (the section inserted).
    ///
    /// - Precondition: `index` is in `0...sections.count` (the mutations of a table
    ///   model trap on an index out of range, as `Array`'s do, naming the mutation and
    ///   the index).
    @discardableResult
    public mutating func insertSection(id: SectionID, header: String? = nil, footer: String? = nil, at index: Int) -> Changeset {
        precondition((0...sections.count).contains(index), "TableModel.insertSection: index \(index) is out of range 0...\(sections.count)")
        sections.insert(TableSection(id: id, header: header, footer: footer), at: index)
        return Changeset(sectionInserts: [index])
    }

    /// Removes the section at `index`; returns the changes to animate (the section deleted).
    ///
    /// - Precondition: the section exists (else it traps, naming the index).
    @discardableResult
    public mutating func removeSection(at index: Int) -> Changeset {
        precondition(sections.indices.contains(index), "TableModel.removeSection: section \(index) does not exist (\(sections.count) sections)")
        sections.remove(at: index)
        return Changeset(sectionDeletes: [index])
    }

    /// Moves the section at `from` to `to`; returns the changes to animate (the move).
    ///
    /// - Precondition: both sections exist (else it traps, naming them).
    @discardableResult
    public mutating func moveSection(from: Int, to: Int) -> Changeset {
        precondition(sections.indices.contains(from) && sections.indices.contains(to), "TableModel.moveSection: \(from)→\(to) is out of range (\(sections.count) sections)")
        sections.insert(sections.remove(at: from), at: to)
        return Changeset(sectionMoves: [Move(from: from, to: to)])
    }

    /// Appends rows to `section` (the last section when `nil`, creating one if there is none);
    /// returns the changes to animate: the rows inserted, or, when it created the section,
    /// that section's insert (its rows come with it).
    @discardableResult
    public mutating func append(_ items: [ListItem], toSection section: Int? = nil) -> Changeset {
        append(rows: .items(items), toSection: section)
    }

    /// Appends `rows` (typed rows stay typed when the section's are of their type).
    @usableFromInline
    mutating func append(rows: _SectionRows, toSection section: Int?) -> Changeset {
        let createsSection = sections.isEmpty
        if createsSection { appendSection() }
        let s = section ?? sections.count - 1
        precondition(sections.indices.contains(s), "TableModel.append: section \(s) does not exist (\(sections.count) sections)")
        let start = sections[s].count
        sections[s].rows.replace(start..<start, with: rows)
        // A list view takes the rows of an inserted section with it: naming them too breaks the batch.
        if createsSection { return Changeset(sectionInserts: [s]) }
        return Changeset(itemInserts: (start..<start + rows.count).map { ItemPath(item: $0, section: s) })
    }

    /// Appends `Identifiable` models to `section`; returns the changes to animate (the rows inserted, or the section it created).
    @discardableResult
    @inlinable
    public mutating func append<Model: Identifiable & Sendable>(_ models: [Model], toSection section: Int? = nil) -> Changeset where Model.ID: Sendable {
        append(rows: _identifiableRows(models), toSection: section)
    }

    /// Appends `Hashable` models that are not `Identifiable` to `section`; returns the changes to animate (the rows inserted, or the section it created).
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public mutating func append<Model: Hashable & Sendable>(_ models: [Model], toSection section: Int? = nil) -> Changeset {
        append(rows: _hashableRows(models), toSection: section)
    }

    /// Inserts rows starting at `path`; returns the changes to animate (the rows inserted).
    ///
    /// - Precondition: the section exists and `path.item` is in `0...count` of it (else
    ///   it traps, naming the section and row).
    @discardableResult
    public mutating func insert(_ items: [ListItem], at path: ItemPath) -> Changeset {
        insert(rows: .items(items), at: path)
    }

    /// Inserts `Identifiable` models starting at `path`; returns the changes to animate (the rows inserted).
    @inlinable
    @discardableResult
    public mutating func insert<Model: Identifiable & Sendable>(_ models: [Model], at path: ItemPath) -> Changeset where Model.ID: Sendable {
        insert(rows: _identifiableRows(models), at: path)
    }

    /// Inserts `Hashable` models that are not `Identifiable` starting at `path`; returns the changes to animate.
    @_disfavoredOverload
    @inlinable
    @discardableResult
    public mutating func insert<Model: Hashable & Sendable>(_ models: [Model], at path: ItemPath) -> Changeset {
        insert(rows: _hashableRows(models), at: path)
    }

    /// Inserts `rows` starting at `path` (typed rows stay typed when the section's are of their type).
    @usableFromInline
    mutating func insert(rows: _SectionRows, at path: ItemPath) -> Changeset {
        precondition(sections.indices.contains(path.section), "TableModel.insert: section \(path.section) does not exist (\(sections.count) sections)")
        precondition((0...sections[path.section].count).contains(path.item), "TableModel.insert: row \(path.item) is out of range 0...\(sections[path.section].count) in section \(path.section)")
        sections[path.section].rows.replace(path.item..<path.item, with: rows)
        return Changeset(itemInserts: (path.item..<path.item + rows.count).map { ItemPath(item: $0, section: path.section) })
    }

    /// Removes the row at `path`; returns the changes to animate (the row deleted).
    ///
    /// - Precondition: a row is at `path` (else it traps, naming the section and row, as
    ///   `Array.remove(at:)` does; check with ``item(at:)`` when unsure).
    @discardableResult
    public mutating func remove(at path: ItemPath) -> Changeset {
        precondition(contains(path), "TableModel.remove: no row at section \(path.section), row \(path.item)")
        sections[path.section].rows.replace(path.item..<path.item + 1, with: .empty)
        return Changeset(itemDeletes: [path])
    }

    /// Moves the row at `from` to `to` (possibly across sections); returns the changes to animate (the move).
    ///
    /// - Precondition: a row is at `from`, and `to` is a valid insertion point once it is
    ///   removed (else it traps, naming the section and row).
    @discardableResult
    public mutating func move(from: ItemPath, to: ItemPath) -> Changeset {
        precondition(contains(from), "TableModel.move: no row at section \(from.section), row \(from.item)")
        let moved = sections[from.section].rows.slice(from.item..<from.item + 1)
        sections[from.section].rows.replace(from.item..<from.item + 1, with: .empty)
        precondition(sections.indices.contains(to.section) && (0...sections[to.section].count).contains(to.item),
                     "TableModel.move: destination section \(to.section), row \(to.item) is out of range")
        sections[to.section].rows.replace(to.item..<to.item, with: moved)
        return Changeset(itemMoves: [Move(from: from, to: to)])
    }

    /// Replaces the row at `path` with `item` (same position); returns the changes to animate (the row updated).
    ///
    /// - Precondition: a row is at `path` (else it traps, naming the section and row).
    @discardableResult
    public mutating func replace(at path: ItemPath, with item: ListItem) -> Changeset {
        precondition(contains(path), "TableModel.replace: no row at section \(path.section), row \(path.item)")
        sections[path.section].rows.replace(path.item..<path.item + 1, with: .items([item]))
        return Changeset(itemUpdates: [path])
    }
}

// MARK: - Section index

extension TableModel {
    /// The titles of the section index for ``sectionIndexStyle``.
    ///
    /// A model with no section (or only the placeholder row a ``ListController`` shows for an
    /// empty list) has none, whatever the style: no index title would have a section to go to.
    public var sectionIndexTitles: [String] {
        switch sectionIndexStyle {
        case .none: return []
        case .alphabetic: return sections.contains { $0.id != .placeholder } ? Self.alphabet : []
        case .dynamic:
            var seen = Set<String>()
            return sections.compactMap { $0.header.flatMap(Self.initial) }.filter { seen.insert($0).inserted }
        }
    }

    /// The section a tap on the index title `title` at `index` scrolls to: the first
    /// section whose header starts with `title`, else the last one before it (in the
    /// A–Z index, a letter with no section goes to the letter before it that has one:
    /// the rows near it; the first section for letters before every section). A model with no
    /// section shows no index (``sectionIndexTitles`` is empty); asked all the same, it answers 0.
    public func section(forSectionIndexTitle title: String, at index: Int) -> Int {
        guard !sections.isEmpty else { return 0 }
        var best = 0
        for (i, section) in sections.enumerated() {
            guard let initial = section.header.flatMap(Self.initial) else { continue }
            if initial == title { return i }
            if Self.order(initial) < Self.order(title) { best = i }
        }
        return best
    }

    static let alphabet: [String] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) } + ["#"]

    /// The index letter of `title`: the first letter after any leading spaces, A–Z,
    /// an accented Latin letter under its base letter (É under E, ø under O), `#` for
    /// anything else; `nil` for a title with no characters but spaces.
    static func initial(_ title: String) -> String? {
        guard let first = title.first(where: { !isBlankLead($0) }) else { return nil }
        return baseLetter(first) ?? "#"
    }

    /// `character` as a letter A–Z, if it is one, possibly accented (read from the
    /// Unicode name of its first scalar: "LATIN SMALL LETTER E WITH ACUTE" is E).
    static func baseLetter(_ character: Character) -> String? {
        let letters = alphabet.dropLast()
        let upper = String(character).uppercased()
        if letters.contains(upper) { return upper }
        guard let name = character.unicodeScalars.first?.properties.name else { return nil }
        for prefix in ["LATIN CAPITAL LETTER ", "LATIN SMALL LETTER "] where name.hasPrefix(prefix) {
            let letter = String(name.dropFirst(prefix.count).prefix { $0 != " " })
            return letters.contains(letter) ? letter : nil
        }
        return nil
    }

    /// Whether `character` is passed over before an initial: a space, or a character
    /// that shows nothing (a bidirectional control or mark, a zero-width space, a byte
    /// order mark, a control character).
    static func isBlankLead(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy(BlankText.isInvisible)
    }

    static func order(_ title: String) -> Int { alphabet.firstIndex(of: title) ?? alphabet.count }
}

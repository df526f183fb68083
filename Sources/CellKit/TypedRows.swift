import CellKitDiff

// Typed row storage: a section built from an array of one model type keeps that
// array (one box per section, not one type-erased `ListItem` per row), and the
// controller diffs it with the generic diff specialised for that type, as fast as
// the bare diff of the same values. Everything that must run specialised is
// `@inlinable` and reached from the `@inlinable` builders (`TableModel.init(_:)`,
// `append(_:toSection:)`): their bodies are compiled in the caller's module, where
// the model type is concrete, and the diff closure they store in the box is
// compiled there too.
//
// A typed row means exactly what `ListItem(model)` means (identity: the model's
// type and `id`, or its value for `Hashable` models; content: `==` for `Equatable`
// models, unchanged otherwise). Models whose rows need more than that stay
// `ListItem`s: classes (their identity and content depend on the runtime class
// and the object) and `ContentFingerprinting` models (fingerprints are captured
// per row).

/// How a typed section finds a row's identity and compares its content.
@usableFromInline
protocol _RowRule: Sendable {
    /// The model type of the section.
    associatedtype Model: Sendable
    /// The identity the diff matches rows by (within one model type).
    associatedtype ID: Hashable
    static func id(of model: Model) -> ID
    static func contentEqual(_ a: Model, _ b: Model) -> Bool
    /// The row as a type-erased ``ListItem``, exactly as `ListItem(model)` makes it.
    static func listItem(_ model: Model) -> ListItem
    /// The identity of the row as an ``ItemID``.
    static func itemID(_ model: Model) -> ItemID
}

/// A row of typed storage as the diff sees it; its layout is the model's.
@usableFromInline
struct _Row<Rule: _RowRule>: Differentiable, @unchecked Sendable {
    @usableFromInline let model: Rule.Model

    @inlinable init(_ model: Rule.Model) { self.model = model }

    @inlinable var differenceIdentifier: Rule.ID { Rule.id(of: model) }

    @inlinable func isContentEqual(to other: _Row) -> Bool { Rule.contentEqual(model, other.model) }
}

/// `Identifiable` models that are not `Equatable`: identity is the `id`, content never differs.
@usableFromInline
enum _IdentifiableRule<Model: Identifiable & Sendable>: _RowRule where Model.ID: Sendable {
    @inlinable static func id(of model: Model) -> Model.ID { model.id }
    @inlinable static func contentEqual(_ a: Model, _ b: Model) -> Bool { true }
    @usableFromInline static func listItem(_ model: Model) -> ListItem { ListItem(model) }
    @usableFromInline static func itemID(_ model: Model) -> ItemID { ItemID(model) }
}

/// `Identifiable` models that are `Equatable` (`Equal` is `Model`, known as `Equatable`
/// only once the conformance was found): identity is the `id`, content is `==`.
@usableFromInline
enum _EquatableIdentifiableRule<Model: Identifiable & Sendable, Equal: Equatable>: _RowRule where Model.ID: Sendable {
    @inlinable static func id(of model: Model) -> Model.ID { model.id }
    @inlinable static func contentEqual(_ a: Model, _ b: Model) -> Bool {
        unsafeBitCast(a, to: Equal.self) == unsafeBitCast(b, to: Equal.self)
    }
    @usableFromInline static func listItem(_ model: Model) -> ListItem { ListItem(model) }
    @usableFromInline static func itemID(_ model: Model) -> ItemID { ItemID(model) }
}

/// `Hashable` models that are their own identity: a matched row is an equal value, so content never differs.
@usableFromInline
enum _HashableRule<Model: Hashable & Sendable>: _RowRule {
    @inlinable static func id(of model: Model) -> Model { model }
    @inlinable static func contentEqual(_ a: Model, _ b: Model) -> Bool { true }
    @usableFromInline static func listItem(_ model: Model) -> ListItem { ListItem(model) }
    @usableFromInline static func itemID(_ model: Model) -> ItemID { ItemID(model) }
}

/// The staged changes between two models whose sections are all typed with one
/// rule (or empty); `nil` when they are not.
@usableFromInline
typealias _TypedDiffer = @Sendable (_ old: TableModel, _ new: TableModel, _ options: DiffOptions) -> TableChangeset?

/// The rows of a typed section, type-erased; shared between copies of a model, and
/// changed in place only by a sole owner (`replacing(_:with:inPlace:)`).
@usableFromInline
class _AnyTypedRows: @unchecked Sendable {
    /// The diff and the look-up of this rule, specialised where the rows were built.
    @usableFromInline let ops: _TypedOps

    @usableFromInline
    init(ops: _TypedOps) {
        self.ops = ops
    }

    var count: Int { fatalError("abstract") }
    /// The model type of the rows (every row's ``ItemID`` has it).
    var modelType: any Any.Type { fatalError("abstract") }
    func model(at index: Int) -> any Sendable { fatalError("abstract") }
    func item(at index: Int) -> ListItem { fatalError("abstract") }
    @usableFromInline func listItems() -> [ListItem] { fatalError("abstract") }
    /// The first row with identity `id`, or `nil`.
    func firstIndex(of id: ItemID) -> Int? { fatalError("abstract") }
    /// These rows with `range` replaced by `other`'s rows (none when `nil`); `nil`
    /// when `other` has another rule. Mutates these rows in place when `inPlace`
    /// (the caller holds the only reference) and returns `self`.
    func replacing(_ range: Range<Int>, with other: _AnyTypedRows?, inPlace: Bool) -> _AnyTypedRows? { fatalError("abstract") }
    /// `items` as rows of this rule, if each is a model of its type under its own
    /// identity (a `ListItem(model)` of it); `nil` otherwise.
    func converting(_ items: [ListItem]) -> _AnyTypedRows? { fatalError("abstract") }
    /// The rows in `range`.
    func slice(_ range: Range<Int>) -> _AnyTypedRows { fatalError("abstract") }
    /// These rows after a first stage that deletes the rows at `deletes` and updates
    /// those at `updates` (both ascending), when the rows of `new` (of this rule) are
    /// the rows left, one to one: an updated row shows its version in `new`.
    func kept(deleting deletes: [ItemPath], updating updates: [ItemPath], new: _AnyTypedRows) -> _AnyTypedRows { fatalError("abstract") }
}

@usableFromInline
final class _TypedRows<Rule: _RowRule>: _AnyTypedRows, @unchecked Sendable {
    /// Changed only while a single owner holds the box (`replacing(_:with:inPlace:)`).
    @usableFromInline private(set) var rows: [_Row<Rule>]

    @inlinable
    init(_ rows: [_Row<Rule>], ops: _TypedOps) {
        self.rows = rows
        super.init(ops: ops)
    }

    override var count: Int { rows.count }
    override var modelType: any Any.Type { Rule.Model.self }
    override func model(at index: Int) -> any Sendable { rows[index].model }
    override func item(at index: Int) -> ListItem { Rule.listItem(rows[index].model) }
    override func listItems() -> [ListItem] { rows.map { Rule.listItem($0.model) } }

    override func firstIndex(of id: ItemID) -> Int? { ops.firstIndex(self, id) }

    override func replacing(_ range: Range<Int>, with other: _AnyTypedRows?, inPlace: Bool) -> _AnyTypedRows? {
        var replacement: [_Row<Rule>] = []
        if let other {
            guard let other = other as? _TypedRows<Rule> else { return nil }
            replacement = other.rows
        }
        if inPlace {
            rows.replaceSubrange(range, with: replacement)
            return self
        }
        var rows = self.rows
        rows.replaceSubrange(range, with: replacement)
        return _TypedRows(rows, ops: ops)
    }

    override func converting(_ items: [ListItem]) -> _AnyTypedRows? {
        var rows: [_Row<Rule>] = []
        rows.reserveCapacity(items.count)
        for item in items {
            guard item.id.modelType == Rule.Model.self, let model = item.model as? Rule.Model,
                  Rule.itemID(model) == item.id else { return nil }
            rows.append(_Row(model))
        }
        return _TypedRows(rows, ops: ops)
    }

    override func slice(_ range: Range<Int>) -> _AnyTypedRows { _TypedRows(Array(rows[range]), ops: ops) }

    override func kept(deleting deletes: [ItemPath], updating updates: [ItemPath], new: _AnyTypedRows) -> _AnyTypedRows {
        _TypedRows(_keptRows(rows, deleting: deletes, updating: updates, new: unsafeDowncast(new, to: _TypedRows<Rule>.self).rows), ops: ops)
    }
}

/// The rows of a section: typed (one model type, in one array) or type-erased.
@usableFromInline
enum _SectionRows: Sendable {
    case items([ListItem])
    case typed(_AnyTypedRows)

    @inlinable static var empty: _SectionRows { .items([]) }

    var count: Int {
        switch self {
        case .items(let items): items.count
        case .typed(let rows): rows.count
        }
    }

    @usableFromInline var listItems: [ListItem] {
        switch self {
        case .items(let items): items
        case .typed(let rows): rows.listItems()
        }
    }

    func item(at index: Int) -> ListItem {
        switch self {
        case .items(let items): items[index]
        case .typed(let rows): rows.item(at: index)
        }
    }

    func model(at index: Int) -> any Sendable {
        switch self {
        case .items(let items): items[index].model
        case .typed(let rows): rows.model(at: index)
        }
    }

    func firstIndex(of id: ItemID) -> Int? {
        switch self {
        case .items(let items): items.firstIndex { $0.id == id }
        case .typed(let rows): rows.firstIndex(of: id)
        }
    }

    /// The typed rows, if these rows are typed.
    var typedRows: _AnyTypedRows? {
        if case .typed(let rows) = self { return rows }
        return nil
    }

    /// Replaces the rows in `range` with `other`, in place when these rows are not
    /// shared. Typed rows stay typed when `other` is of their type (`ListItem`s of
    /// their model type made from the model alone count); otherwise the section
    /// becomes `ListItem` rows.
    mutating func replace(_ range: Range<Int>, with other: _SectionRows) {
        switch self {
        case .typed(var rows):
            // `.some(nil)`: a removal; `nil`: `other` is not of these rows' type.
            let replacement: _AnyTypedRows??
            switch other {
            case .typed(let typed): replacement = .some(typed)
            case .items(let items): replacement = items.isEmpty ? .some(nil) : rows.converting(items).map { .some($0) }
            }
            if let replacement {
                self = .empty
                let unique = isKnownUniquelyReferenced(&rows)
                if let replaced = rows.replacing(range, with: replacement, inPlace: unique) {
                    self = .typed(replaced)
                    return
                }
                self = .typed(rows)
            }
        case .items(var items):
            if case .typed = other, items.count == range.count {
                self = other
                return
            }
            self = .empty
            items.replaceSubrange(range, with: other.listItems)
            self = .items(items)
            return
        }
        // Rows of two types: `ListItem` rows from now on.
        var items = listItems
        items.replaceSubrange(range, with: other.listItems)
        self = .items(items)
    }

    /// The rows in `range`.
    func slice(_ range: Range<Int>) -> _SectionRows {
        switch self {
        case .items(let items): .items(Array(items[range]))
        case .typed(let rows): .typed(rows.slice(range))
        }
    }
}

// MARK: - Building typed rows (specialised in the caller)

/// Whether rows of `Model` must stay `ListItem`s (see the file's comment).
@inlinable
func _needsListItems<Model>(_ type: Model.Type) -> Bool {
    Model.self is AnyObject.Type || Model.self is any ContentFingerprinting.Type
}

/// The rows of `models`, typed when their type allows it.
@inlinable
func _identifiableRows<Model: Identifiable & Sendable>(_ models: [Model]) -> _SectionRows where Model.ID: Sendable {
    if _needsListItems(Model.self) { return .items(models.map { ListItem($0) }) }
    if let equatable = Model.self as? any Equatable.Type {
        return _equatableIdentifiableRows(models, equatable)
    }
    return .typed(_typedRows(models, _IdentifiableRule<Model>.self))
}

@inlinable
func _equatableIdentifiableRows<Model: Identifiable & Sendable, Equal: Equatable>(
    _ models: [Model], _ equal: Equal.Type
) -> _SectionRows where Model.ID: Sendable {
    .typed(_typedRows(models, _EquatableIdentifiableRule<Model, Equal>.self))
}

/// The rows of `Hashable` models that are their own identity, typed when their type allows it.
@inlinable
func _hashableRows<Model: Hashable & Sendable>(_ models: [Model]) -> _SectionRows {
    if _needsListItems(Model.self) { return .items(models.map { ListItem($0) }) }
    return .typed(_typedRows(models, _HashableRule<Model>.self))
}

@inlinable
func _typedRows<Rule: _RowRule>(_ models: [Rule.Model], _ rule: Rule.Type) -> _TypedRows<Rule> {
    _TypedRows(models.map(_Row<Rule>.init), ops: _typedOps(rule))
}

/// What typed rows of one rule need compiled for their type: the diffs, and finding a row.
@usableFromInline
struct _TypedOps: Sendable {
    @usableFromInline let diff: _TypedDiffer
    /// The first row of the rows (of this rule) with the identity, or `nil`.
    @usableFromInline let firstIndex: @Sendable (_AnyTypedRows, ItemID) -> Int?
    /// The changes between two sections' rows of this rule (see ``_SectionRowChanges``);
    /// `nil` when either has duplicate identities.
    @usableFromInline let sectionDiff: @Sendable (_AnyTypedRows, _AnyTypedRows) -> _SectionRowChanges?
    /// Whether two rows (of this rule) share an identity.
    @usableFromInline let hasDuplicates: @Sendable (_AnyTypedRows) -> Bool

    @inlinable
    init(
        diff: @escaping _TypedDiffer, firstIndex: @escaping @Sendable (_AnyTypedRows, ItemID) -> Int?,
        sectionDiff: @escaping @Sendable (_AnyTypedRows, _AnyTypedRows) -> _SectionRowChanges?,
        hasDuplicates: @escaping @Sendable (_AnyTypedRows) -> Bool
    ) {
        self.diff = diff
        self.firstIndex = firstIndex
        self.sectionDiff = sectionDiff
        self.hasDuplicates = hasDuplicates
    }
}

/// The operations of `Rule`, as closures made here (specialised for `Rule`).
@inlinable
func _typedOps<Rule: _RowRule>(_ rule: Rule.Type) -> _TypedOps {
    _TypedOps(
        diff: { old, new, options in _typedDiff(old, new, options, rule) },
        firstIndex: { rows, id in _typedFirstIndex(unsafeDowncast(rows, to: _TypedRows<Rule>.self), id) },
        sectionDiff: { old, new in
            _typedSectionDiff(unsafeDowncast(old, to: _TypedRows<Rule>.self), unsafeDowncast(new, to: _TypedRows<Rule>.self))
        },
        hasDuplicates: { rows in _typedHasDuplicates(unsafeDowncast(rows, to: _TypedRows<Rule>.self)) }
    )
}

/// The first of `rows` with identity `id`: a scan comparing `Rule.ID`s. An identity
/// of the rows' model type holds an identifier of `Rule.ID` (an `Optional` one holds
/// its value, which converts back), and compares as that identifier does.
@inlinable
func _typedFirstIndex<Rule: _RowRule>(_ rows: _TypedRows<Rule>, _ id: ItemID) -> Int? {
    guard id.modelType == Rule.Model.self else { return nil }
    guard let target = id.rawValue as? Rule.ID else {
        return rows.rows.firstIndex { Rule.itemID($0.model) == id }
    }
    return rows.rows.firstIndex { Rule.id(of: $0.model) == target }
}

/// The staged changes from `old` to `new` when every section of both is typed with
/// `Rule` or empty; `nil` otherwise. Each stage's model shares the diff's arrays.
///
/// Models that mix sections of `Rule` with other rows (a placeholder or load-more
/// row, sections of other model types) are diffed as mixed rows: typed rows keep
/// their type's identity and content, the others are matched as ``ListItem``s.
/// `nil` when that cannot give the `ListItem` path's result (a `ListItem` of
/// `Rule`'s model type with an explicit id).
@inlinable
func _typedDiff<Rule: _RowRule>(_ old: TableModel, _ new: TableModel, _ options: DiffOptions, _ rule: Rule.Type) -> TableChangeset? {
    let ops = _typedOps(rule)
    var changes: TableChangeset
    if let oldSections = _diffSections(old, rule), let newSections = _diffSections(new, rule) {
        changes = _tableChanges(oldSections, newSections, options, new) { .typed(_TypedRows($0, ops: ops)) }
    } else {
        var foreign = _ForeignRows()
        guard let oldSections = _mixedSections(old, rule, &foreign), let newSections = _mixedSections(new, rule, &foreign) else {
            return nil
        }
        let items = foreign.items
        changes = _tableChanges(oldSections, newSections, options, new) { rows in
            var typed: [_Row<Rule>] = []
            typed.reserveCapacity(rows.count)
            for row in rows {
                guard case .typed(let row) = row else {
                    return .items(rows.map { row in
                        switch row {
                        case .typed(let row): Rule.listItem(row.model)
                        case .foreign(_, _, let slot): items[Int(slot)]
                        }
                    })
                }
                typed.append(row)
            }
            return .typed(_TypedRows(typed, ops: ops))
        }
    }
    changes.duplicates = _rowDuplicates(changes.duplicates, old: old, new: new)
    return changes
}

/// The rows that are not of the rule's model type in a mixed diff, from both
/// snapshots: each gets a slot, an identity token (equal for equal ``ItemID``s) and a
/// content token (equal for rows whose contents are equal), so that mixed rows are
/// plain data (no reference to release per row).
@usableFromInline
struct _ForeignRows {
    @usableFromInline var items: [ListItem] = []
    /// Per identity: its token, and the rows seen with it (content token, item).
    @usableFromInline var identities: [ItemID: (token: Int32, contents: [(token: Int32, item: ListItem)])] = [:]
    @usableFromInline var nextContent: Int32 = 0

    @inlinable init() {}

    /// The mixed row of `item`.
    @usableFromInline
    mutating func row<Rule: _RowRule>(_ item: ListItem, _ rule: Rule.Type) -> _MixedRow<Rule> {
        let slot = Int32(items.count)
        items.append(item)
        var entry = identities[item.id] ?? (Int32(identities.count), [])
        let content: Int32
        if let same = entry.contents.first(where: { $0.item.isContentEqual(to: item) }) {
            content = same.token
        } else {
            content = nextContent
            nextContent += 1
            entry.contents.append((content, item))
        }
        identities[item.id] = entry
        return .foreign(identity: entry.token, content: content, slot: slot)
    }
}

/// The identity of a mixed row: typed rows and other rows never share one (other
/// rows are of other model types).
@usableFromInline
enum _MixedID<ID: Hashable>: Hashable {
    case typed(ID)
    case foreign(Int32)

    // Written out and inlinable: the derived ones are not specialised for `ID`.
    @inlinable static func == (lhs: _MixedID, rhs: _MixedID) -> Bool {
        switch (lhs, rhs) {
        case (.typed(let a), .typed(let b)): a == b
        case (.foreign(let a), .foreign(let b)): a == b
        default: false
        }
    }

    @inlinable func hash(into hasher: inout Hasher) {
        switch self {
        case .typed(let id): hasher.combine(id)
        case .foreign(let id): hasher.combine(id)
        }
    }

    /// What the diff's table probes by: an `Int` id through two multiply–xorshift
    /// rounds (no SipHash pass per row). Matches are decided by `==`; `Set` and
    /// `Dictionary` use `hash(into:)`.
    @inlinable var hashValue: Int {
        let bits: UInt64
        switch self {
        case .typed(let id):
            guard ID.self == Int.self else { return id.hashValue }
            bits = UInt64(truncatingIfNeeded: unsafeBitCast(id, to: Int.self))
        case .foreign(let token):
            bits = ~UInt64(truncatingIfNeeded: token)
        }
        var z = bits &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z &>> 32)) &* 0xD6E8_FEB8_6659_FD93
        z = (z ^ (z &>> 32)) &* 0xD6E8_FEB8_6659_FD93
        return Int(truncatingIfNeeded: z ^ (z &>> 32))
    }
}

/// A row of a mixed diff: a typed row of the rule's model type, or another row by
/// its tokens and slot (see ``_ForeignRows``).
@usableFromInline
enum _MixedRow<Rule: _RowRule>: Differentiable, @unchecked Sendable {
    case typed(_Row<Rule>)
    case foreign(identity: Int32, content: Int32, slot: Int32)

    @inlinable var differenceIdentifier: _MixedID<Rule.ID> {
        switch self {
        case .typed(let row): .typed(row.differenceIdentifier)
        case .foreign(let identity, _, _): .foreign(identity)
        }
    }

    @inlinable func isContentEqual(to other: _MixedRow) -> Bool {
        switch (self, other) {
        case (.typed(let a), .typed(let b)): a.isContentEqual(to: b)
        case (.foreign(_, let a, _), .foreign(_, let b, _)): a == b
        default: false
        }
    }
}

/// `model`'s sections as mixed rows for `Rule`, the other rows recorded in `foreign`;
/// `nil` when a `ListItem` shows a model of `Rule`'s type under another identity
/// than its own (an explicit id).
@inlinable
func _mixedSections<Rule: _RowRule>(
    _ model: TableModel, _ rule: Rule.Type, _ foreign: inout _ForeignRows
) -> [DiffSection<SectionID, SectionHeader, _MixedRow<Rule>>]? {
    var sections: [DiffSection<SectionID, SectionHeader, _MixedRow<Rule>>] = []
    sections.reserveCapacity(model.sections.count)
    for section in model.sections {
        var rows: [_MixedRow<Rule>] = []
        if case .typed(let typed) = section.rows, let typed = typed as? _TypedRows<Rule> {
            rows = typed.rows.map { .typed($0) }
        } else {
            let items = section.rows.listItems
            rows.reserveCapacity(items.count)
            for item in items {
                if item.id.modelType == Rule.Model.self {
                    guard let model = item.model as? Rule.Model, Rule.itemID(model) == item.id else { return nil }
                    rows.append(.typed(_Row(model)))
                } else {
                    rows.append(foreign.row(item, rule))
                }
            }
        }
        sections.append(DiffSection(id: section.id, content: SectionHeader(header: section.header, footer: section.footer), elements: rows))
    }
    return sections
}

/// The staged changes between two models given as the diff's sections, each
/// stage's data made a model by `rows`. A model of one section on both sides,
/// the same one, takes the flat diff: the same changes, without per-row section
/// bookkeeping.
@inlinable
func _tableChanges<Row: Differentiable>(
    _ old: [DiffSection<SectionID, SectionHeader, Row>], _ new: [DiffSection<SectionID, SectionHeader, Row>],
    _ options: DiffOptions, _ target: TableModel, rows: ([Row]) -> _SectionRows
) -> TableChangeset {
    func model(_ sections: [DiffSection<SectionID, SectionHeader, Row>]) -> TableModel {
        TableModel(
            sections: sections.map {
                TableSection(id: $0.id, header: $0.content.header, footer: $0.content.footer, rows: rows($0.elements))
            },
            sectionIndexStyle: target.sectionIndexStyle
        )
    }
    if old.count == 1, new.count == 1, old[0].id == new[0].id, old[0].content == new[0].content {
        let section = new[0]
        // Identical ends are not set aside: a duplicate whose other copy lies in them
        // would go unreported and keep the wrong occurrence's identity (the sectioned
        // diff's rule: every duplicate reported, the first occurrence keeps the identity).
        var flat = options
        flat.trimsIdenticalEnds = _false()
        let staged = StagedChangeset(from: old[0].elements, to: section.elements, options: flat)
        return TableChangeset(
            stages: staged.stages.map { stage in
                Stage(changeset: stage.changeset, data: model([DiffSection(id: section.id, content: section.content, elements: stage.data)]))
            },
            duplicates: staged.duplicates, isReload: staged.isReload, finalData: target
        )
    }
    let staged = StagedChangeset(from: old, to: new, options: options)
    return TableChangeset(
        stages: staged.stages.map { Stage(changeset: $0.changeset, data: model($0.data)) },
        duplicates: staged.duplicates, isReload: staged.isReload, finalData: target
    )
}

/// `model`'s sections as the diff's input, if every section is typed with `Rule` or empty.
@inlinable
func _diffSections<Rule: _RowRule>(_ model: TableModel, _ rule: Rule.Type) -> [DiffSection<SectionID, SectionHeader, _Row<Rule>>]? {
    var sections: [DiffSection<SectionID, SectionHeader, _Row<Rule>>] = []
    sections.reserveCapacity(model.sections.count)
    for section in model.sections {
        let rows: [_Row<Rule>]
        switch section.rows {
        case .typed(let typed):
            guard let typed = typed as? _TypedRows<Rule> else { return nil }
            rows = typed.rows
        case .items(let items):
            guard items.isEmpty else { return nil }
            rows = []
        }
        sections.append(DiffSection(id: section.id, content: SectionHeader(header: section.header, footer: section.footer), elements: rows))
    }
    return sections
}

/// `duplicates` of typed rows, named by their ``ItemID`` (type and id) as for ``ListItem`` rows.
@usableFromInline
func _rowDuplicates(_ duplicates: [DuplicateIdentifier], old: TableModel, new: TableModel) -> [DuplicateIdentifier] {
    guard !duplicates.isEmpty else { return duplicates }
    return duplicates.map { duplicate in
        guard duplicate.kind == .item, let path = duplicate.positions.first,
              let item = (duplicate.side == .old ? old : new).item(at: path) else { return duplicate }
        var named = duplicate
        named.identifier = item.id.description
        return named
    }
}

/// `false`, out of the optimiser's sight: with the diff's `trimsIdenticalEnds` known to
/// be `false` where it is inlined, the compiler built a matching loop 2.2M instructions
/// slower on a 100k-row diff (measured with `Benchmarks/Scripts/instructions`).
@usableFromInline @inline(never)
func _false() -> Bool { false }

// MARK: - Mixed models, one typed section at a time

// A paging list (a typed section and a load-more row), a placeholder giving way to
// content, a header row over typed sections: models that mix typed sections with
// other rows. The sectioned diff of their rows as mixed rows copies every typed row
// once per apply; when no row can change section between a typed section and the
// rest, each typed section that keeps its place is diffed on its own, with its own
// typed diff, and the other sections' rows (few, usually) with the sectioned diff
// of `ListItem`s. The pieces are put together into the changes the sectioned diff
// of the whole models gives: sectioned diffs of disjoint identities, stage by stage.

/// The changes between two sections' typed rows, from the flat diff (item paths in
/// section 0): its first stage (deletes and updates, old coordinates) and its second
/// (inserts and moves), each empty when the diff has none.
@usableFromInline
struct _SectionRowChanges {
    @usableFromInline var first: Changeset
    @usableFromInline var second: Changeset
    /// The rows after the first stage, when the diff built them (it has both stages).
    @usableFromInline var afterFirst: _AnyTypedRows?

    @inlinable
    init(first: Changeset, second: Changeset, afterFirst: _AnyTypedRows?) {
        self.first = first
        self.second = second
        self.afterFirst = afterFirst
    }
}

/// The flat diff of two sections' typed rows; `nil` when either has duplicate
/// identities (their reports and matching follow the whole model's diff).
@inlinable
func _typedSectionDiff<Rule: _RowRule>(_ old: _TypedRows<Rule>, _ new: _TypedRows<Rule>) -> _SectionRowChanges? {
    var options = DiffOptions()
    // Every duplicate counts (see `_tableChanges`); `_false()`: see there.
    options.trimsIdenticalEnds = _false()
    let staged = StagedChangeset(from: old.rows, to: new.rows, options: options)
    guard staged.duplicates.isEmpty else { return nil }
    var changes = _SectionRowChanges(first: Changeset(), second: Changeset(), afterFirst: nil)
    for stage in staged.stages {
        if stage.changeset.itemInserts.isEmpty && stage.changeset.itemMoves.isEmpty {
            changes.first = stage.changeset
            if staged.stages.count == 2 { changes.afterFirst = _TypedRows(stage.data, ops: old.ops) }
        } else {
            changes.second = stage.changeset
        }
    }
    return changes
}

/// Whether two of `rows` share an identity: the diff's first load of them reports
/// it, through the diff's own identifier table (sized for the rows up front, the
/// identifier hashing of the diff), so that a section that appears or goes costs
/// about what the bare diff of a first load does.
@inlinable
func _typedHasDuplicates<Rule: _RowRule>(_ rows: _TypedRows<Rule>) -> Bool {
    !StagedChangeset(from: [], to: rows.rows).duplicates.isEmpty
}

/// `rows` without the rows at `deletes`, the rows at `updates` replaced by their
/// version in `new`, which holds the rows left one to one (both lists ascending).
func _keptRows<Row>(_ rows: [Row], deleting deletes: [ItemPath], updating updates: [ItemPath], new: [Row]) -> [Row] {
    var kept: [Row] = []
    kept.reserveCapacity(rows.count - deletes.count)
    var d = 0
    var u = 0
    for r in rows.indices {
        if d < deletes.count && deletes[d].item == r {
            d += 1
            continue
        }
        if u < updates.count && updates[u].item == r {
            u += 1
            kept.append(new[kept.count])
        } else {
            kept.append(rows[r])
        }
    }
    return kept
}

/// How the section-wise diff takes a section.
private enum _SectionPart {
    /// Its rows go to the sectioned diff of `ListItem`s.
    case rest
    /// A typed section whose model type is nowhere else, diffed with the section at
    /// this index of the other model (same id, rule, header and footer).
    case paired(Int)
    /// A typed section whose model type is nowhere else, deleted or inserted with it.
    case alone
}

/// The staged changes from `old` to `new` with each typed section diffed on its own
/// (see above); `nil` when that could differ from the sectioned diff of the whole
/// models (a model type in two sections or in a `ListItem` row beside a typed
/// section, repeated section ids, duplicate row identities), or would not save
/// anything (no typed section, or models of one typed rule only, which the typed
/// diff takes whole).
func _sectionwiseChanges(_ old: TableModel, _ new: TableModel, _ options: DiffOptions) -> TableChangeset? {
    // Models of one rule, typed sections and empty ones only: the typed diff's case.
    var typedClass: ObjectIdentifier?
    var oneRule = true
    var anyTyped = false
    for section in old.sections + new.sections {
        if let typed = section.rows.typedRows {
            anyTyped = true
            let rule = ObjectIdentifier(type(of: typed))
            if typedClass == nil { typedClass = rule } else if typedClass != rule { oneRule = false }
        } else if section.rows.count > 0 {
            oneRule = false
        }
    }
    guard anyTyped, !oneRule else { return nil }

    // Section ids are unique on each side.
    var oldIndex: [SectionID: Int] = [:]
    for (i, section) in old.sections.enumerated() where oldIndex.updateValue(i, forKey: section.id) != nil { return nil }
    var newIndex: [SectionID: Int] = [:]
    for (j, section) in new.sections.enumerated() where newIndex.updateValue(j, forKey: section.id) != nil { return nil }

    // Where each model type shows: the typed sections of it, and whether a `ListItem` row has it.
    var typedPlaces: [ObjectIdentifier: Int] = [:]
    var itemTypes = Set<ObjectIdentifier>()
    for section in old.sections + new.sections {
        switch section.rows {
        case .typed(let typed): typedPlaces[ObjectIdentifier(typed.modelType), default: 0] += 1
        case .items(let items): for item in items { itemTypes.insert(ObjectIdentifier(item.id.modelType)) }
        }
    }
    func part(_ section: TableSection, other: TableModel, at otherIndex: Int?) -> _SectionPart {
        guard let typed = section.rows.typedRows else { return .rest }
        let modelType = ObjectIdentifier(typed.modelType)
        let count = itemTypes.contains(modelType) ? nil : typedPlaces[modelType]
        guard let otherIndex else { return count == 1 ? .alone : .rest }
        let counterpart = other.sections[otherIndex]
        guard count == 2, let match = counterpart.rows.typedRows, type(of: match) == type(of: typed),
              counterpart.header == section.header, counterpart.footer == section.footer else { return .rest }
        return .paired(otherIndex)
    }
    let oldParts = old.sections.map { part($0, other: new, at: newIndex[$0.id]) }
    let newParts = new.sections.map { part($0, other: old, at: oldIndex[$0.id]) }
    // Nothing typed to diff on its own: the mixed rows keep the typed rows typed.
    func handled(_ part: _SectionPart) -> Bool {
        if case .rest = part { return false }
        return true
    }
    guard oldParts.contains(where: handled) || newParts.contains(where: handled) else { return nil }
    for (i, part) in oldParts.enumerated() {
        if case .alone = part, old.sections[i].rows.typedRows.map({ $0.ops.hasDuplicates($0) }) ?? true { return nil }
    }
    for (j, part) in newParts.enumerated() {
        if case .alone = part, new.sections[j].rows.typedRows.map({ $0.ops.hasDuplicates($0) }) ?? true { return nil }
    }

    // The other rows: the sectioned diff of every section, typed ones left empty.
    func restSections(_ model: TableModel, _ parts: [_SectionPart]) -> [DiffSection<SectionID, SectionHeader, ListItem>] {
        zip(model.sections, parts).map { section, part in
            let elements: [ListItem]
            if case .rest = part { elements = section.rows.listItems } else { elements = [] }
            return DiffSection(id: section.id, content: SectionHeader(header: section.header, footer: section.footer), elements: elements)
        }
    }
    let oldRest = restSections(old, oldParts)
    let newRest = restSections(new, newParts)
    let rest = StagedChangeset(from: oldRest, to: newRest, options: DiffOptions())
    guard rest.duplicates.isEmpty else { return nil }
    var restStages: [Stage<[DiffSection<SectionID, SectionHeader, ListItem>]>?] = [nil, nil, nil]
    for stage in rest.stages {
        let c = stage.changeset
        if !c.sectionDeletes.isEmpty || !c.itemDeletes.isEmpty || !c.itemUpdates.isEmpty {
            restStages[0] = stage
        } else if !c.sectionUpdates.isEmpty && c.sectionInserts.isEmpty && c.sectionMoves.isEmpty
                    && c.itemInserts.isEmpty && c.itemMoves.isEmpty {
            restStages[2] = stage
        } else {
            restStages[1] = stage
        }
    }

    // Each pair's rows.
    var pairs: [Int: _SectionRowChanges] = [:]  // by new index
    for (j, part) in newParts.enumerated() {
        guard case .paired(let i) = part, let oldRows = old.sections[i].rows.typedRows,
              let newRows = new.sections[j].rows.typedRows else { continue }
        guard let changes = oldRows.ops.sectionDiff(oldRows, newRows) else { return nil }
        pairs[j] = changes
    }

    // The stages, the pairs' changes put in their sections' places in the rest's.
    let sectionDeletes = restStages[0]?.changeset.sectionDeletes ?? []
    var afterDeletes = [Int](repeating: -1, count: old.sections.count)
    do {
        var deleted = 0
        for i in old.sections.indices {
            if deleted < sectionDeletes.count && sectionDeletes[deleted] == i { deleted += 1 } else { afterDeletes[i] = i - deleted }
        }
    }
    // Each list: the changes of the sections in order, a pair's placed in its section;
    // one copy into storage of the list's size, none when a pair's list at section 0 is all of it.
    func add(_ paths: [ItemPath], in section: Int, to list: inout [ItemPath], total: Int) {
        guard !paths.isEmpty else { return }
        if list.isEmpty && paths.count == total && section == 0 {
            list = paths
            return
        }
        if list.capacity < total { list.reserveCapacity(total) }
        if section == 0 {
            list += paths
        } else {
            for path in paths { list.append(ItemPath(item: path.item, section: section)) }
        }
    }
    /// The run of `list` (sorted by section) in `section` from `cursor` on; the cursor moves past it.
    func run(of list: [ItemPath], in section: Int, from cursor: inout Int) -> ArraySlice<ItemPath> {
        let start = cursor
        while cursor < list.count && list[cursor].section == section { cursor += 1 }
        return list[start..<cursor]
    }
    func add(_ paths: ArraySlice<ItemPath>, to list: inout [ItemPath], total: Int) {
        guard !paths.isEmpty else { return }
        if list.capacity < total { list.reserveCapacity(total) }
        list += paths
    }
    var first = Changeset(sectionDeletes: sectionDeletes)
    do {
        let restDeletes = restStages[0]?.changeset.itemDeletes ?? []
        let restUpdates = restStages[0]?.changeset.itemUpdates ?? []
        let deleteTotal = pairs.values.reduce(restDeletes.count) { $0 + $1.first.itemDeletes.count }
        let updateTotal = pairs.values.reduce(restUpdates.count) { $0 + $1.first.itemUpdates.count }
        var d = 0
        var u = 0
        for i in old.sections.indices {
            if case .paired(let j) = oldParts[i], let pair = pairs[j] {
                add(pair.first.itemDeletes, in: i, to: &first.itemDeletes, total: deleteTotal)
                add(pair.first.itemUpdates, in: i, to: &first.itemUpdates, total: updateTotal)
                continue
            }
            add(run(of: restDeletes, in: i, from: &d), to: &first.itemDeletes, total: deleteTotal)
            add(run(of: restUpdates, in: i, from: &u), to: &first.itemUpdates, total: updateTotal)
        }
    }
    var second = Changeset(
        sectionInserts: restStages[1]?.changeset.sectionInserts ?? [], sectionMoves: restStages[1]?.changeset.sectionMoves ?? []
    )
    do {
        let restInserts = restStages[1]?.changeset.itemInserts ?? []
        let restMoves = restStages[1]?.changeset.itemMoves ?? []
        let insertTotal = pairs.values.reduce(restInserts.count) { $0 + $1.second.itemInserts.count }
        let moveTotal = pairs.values.reduce(restMoves.count) { $0 + $1.second.itemMoves.count }
        var n = 0
        var m = 0
        for j in new.sections.indices {
            if case .paired(let i) = newParts[j], let pair = pairs[j] {
                add(pair.second.itemInserts, in: j, to: &second.itemInserts, total: insertTotal)
                let from = afterDeletes[i]
                let moves = pair.second.itemMoves
                if moves.isEmpty { continue }
                if second.itemMoves.isEmpty && moves.count == moveTotal && from == 0 && j == 0 {
                    second.itemMoves = moves
                    continue
                }
                if second.itemMoves.capacity < moveTotal { second.itemMoves.reserveCapacity(moveTotal) }
                for move in moves {
                    second.itemMoves.append(Move(from: ItemPath(item: move.from.item, section: from), to: ItemPath(item: move.to.item, section: j)))
                }
                continue
            }
            add(run(of: restInserts, in: j, from: &n), to: &second.itemInserts, total: insertTotal)
            let m0 = m
            while m < restMoves.count && restMoves[m].to.section == j { m += 1 }
            if m > m0 {
                if second.itemMoves.capacity < moveTotal { second.itemMoves.reserveCapacity(moveTotal) }
                second.itemMoves += restMoves[m0..<m]
            }
        }
    }
    let third = Changeset(sectionUpdates: restStages[2]?.changeset.sectionUpdates ?? [])
    if let threshold = options.reloadThreshold, first.changeCount + second.changeCount + third.changeCount > threshold {
        return TableChangeset(stages: [], isReload: true, finalData: new)
    }

    // The data after each stage; the last one shows `new`.
    func model(_ sections: [TableSection]) -> TableModel {
        TableModel(sections: sections, sectionIndexStyle: new.sectionIndexStyle)
    }
    var stages: [Stage<TableModel>] = []
    let hasSecond = !second.isEmpty
    let hasThird = !third.isEmpty
    if !first.isEmpty {
        var data = new
        if hasSecond || hasThird {
            // Old order without the deleted sections; updated rows already show the new version.
            let restFirst = restStages[0]
            let restHasLater = restStages[1] != nil || restStages[2] != nil
            var sections: [TableSection] = []
            sections.reserveCapacity(old.sections.count - sectionDeletes.count)
            for (i, section) in old.sections.enumerated() where afterDeletes[i] >= 0 {
                let k = afterDeletes[i]
                let rows: _SectionRows
                switch oldParts[i] {
                case .paired(let j):
                    guard let pair = pairs[j], let oldRows = section.rows.typedRows, let newRows = new.sections[j].rows.typedRows else { return nil }
                    if pair.first.isEmpty {
                        rows = section.rows
                    } else if let afterFirst = pair.afterFirst {
                        rows = .typed(afterFirst)
                    } else {
                        // The diff's stage 1 was its last: the rows left are the new ones.
                        rows = .typed(oldRows.kept(deleting: pair.first.itemDeletes, updating: pair.first.itemUpdates, new: newRows))
                    }
                case .alone:
                    rows = section.rows
                case .rest:
                    guard let restFirst else {
                        rows = section.rows
                        break
                    }
                    if restHasLater {
                        rows = .items(restFirst.data[k].elements)
                    } else {
                        // The rest's stage 1 was its last: its sections left are the new ones, one to one.
                        rows = .items(_keptRows(
                            oldRest[i].elements,
                            deleting: restFirst.changeset.itemDeletes.filter { $0.section == i },
                            updating: restFirst.changeset.itemUpdates.filter { $0.section == i },
                            new: newRest[k].elements
                        ))
                    }
                }
                sections.append(TableSection(id: section.id, header: section.header, footer: section.footer, rows: rows))
            }
            data = model(sections)
        }
        stages.append(Stage(changeset: first, data: data))
    }
    if hasSecond {
        var data = new
        if hasThird {
            // Reloaded sections (of the rest) still show their old header and footer and
            // the old version of the rows whose update the reload carries.
            guard let restSecond = restStages[1] else { return nil }
            data = model(new.sections.enumerated().map { j, section in
                guard case .rest = newParts[j] else { return section }
                let shown = restSecond.data[j]
                return TableSection(id: section.id, header: shown.content.header, footer: shown.content.footer, rows: .items(shown.elements))
            })
        }
        stages.append(Stage(changeset: second, data: data))
    }
    if hasThird {
        stages.append(Stage(changeset: third, data: new))
    }
    return TableChangeset(stages: stages, finalData: new)
}

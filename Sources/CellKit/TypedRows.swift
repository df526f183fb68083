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

/// What typed rows of one rule need compiled for their type: the diff, and finding a row.
@usableFromInline
struct _TypedOps: Sendable {
    @usableFromInline let diff: _TypedDiffer
    /// The first row of the rows (of this rule) with the identity, or `nil`.
    @usableFromInline let firstIndex: @Sendable (_AnyTypedRows, ItemID) -> Int?

    @inlinable
    init(diff: @escaping _TypedDiffer, firstIndex: @escaping @Sendable (_AnyTypedRows, ItemID) -> Int?) {
        self.diff = diff
        self.firstIndex = firstIndex
    }
}

/// The operations of `Rule`, as closures made here (specialised for `Rule`).
@inlinable
func _typedOps<Rule: _RowRule>(_ rule: Rule.Type) -> _TypedOps {
    _TypedOps(
        diff: { old, new, options in _typedDiff(old, new, options, rule) },
        firstIndex: { rows, id in _typedFirstIndex(unsafeDowncast(rows, to: _TypedRows<Rule>.self), id) }
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

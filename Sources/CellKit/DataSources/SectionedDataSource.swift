/// A data source that groups items into sections by a key, in the key's order
/// (Instant Cocoa's sectioned data source); ``alphabetical(_:name:)`` groups by
/// initial letter with an A–Z section index.
///
/// ```swift
/// struct Contact: Identifiable, Equatable, Sendable { let id: Int; var name: String }
///
/// @MainActor func contacts() {
///     let source = SectionedDataSource.alphabetical(
///         [Contact(id: 1, name: "bob"), Contact(id: 2, name: "Alice"), Contact(id: 3, name: "42")],
///         name: \.name)
///     assert(source.model.sections.map(\.header) == ["A", "B", "#"])
///     assert(source.model.sectionIndexTitles.count == 27)
/// }
/// ```
@MainActor
public final class SectionedDataSource<Item: Identifiable & Sendable, Key: Comparable & Hashable & Sendable>: ListDataSource where Item.ID: Sendable {
    public private(set) var snapshot = ListSnapshot()
    public var onSnapshot: (@MainActor (ListSnapshot) -> Void)?
    /// The items, in the order given.
    public private(set) var items: [Item] = []

    private let key: (Item) -> Key
    private let title: (Key) -> String
    private let areInIncreasingOrder: ((Item, Item) -> Bool)?
    private let indexStyle: SectionIndexStyle
    /// The rows of a section's items: typed rows, built by code specialised for
    /// `Item` where the source was created (see ``TableSection``).
    private let makeRows: @Sendable ([Item]) -> _SectionRows
    /// Whether the closure of an ``edit(_:)`` runs, and the edits and sets made inside it, applied after it.
    private let nested = NestedEdits<[Item]>()

    /// Creates a source grouping `items` by `key`, sections in increasing key order,
    /// titled by `title`, rows in `areInIncreasingOrder` (or in the order given).
    @inlinable
    public convenience init(
        _ items: [Item], sectionBy key: @escaping (Item) -> Key, title: @escaping (Key) -> String = { "\($0)" },
        sortedBy areInIncreasingOrder: ((Item, Item) -> Bool)? = nil, sectionIndex: SectionIndexStyle = .none
    ) {
        self.init(items, sectionBy: key, title: title, sortedBy: areInIncreasingOrder, sectionIndex: sectionIndex,
                  makeRows: { _identifiableRows($0) })
    }

    @usableFromInline
    init(
        _ items: [Item], sectionBy key: @escaping (Item) -> Key, title: @escaping (Key) -> String,
        sortedBy areInIncreasingOrder: ((Item, Item) -> Bool)?, sectionIndex: SectionIndexStyle,
        makeRows: @escaping @Sendable ([Item]) -> _SectionRows
    ) {
        self.makeRows = makeRows
        self.key = key
        self.title = title
        self.areInIncreasingOrder = areInIncreasingOrder
        self.indexStyle = sectionIndex
        set(items)
    }

    /// The content shown.
    public var model: TableModel { snapshot.model }

    /// Replaces the items, regroups them and publishes the result.
    ///
    /// Called from inside the closure of ``edit(_:)``, it applies after that edit (see there).
    public func set(_ items: [Item]) {
        guard !nested.isEditing else { return nested.replaced(with: items) }
        self.items = items
        var groups: [Key: [Item]] = [:]
        for item in items { groups[key(item), default: []].append(item) }
        let sections = groups.keys.sorted().map { key in
            var rows = groups[key]!
            if let areInIncreasingOrder { rows.sort(by: areInIncreasingOrder) }
            return TableSection(id: SectionID(key), header: title(key), footer: nil, rows: makeRows(rows))
        }
        let model = TableModel(sections: sections, sectionIndexStyle: indexStyle)
        snapshot = ListSnapshot(model, state: .settled(model))
        onSnapshot?(snapshot)
    }

    /// Edits the items at once (the same shape as ``PaginatedDataSource/edit(_:)``),
    /// regroups them and publishes the result; returns what `change` returns.
    ///
    /// As with ``SimpleDataSource/edit(_:)``, the closure works on a copy: inside it
    /// ``items`` and ``model`` show the content from before the edit; an `edit(_:)`
    /// called from inside it runs at once on a copy of the items from before the outer
    /// edit and is applied after it (what it changed replayed on the outer edit's
    /// items, by identity), and a ``set(_:)`` from inside it replaces the items after it.
    @discardableResult
    public func edit<Result>(_ change: (inout [Item]) throws -> Result) rethrows -> Result {
        try nested.edit(items, change, replay: EditReplay.replay) { set($0) }
    }

    /// Publishes the content again.
    @discardableResult
    public func load() -> Task<Void, Never> {
        onSnapshot?(snapshot)
        return Task {}
    }
}

/// The section key of ``SectionedDataSource/alphabetical(_:name:)``: a letter A–Z, then `#` for the rest.
public struct AlphabeticKey: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// `A`…`Z`, or `#`.
    public let letter: String

    /// The key of `name`: its first letter after any leading spaces and invisible
    /// characters (a bidirectional control, a zero-width space), uppercased, when
    /// that is A–Z or an accented Latin letter (under its base letter), else `#`.
    ///
    /// An accented letter is one whose Unicode name is a Latin letter "WITH" marks
    /// ("É", "ø", also written decomposed: "E" + a combining acute): it goes under its
    /// base letter. Latin letters of their own go under `#`: "Æ", "Œ", "Ð", "Þ", "ß",
    /// ligatures such as "ﬁ", and full-width letters ("Ａ"); so do digits and other
    /// scripts. Pass your own key to ``SectionedDataSource/init(_:sectionBy:title:sortedBy:sectionIndex:)``
    /// to group them otherwise.
    public init(_ name: String) {
        letter = TableModel.initial(name) ?? "#"
    }

    public static func < (lhs: AlphabeticKey, rhs: AlphabeticKey) -> Bool {
        TableModel.order(lhs.letter) < TableModel.order(rhs.letter)
    }

    public var description: String { letter }

    /// What ``SectionedDataSource/alphabetical(_:name:)`` sorts rows by: the name
    /// lowercased, without leading spaces and invisible characters.
    @usableFromInline
    static func sortName(_ name: String) -> String {
        String(name.drop(while: TableModel.isBlankLead)).lowercased()
    }
}

extension SectionedDataSource where Key == AlphabeticKey {
    /// Groups `items` A–Z by the initial of `name` (`#` for the rest), each section
    /// sorted by name, with an A–Z section index.
    ///
    /// The initial is the first letter after any leading spaces and invisible characters
    /// (a bidirectional control, a zero-width space); an accented Latin
    /// letter goes under its base letter ("Émile" under E, "Øre" under O, "Ärger"
    /// under A), and other initials (digits, other scripts, "ß", "Æ", "Œ", ligatures,
    /// full-width letters: see ``AlphabeticKey/init(_:)``) under `#`. Within a
    /// section, rows are in the order of their names lowercased without those leading
    /// characters, as Swift compares strings: an accented letter comes after every
    /// plain one ("ezra" before "émile"); pass your own `sortedBy:` to
    /// ``init(_:sectionBy:title:sortedBy:sectionIndex:)`` for a locale's collation.
    @inlinable
    public static func alphabetical(_ items: [Item], name: @escaping (Item) -> String) -> SectionedDataSource {
        SectionedDataSource(
            items, sectionBy: { AlphabeticKey(name($0)) }, title: { $0.letter },
            sortedBy: { AlphabeticKey.sortName(name($0)) < AlphabeticKey.sortName(name($1)) }, sectionIndex: .alphabetic
        )
    }
}

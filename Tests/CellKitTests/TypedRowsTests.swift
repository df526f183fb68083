@testable import CellKit
import CellKitTesting
import Testing

/// Sections built from arrays of one model type keep them typed, and the controller
/// diffs them with the diff specialised for that type. These tests hold that path
/// to the `ListItem` path (which `RowDiffEquivalenceTests` holds to the bare diff,
/// and the diff oracle to UIKit's rules): the same stages, the same rows in every
/// stage's data, the same duplicate reports, for every kind of model a typed
/// section takes.
@Suite("Typed rows: the same changes as ListItem rows")
struct TypedRowsTests {
    struct Post: Identifiable, Equatable, Sendable { var id: Int; var content: Int }
    /// Identifiable, not Equatable: content never differs.
    struct Plain: Identifiable, Sendable { var id: Int; var content: Int }
    /// Hashable, not Identifiable: the value is the identity.
    struct Tag: Hashable, Sendable { var id: Int; var content: Int }
    /// An Optional identifier.
    struct Draft: Identifiable, Equatable, Sendable { var id: Int?; var content: Int }

    /// One generated list: sections of (id, content) pairs, with section ids and headers.
    struct Shape {
        var sections: [(id: SectionID, header: String?, rows: [(id: Int, content: Int)])]
    }

    static func randomPair(seed: UInt64) -> (old: Shape, new: Shape) {
        var rng = SplitMix64(seed: seed)
        let sectionCount = seed % 3 == 0 ? 1 : Int.random(in: 0...4, using: &rng)
        let idRange = seed % 5 == 0 ? 12 : 1_000  // small ranges give duplicates
        var old = Shape(sections: (0..<sectionCount).map { s in
            (SectionID(s), Bool.random(using: &rng) ? "H\(s)" : nil,
             (0..<Int.random(in: 0...10, using: &rng)).map { _ in
                 (Int.random(in: 0..<idRange, using: &rng), Int.random(in: 0..<2, using: &rng))
             })
        })
        var new = old
        for _ in 0..<Int.random(in: 0...6, using: &rng) where !new.sections.isEmpty {
            let s = Int.random(in: 0..<new.sections.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !new.sections[s].rows.isEmpty:
                let row = new.sections[s].rows.remove(at: Int.random(in: 0..<new.sections[s].rows.count, using: &rng))
                let t = Int.random(in: 0..<new.sections.count, using: &rng)
                new.sections[t].rows.insert(row, at: Int.random(in: 0...new.sections[t].rows.count, using: &rng))
            case 1 where !new.sections[s].rows.isEmpty:
                new.sections[s].rows[Int.random(in: 0..<new.sections[s].rows.count, using: &rng)].content += 1
            case 2 where !new.sections[s].rows.isEmpty:
                new.sections[s].rows.remove(at: Int.random(in: 0..<new.sections[s].rows.count, using: &rng))
            case 3:
                new.sections[s].header = new.sections[s].header == nil ? "changed" : nil
            default:
                new.sections[s].rows.insert((Int.random(in: 0..<idRange, using: &rng), 0),
                                            at: Int.random(in: 0...new.sections[s].rows.count, using: &rng))
            }
        }
        if seed % 7 == 0 { old.sections.reverse() }
        if seed % 11 == 0, !new.sections.isEmpty { new.sections.remove(at: 0) }
        return (old, new)
    }

    /// `shape` as a model, typed (from arrays of `make`'s models) or as `ListItem`s.
    static func model<Model>(_ shape: Shape, typed: Bool, _ make: (Int, Int) -> Model, _ rows: ([Model]) -> TableModel, _ item: (Model) -> ListItem) -> TableModel {
        var model = TableModel()
        for section in shape.sections {
            let models = section.rows.map { make($0.id, $0.content) }
            var built = typed ? rows(models).sections[0] : TableSection(id: section.id, items: models.map(item))
            built.id = section.id
            built.header = section.header
            model.sections.append(built)
        }
        return model
    }

    /// What a row shows, as (type, id, content).
    static func describe(_ item: ListItem) -> String {
        switch item.model {
        case let post as Post: "Post \(post.id) \(post.content)"
        case let plain as Plain: "Plain \(plain.id) \(plain.content)"
        case let tag as Tag: "Tag \(tag.id) \(tag.content)"
        case let draft as Draft: "Draft \(String(describing: draft.id)) \(draft.content)"
        case let note as Note: "Note \(note.id) \(note.content)"
        case is LoadingPlaceholder: "Loading"
        case let more as LoadMorePlaceholder: "More \(more.isFailed)"
        case let error as ErrorPlaceholder: "Error \(error.message)"
        default: "?"
        }
    }

    static func shown(_ model: TableModel) -> [[String]] {
        model.sections.indices.map { s in
            (0..<model.itemCount(inSection: s)).map { describe(model.item(at: ItemPath(item: $0, section: s))!) }
        }
    }

    static func isTyped(_ model: TableModel) -> Bool {
        model.sections.allSatisfy { section in
            if case .typed = section.rows { return true }
            return section.count == 0
        }
    }

    /// Runs `seeds` pairs through both paths and records the first difference.
    static func check<Model>(_ name: String, seeds: Range<UInt64>, threshold: Int? = nil, _ make: @escaping (Int, Int) -> Model, _ rows: @escaping ([Model]) -> TableModel, _ item: @escaping (Model) -> ListItem) {
        print("TypedRowsTests \(name): seeds \(seeds), reload threshold \(String(describing: threshold))")
        for seed in seeds {
            let (oldShape, newShape) = randomPair(seed: seed)
            let old = (typed: model(oldShape, typed: true, make, rows, item), erased: model(oldShape, typed: false, make, rows, item))
            let new = (typed: model(newShape, typed: true, make, rows, item), erased: model(newShape, typed: false, make, rows, item))
            guard isTyped(old.typed), isTyped(new.typed) else {
                Issue.record("\(name) seed \(seed): the models from arrays are not typed")
                return
            }
            let options = DiffOptions(reloadThreshold: threshold)
            let expected = ListController.listItemChanges(from: old.erased, to: new.erased, options: options)
            guard let differ = old.typed.typedDiffer ?? new.typed.typedDiffer else {
                #expect(oldShape.sections.allSatisfy(\.rows.isEmpty) && newShape.sections.allSatisfy(\.rows.isEmpty))
                continue
            }
            guard let actual = differ(old.typed, new.typed, options) else {
                Issue.record("\(name) seed \(seed): the typed differ refused typed models")
                return
            }
            let same = actual.stages.map(\.changeset) == expected.stages.map(\.changeset)
                && actual.isReload == expected.isReload
                && actual.duplicates == expected.duplicates
                && actual.stages.map { Self.shown($0.data) } == expected.stages.map { Self.shown($0.data) }
                && actual.stages.map { $0.data.sections.map(\.header) } == expected.stages.map { $0.data.sections.map(\.header) }
                && actual.stages.allSatisfy { isTyped($0.data) }
            if !same {
                Issue.record("""
                    \(name) seed \(seed): typed \(actual.stages.map(\.changeset)) duplicates \(actual.duplicates) \
                    != ListItem \(expected.stages.map(\.changeset)) duplicates \(expected.duplicates)
                    """)
                return
            }
        }
    }

    @Test("Identifiable and Equatable models: same stages, rows and duplicate reports")
    func equatableModels() {
        Self.check("Post", seeds: 0..<2_000, { Post(id: $0, content: $1) }, { TableModel($0) }, { ListItem($0) })
        Self.check("Post", seeds: 0..<300, threshold: 3, { Post(id: $0, content: $1) }, { TableModel($0) }, { ListItem($0) })
    }

    @Test("Identifiable models that are not Equatable: content never differs")
    func identifiableModels() {
        Self.check("Plain", seeds: 0..<1_000, { Plain(id: $0, content: $1) }, { TableModel($0) }, { ListItem($0) })
    }

    @Test("Hashable models that are their own identity")
    func hashableModels() {
        Self.check("Tag", seeds: 0..<1_000, { Tag(id: $0, content: $1) }, { TableModel($0) }, { ListItem($0) })
    }

    @Test("Optional identifiers (some ids nil)")
    func optionalIDs() {
        Self.check("Draft", seeds: 0..<1_000, { Draft(id: $0 % 13 == 0 ? nil : $0, content: $1) }, { TableModel($0) }, { ListItem($0) })
    }

    @Test("Rows read from a typed section are the rows ListItem would make")
    func rowsReadBack() {
        let model = TableModel([Post(id: 1, content: 5), Post(id: 2, content: 6)])
        #expect(Self.isTyped(model))
        #expect(model.item(at: ItemPath(item: 1, section: 0))?.id == ItemID(Post(id: 2, content: 0)))
        #expect(model.item(at: ItemPath(item: 1, section: 0))?.isContentEqual(to: ListItem(Post(id: 2, content: 6))) == true)
        #expect(model.model(at: ItemPath(item: 0, section: 0)) as? Post == Post(id: 1, content: 5))
        #expect(model.indexPath(of: Post(id: 2, content: 0)) == ItemPath(item: 1, section: 0))
        #expect(model.indexPath(of: ItemID(type: Post.self, id: 2)) == ItemPath(item: 1, section: 0))
        #expect(model.indexPath(of: ItemID(type: Plain.self, id: 2)) == nil)
        #expect(model.item(at: ItemPath(item: 2, section: 0)) == nil)
        #expect(model.sections[0].items.map(\.id) == [ItemID(Post(id: 1, content: 0)), ItemID(Post(id: 2, content: 0))])
        let drafts = TableModel([Draft(id: nil, content: 0), Draft(id: 7, content: 1)])
        #expect(drafts.indexPath(of: ItemID(type: Draft.self, id: 7)) == ItemPath(item: 1, section: 0))
        #expect(drafts.indexPath(of: ItemID(type: Draft.self, id: Int?.none)) == ItemPath(item: 0, section: 0))
        #expect(drafts.indexPath(of: Draft(id: 7, content: 0)) == ItemPath(item: 1, section: 0))
        // Hashable models, String and AnyHashable identities, and a look-up with another id type.
        let numbers = TableModel([3, 1, 2])
        #expect(numbers.indexPath(of: 2) == ItemPath(item: 2, section: 0))
        #expect(numbers.indexPath(of: ItemID(type: Int.self, id: Int32(2))) == nil)
        let tags = TableModel([Tag(id: 1, content: 0), Tag(id: 2, content: 5)])
        #expect(tags.indexPath(of: Tag(id: 2, content: 5)) == ItemPath(item: 1, section: 0))
        #expect(tags.indexPath(of: Tag(id: 2, content: 0)) == nil)
        struct Named: Identifiable, Sendable { let id: String }
        #expect(TableModel([Named(id: "a"), Named(id: "b")]).indexPath(of: ItemID(type: Named.self, id: "b")) == ItemPath(item: 1, section: 0))
        enum Key: Hashable, Sendable { case number(Int), name(String) }
        struct Keyed: Identifiable, Sendable { let id: Key }
        #expect(TableModel([Keyed(id: .number(1)), Keyed(id: .name("x"))]).indexPath(of: Keyed(id: .name("x"))) == ItemPath(item: 1, section: 0))
    }

    @Test("Classes and fingerprinted models stay ListItem rows; edits with other rows turn a section type-erased")
    func whatStaysTypeErased() {
        final class Story: Identifiable, @unchecked Sendable { let id = 1 }
        struct Printed: Identifiable, Sendable, ContentFingerprinting { let id: Int; var contentFingerprint: Int { id } }
        #expect(!Self.isTyped(TableModel([Story()])))
        #expect(!Self.isTyped(TableModel([Printed(id: 1)])))
        var model = TableModel([Post(id: 1, content: 0)])
        model.append([Post(id: 2, content: 0)])
        #expect(Self.isTyped(model) && model.itemCount == 2)
        model.append([Tag(id: 3, content: 0)])
        #expect(!Self.isTyped(model) && model.itemCount == 3)
        #expect(model.sections[0].items.map(Self.describe) == ["Post 1 0", "Post 2 0", "Tag 3 0"])
        // Edits through `items` and `replace` with rows of the section's type keep it typed.
        var edited = TableModel([Post(id: 1, content: 0), Post(id: 2, content: 0)])
        edited.sections[0].items.remove(at: 0)
        #expect(Self.isTyped(edited) && Self.shown(edited) == [["Post 2 0"]])
        edited.replace(at: ItemPath(item: 0, section: 0), with: ListItem(Post(id: 2, content: 9)))
        edited.sections[0].items.append(ListItem(Post(id: 3, content: 0)))
        #expect(Self.isTyped(edited) && Self.shown(edited) == [["Post 2 9", "Post 3 0"]])
        edited.move(from: ItemPath(item: 0, section: 0), to: ItemPath(item: 1, section: 0))
        #expect(Self.isTyped(edited) && Self.shown(edited) == [["Post 3 0", "Post 2 9"]])
        // A row under another identity than its model's own, or of another type, makes it ListItem rows.
        var explicit = edited
        explicit.replace(at: ItemPath(item: 0, section: 0), with: ListItem(Post(id: 3, content: 0), id: "three"))
        #expect(!Self.isTyped(explicit) && explicit.item(at: ItemPath(item: 0, section: 0))?.id == ItemID(type: Post.self, id: "three"))
        edited.sections[0].items[1] = ListItem(Note(id: 4, content: 0))
        #expect(!Self.isTyped(edited) && Self.shown(edited) == [["Post 3 0", "Note 4 0"]])
        // Copies share rows until one changes.
        let copy = TableModel([Post(id: 1, content: 0)])
        var changed = copy
        changed.append([Post(id: 2, content: 0)])
        #expect(Self.shown(copy) == [["Post 1 0"]] && Self.shown(changed) == [["Post 1 0", "Post 2 0"]])
    }

    @Test("A typed list with a placeholder or load-more section diffs as mixed rows, with the same changes")
    func mixedSectionsFallBack() {
        let old = TableModel([Post(id: 1, content: 0), Post(id: 2, content: 0)])
        var new = TableModel([Post(id: 2, content: 1), Post(id: 3, content: 0)])
        new.sections.append(TableSection(id: "more", items: [ListItem(LoadMorePlaceholder())]))
        let typed = new.typedDiffer?(old, new, DiffOptions())
        let expected = ListController.listItemChanges(from: old, to: new, options: DiffOptions())
        #expect(typed?.stages.map(\.changeset) == expected.stages.map(\.changeset))
        #expect(typed?.stages.last.map { Self.isTyped(TableModel(sections: [$0.data.sections[0]])) } == true)
        #expect(ListController.stagedChanges(from: old, to: new, reloadThreshold: nil).stages.last.map { $0.data.itemCount } == 3)
    }

    struct Note: Identifiable, Equatable, Sendable { var id: Int; var content: Int }

    @Test("Mixed models (typed sections with ListItem sections of other types, of the same type, and other typed sections) give the ListItem path's changes (seeded)")
    func mixedModelsAgree() {
        let seeds: Range<UInt64> = 0..<2_000
        print("TypedRowsTests mixed: seeds \(seeds)")
        for seed in seeds {
            let (oldShape, newShape) = Self.randomPair(seed: seed)
            var rng = SplitMix64(seed: seed &* 31)
            /// Each section of `shape` typed, or as ListItems of `Note`, of `Post` (hand-built), or typed `Note`s.
            func model(_ shape: Shape, kinds: [Int]) -> TableModel {
                var model = TableModel()
                for (index, section) in shape.sections.enumerated() {
                    var built: TableSection
                    switch kinds[index % kinds.count] {
                    case 1: built = TableSection(id: section.id, items: section.rows.map { ListItem(Note(id: $0.id, content: $0.content)) })
                    case 2: built = TableSection(id: section.id, items: section.rows.map { ListItem(Post(id: $0.id, content: $0.content)) })
                    case 3: built = TableModel(section.rows.map { Note(id: $0.id, content: $0.content) }).sections[0]
                    default: built = TableModel(section.rows.map { Post(id: $0.id, content: $0.content) }).sections[0]
                    }
                    built.id = section.id
                    built.header = section.header
                    model.sections.append(built)
                }
                return model
            }
            let kinds = (0..<4).map { _ in Int.random(in: 0..<4, using: &rng) }
            let old = model(oldShape, kinds: kinds), new = model(newShape, kinds: kinds.reversed())
            let erase = { (model: TableModel) in TableModel(sections: model.sections.map { TableSection(id: $0.id, header: $0.header, items: $0.items) }) }
            let expected = ListController.listItemChanges(from: erase(old), to: erase(new), options: DiffOptions())
            let actual = ListController.stagedChanges(from: old, to: new, reloadThreshold: nil)
            let same = actual.stages.map(\.changeset) == expected.stages.map(\.changeset)
                && actual.duplicates == expected.duplicates
                && actual.stages.map { Self.shown($0.data) } == expected.stages.map { Self.shown($0.data) }
            if !same {
                Issue.record("mixed seed \(seed) kinds \(kinds): \(actual.stages.map(\.changeset)) != \(expected.stages.map(\.changeset)); duplicates \(actual.duplicates) vs \(expected.duplicates)")
                return
            }
        }
    }

    @Test("Mutations keep typed sections typed and agree with ListItem sections (seeded)")
    func mutationsAgree() {
        let seeds: Range<UInt64> = 0..<300
        print("TypedRowsTests mutations: seeds \(seeds)")
        for seed in seeds {
            var rng = SplitMix64(seed: seed)
            var typed = TableModel(sections: [[Post(id: 0, content: 0)], [], [Post(id: 1, content: 0), Post(id: 2, content: 0)]])
            var erased = TableModel(sections: typed.sections.map { TableSection(id: $0.id, items: $0.items) })
            for step in 0..<20 {
                let s = Int.random(in: 0..<3, using: &rng)
                let count = typed.itemCount(inSection: s)
                let post = Post(id: 100 * Int(seed) + step + 3, content: step)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    let path = ItemPath(item: Int.random(in: 0...count, using: &rng), section: s)
                    #expect(typed.insert([post], at: path) == erased.insert([ListItem(post)], at: path))
                case 1 where count > 0:
                    let path = ItemPath(item: Int.random(in: 0..<count, using: &rng), section: s)
                    #expect(typed.remove(at: path) == erased.remove(at: path))
                case 2 where count > 0:
                    let from = ItemPath(item: Int.random(in: 0..<count, using: &rng), section: s)
                    let t = Int.random(in: 0..<3, using: &rng)
                    let limit = typed.itemCount(inSection: t) - (t == s ? 1 : 0)
                    let to = ItemPath(item: Int.random(in: 0...limit, using: &rng), section: t)
                    #expect(typed.move(from: from, to: to) == erased.move(from: from, to: to))
                default:
                    #expect(typed.append([post], toSection: s) == erased.append([ListItem(post)], toSection: s))
                }
                guard Self.shown(typed) == Self.shown(erased), Self.isTyped(typed) else {
                    Issue.record("seed \(seed) step \(step): \(Self.shown(typed)) != \(Self.shown(erased)) or not typed")
                    return
                }
            }
        }
    }

    struct Offline: Error {}

    /// One screen of a paging list, as its sections in order: a header row over the
    /// content, the content (typed `Post`s, or the loading row), typed `Note`s, typed
    /// `Tag`s, the load-more row, the error row.
    enum Part: Equatable {
        case header([Int]), posts([(id: Int, content: Int)]), loading, notes([Int]), tags([Int]), more(failed: Bool), error
        /// A header row that is a `Post` (the same model type as the typed content).
        case postRow(Int)

        static func == (lhs: Part, rhs: Part) -> Bool { "\(lhs)" == "\(rhs)" }

        var id: SectionID {
            switch self {
            case .header: "header"
            case .posts, .loading: "content"
            case .notes: "notes"
            case .tags: "tags"
            case .more: "more"
            case .error: "error"
            case .postRow: "post-row"
            }
        }

        var rows: _SectionRows {
            switch self {
            case .header(let ids): .items(ids.map { ListItem(Draft(id: $0, content: 0)) })
            case .posts(let rows): TableModel(rows.map { Post(id: $0.id, content: $0.content) }).sections[0].rows
            case .loading: .items([ListItem(LoadingPlaceholder())])
            case .notes(let ids): TableModel(ids.map { Note(id: $0, content: 0) }).sections[0].rows
            case .tags(let ids): TableModel(ids.map { Tag(id: $0, content: 0) }).sections[0].rows
            case .more(let failed): .items([ListItem(LoadMorePlaceholder(error: failed ? Offline() : nil))])
            case .error: .items([ListItem(ErrorPlaceholder(error: Offline()))])
            case .postRow(let id): .items([ListItem(Post(id: id, content: 0))])
            }
        }
    }

    static func screen(_ parts: [Part], headers: [SectionID: String]) -> TableModel {
        TableModel(sections: parts.map { TableSection(id: $0.id, header: headers[$0.id], footer: nil, rows: $0.rows) })
    }

    @Test("Typed sections beside header, loading, load-more and error rows: the section-wise diff gives the ListItem path's changes (seeded)")
    func sectionwiseAgrees() {
        let seeds: Range<UInt64> = 0..<3_000
        print("TypedRowsTests sectionwise: seeds \(seeds)")
        var sectionwise = 0
        for seed in seeds {
            var rng = SplitMix64(seed: seed)
            let idRange = seed % 5 == 0 ? 8 : 1_000  // small ranges give duplicates (within and across sections)
            func ids(_ count: Int) -> [Int] { (0..<count).map { _ in Int.random(in: 0..<idRange, using: &rng) } }
            var old: [Part] = []
            if Bool.random(using: &rng) { old.append(.header(ids(Int.random(in: 1...2, using: &rng)))) }
            if seed % 4 == 0 {
                old.append(.loading)
            } else {
                old.append(.posts(ids(Int.random(in: 0...30, using: &rng)).map { ($0, Int.random(in: 0..<2, using: &rng)) }))
            }
            if Int.random(in: 0..<3, using: &rng) == 0 { old.append(.notes(ids(Int.random(in: 0...6, using: &rng)))) }
            if Int.random(in: 0..<4, using: &rng) == 0 { old.append(.tags(ids(Int.random(in: 0...4, using: &rng)))) }
            if Bool.random(using: &rng) { old.append(.more(failed: Bool.random(using: &rng))) }
            var new = old
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let k = Int.random(in: 0..<new.count, using: &rng)
                switch (new[k], Int.random(in: 0..<10, using: &rng)) {
                case (.posts(var rows), 0...3):
                    // Row edits: delete, update, insert, move.
                    for _ in 0..<Int.random(in: 1...4, using: &rng) {
                        switch Int.random(in: 0..<4, using: &rng) {
                        case 0 where !rows.isEmpty: rows.remove(at: Int.random(in: 0..<rows.count, using: &rng))
                        case 1 where !rows.isEmpty: rows[Int.random(in: 0..<rows.count, using: &rng)].content += 1
                        case 2 where !rows.isEmpty:
                            let row = rows.remove(at: Int.random(in: 0..<rows.count, using: &rng))
                            rows.insert(row, at: Int.random(in: 0...rows.count, using: &rng))
                        default: rows.insert((ids(1)[0], 0), at: Int.random(in: 0...rows.count, using: &rng))
                        }
                    }
                    new[k] = .posts(rows)
                case (.posts, 4): new[k] = .error  // content → error row
                case (.posts, 5): new[k] = .loading
                case (.loading, _): new[k] = .posts(ids(Int.random(in: 0...20, using: &rng)).map { ($0, 0) })  // placeholder → content
                case (.more(let failed), 0...4): new[k] = .more(failed: !failed)
                case (.notes(var notes), 0...4):
                    notes.insert(ids(1)[0], at: Int.random(in: 0...notes.count, using: &rng))
                    new[k] = .notes(notes)
                case (_, 6): new.remove(at: k)  // a section disappears
                case (_, 7): new.insert([.more(failed: false), .notes(ids(2)), .header(ids(1)), .postRow(ids(1)[0]), .tags(ids(2))]
                                        .randomElement(using: &rng)!, at: Int.random(in: 0...new.count, using: &rng))
                case (_, 8): new.swapAt(k, Int.random(in: 0..<new.count, using: &rng))  // sections move
                default: break
                }
                if new.isEmpty { new = [.loading] }
            }
            // Sections appear at most once (an inserted part may repeat a section's id).
            var seen = Set<SectionID>()
            new = new.filter { seen.insert($0.id).inserted }
            var headers: (old: [SectionID: String], new: [SectionID: String]) = ([:], [:])
            for part in old where Int.random(in: 0..<3, using: &rng) == 0 { headers.old[part.id] = "H" }
            headers.new = headers.old
            if let part = new.randomElement(using: &rng), Int.random(in: 0..<4, using: &rng) == 0 {
                headers.new[part.id] = headers.new[part.id] == nil ? "changed" : nil
            }
            let models = (old: Self.screen(old, headers: headers.old), new: Self.screen(new, headers: headers.new))
            let erase = { (model: TableModel) in TableModel(sections: model.sections.map { TableSection(id: $0.id, header: $0.header, items: $0.items) }) }
            let threshold = seed % 9 == 0 ? Int.random(in: 1...6, using: &rng) : nil
            let options = DiffOptions(reloadThreshold: threshold)
            let expected = ListController.listItemChanges(from: erase(models.old), to: erase(models.new), options: options)
            let actual = ListController.stagedChanges(from: models.old, to: models.new, reloadThreshold: threshold)
            if _sectionwiseChanges(models.old, models.new, options) != nil { sectionwise += 1 }
            let same = actual.stages.map(\.changeset) == expected.stages.map(\.changeset)
                && actual.isReload == expected.isReload
                && actual.duplicates == expected.duplicates
                && actual.stages.map { Self.shown($0.data) } == expected.stages.map { Self.shown($0.data) }
                && actual.stages.map { $0.data.sections.map(\.header) } == expected.stages.map { $0.data.sections.map(\.header) }
                && actual.stages.map { $0.data.sections.map(\.id) } == expected.stages.map { $0.data.sections.map(\.id) }
            if !same {
                Issue.record("""
                    sectionwise seed \(seed): \(old) → \(new), threshold \(String(describing: threshold)): \
                    \(actual.stages.map(\.changeset)) reload \(actual.isReload) duplicates \(actual.duplicates) \
                    != ListItem \(expected.stages.map(\.changeset)) reload \(expected.isReload) duplicates \(expected.duplicates); \
                    shown \(actual.stages.map { Self.shown($0.data) }) vs \(expected.stages.map { Self.shown($0.data) })
                    """)
                return
            }
        }
        // The section-wise diff took a good share of the seeds (the others fall back to the mixed rows).
        #expect(sectionwise > seeds.count / 3, "section-wise diffs: \(sectionwise) of \(seeds.count)")
    }

    @Test("A paging list's update diffs its typed section on its own and keeps it typed in every stage")
    func pagingListStaysTyped() {
        var old = TableModel((0..<50).map { Post(id: $0, content: 0) })
        old.sections.append(TableSection(id: "more", items: [ListItem(LoadMorePlaceholder())]))
        var posts = (0..<60).filter { $0 % 7 != 3 }.map { Post(id: $0, content: $0 % 5 == 0 ? 1 : 0) }
        posts.swapAt(4, 30)
        var new = TableModel(posts)
        new.sections.append(TableSection(id: "more", items: [ListItem(LoadMorePlaceholder(error: Offline()))]))
        let sectionwise = _sectionwiseChanges(old, new, DiffOptions())
        let expected = ListController.listItemChanges(from: old, to: new, options: DiffOptions())
        #expect(sectionwise != nil)
        #expect(sectionwise?.stages.map(\.changeset) == expected.stages.map(\.changeset))
        #expect(sectionwise?.stages.map { Self.shown($0.data) } == expected.stages.map { Self.shown($0.data) })
        #expect(sectionwise?.stages.allSatisfy { $0.data.sections[0].rows.typedRows != nil } == true)
        // The last page: the load-more row goes, the content keeps its section.
        let last = TableModel(posts)
        #expect(_sectionwiseChanges(new, last, DiffOptions())?.stages.map(\.changeset)
                == ListController.listItemChanges(from: new, to: last, options: DiffOptions()).stages.map(\.changeset))
        // Duplicate identities are left to the mixed rows, which report them as the ListItem path does.
        var duplicated = TableModel([Post(id: 1, content: 0), Post(id: 2, content: 0), Post(id: 1, content: 1)])
        duplicated.sections.append(TableSection(id: "more", items: [ListItem(LoadMorePlaceholder())]))
        let reported = ListController.listItemChanges(from: old, to: duplicated, options: DiffOptions()).duplicates
        #expect(_sectionwiseChanges(old, duplicated, DiffOptions()) == nil)
        #expect(!reported.isEmpty && ListController.stagedChanges(from: old, to: duplicated, reloadThreshold: nil).duplicates == reported)
    }

    @Test("A first load (the loading row gives way to a typed section) and its reverse: diffed section-wise, duplicates reported as the ListItem path does")
    func firstLoadSectionwise() {
        let loading = TableModel(sections: [TableSection(id: "placeholder", items: [ListItem(LoadingPlaceholder())])])
        let loaded = TableModel((0..<300).map { Post(id: $0, content: $0 % 3) })
        for (old, new) in [(loading, loaded), (loaded, loading)] {
            let sectionwise = _sectionwiseChanges(old, new, DiffOptions())
            let expected = ListController.listItemChanges(from: old, to: new, options: DiffOptions())
            #expect(sectionwise != nil)
            #expect(sectionwise?.stages.map(\.changeset) == expected.stages.map(\.changeset))
            #expect(sectionwise?.stages.map { Self.shown($0.data) } == expected.stages.map { Self.shown($0.data) })
        }
        // Duplicates anywhere in the section that appears or goes (the first pair, the
        // last, far apart), on either side: left to the mixed rows, reported as for ListItems.
        for (first, later) in [(0, 1), (298, 299), (5, 250)] {
            var posts = (0..<300).map { Post(id: $0, content: 0) }
            posts[later] = Post(id: first, content: 1)
            let duplicated = TableModel(posts)
            for (old, new) in [(loading, duplicated), (duplicated, loading)] {
                let reported = ListController.listItemChanges(from: old, to: new, options: DiffOptions()).duplicates
                #expect(_sectionwiseChanges(old, new, DiffOptions()) == nil, "ids \(first), \(later)")
                #expect(reported.count == 1, "ids \(first), \(later)")
                #expect(ListController.stagedChanges(from: old, to: new, reloadThreshold: nil).duplicates == reported, "ids \(first), \(later)")
            }
        }
    }
}

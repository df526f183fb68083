import CellKit
import CellKitTesting
import Testing

private struct Contact: Identifiable, Equatable, Sendable { let id: Int; var name: String }

@Suite("TableModel: sections, titles, index, mutations")
struct TableModelTests {
    @Test func mutationsReturnTheChangesToAnimate() {
        var model = TableModel()
        let friends = model.appendSection(header: "Friends", footer: "2 friends")
        #expect(model.append([Contact(id: 1, name: "Ada"), Contact(id: 2, name: "Alan")], toSection: friends)
            == Changeset(itemInserts: [ItemPath(row: 0, section: 0), ItemPath(row: 1, section: 0)]))
        #expect(model.insert([Contact(id: 3, name: "Grace")], at: ItemPath(row: 1, section: 0))
            == Changeset(itemInserts: [ItemPath(row: 1, section: 0)]))
        #expect(model.remove(at: ItemPath(row: 0, section: 0)) == Changeset(itemDeletes: [ItemPath(row: 0, section: 0)]))
        #expect(model.insertSection(id: "work", header: "Work", at: 0) == Changeset(sectionInserts: [0]))
        #expect(model.move(from: ItemPath(row: 0, section: 1), to: ItemPath(row: 0, section: 0))
            == Changeset(itemMoves: [Move(from: ItemPath(row: 0, section: 1), to: ItemPath(row: 0, section: 0))]))
        #expect(model.indexPath(of: Contact(id: 3, name: "")) == ItemPath(row: 0, section: 0))
        #expect(model.indexPath(of: Contact(id: 2, name: "")) == ItemPath(row: 0, section: 1))
        #expect(model.moveSection(from: 1, to: 0) == Changeset(sectionMoves: [Move(from: 1, to: 0)]))
        #expect(model.sections.map(\.header) == ["Friends", "Work"])
        #expect(model.sections[0].footer == "2 friends")
        #expect(model.replace(at: ItemPath(row: 0, section: 1), with: ListItem(Contact(id: 3, name: "G")))
            == Changeset(itemUpdates: [ItemPath(row: 0, section: 1)]))
        #expect(model.removeSection(at: 0) == Changeset(sectionDeletes: [0]))
        #expect(model.itemCount == 1)
    }

    /// An append that creates the model's first section returns that section's insert, which
    /// a list view animates; its row paths alone were refused (outside report 13a, D2: on a
    /// `UITableView`, an NSInternalInconsistencyException).
    @MainActor @Test func anAppendThatCreatesTheSectionReturnsAChangeTheListViewTakes() throws {
        let registry = CellRegistry()
        registry.register(TextCell.self, for: Contact.self) { cell, contact in cell.text = contact.name }
        var model = TableModel()
        let dataSource = TableModelDataSource(model)
        dataSource.delegate = registry
        let listView = HeadlessListView()
        listView.dataSource = dataSource
        listView.reloadData()
        let appended = model.append([Contact(id: 1, name: "Ada")])
        #expect(appended == Changeset(sectionInserts: [0]))
        let outcome = listView.performBatchUpdates(appended) { dataSource.model = model }
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(listView.visibleTexts == ["Ada"])
        let next = model.append([Contact(id: 2, name: "Alan")])
        #expect(listView.performBatchUpdates(next) { dataSource.model = model }.error == nil)
        #expect(listView.visibleTexts == ["Ada", "Alan"])
        try listView.checkConsistency()
    }

    /// Whatever a mutation does, what it returns is a batch that takes the model before it to
    /// the model after it by UIKit's rules (seeded; the seed is printed on failure).
    @Test(arguments: 0..<20) func everyMutationReturnsAValidBatch(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var model = TableModel()
        var nextID = 0
        for step in 0..<200 {
            let before = model.sections.map(\.items.count)
            let changes: Changeset
            let s = model.sections.count
            let choice = Int.random(in: 0..<9, using: &random)
            func anyRow() -> ItemPath? {
                let filled = model.sections.indices.filter { model.sections[$0].items.count > 0 }
                guard let section = filled.randomElement(using: &random) else { return nil }
                return ItemPath(item: Int.random(in: 0..<model.sections[section].items.count, using: &random), section: section)
            }
            func contacts() -> [Contact] {
                (0..<Int.random(in: 0...3, using: &random)).map { _ in nextID += 1; return Contact(id: nextID, name: "c\(nextID)") }
            }
            switch choice {
            case 0: changes = model.append(contacts())
            case 1 where s > 0: changes = model.append(contacts(), toSection: Int.random(in: 0..<s, using: &random))
            case 2 where s > 0:
                let section = Int.random(in: 0..<s, using: &random)
                changes = model.insert(contacts(), at: ItemPath(item: Int.random(in: 0...model.sections[section].items.count, using: &random), section: section))
            case 3: changes = model.insertSection(id: SectionID("s\(step)"), at: Int.random(in: 0...s, using: &random))
            case 4 where s > 0: changes = model.removeSection(at: Int.random(in: 0..<s, using: &random))
            case 5 where s > 1: changes = model.moveSection(from: Int.random(in: 0..<s, using: &random), to: Int.random(in: 0..<s, using: &random))
            case 6: guard let path = anyRow() else { continue }; changes = model.remove(at: path)
            case 7:
                guard let from = anyRow() else { continue }
                var after = model
                _ = after.remove(at: from)
                let section = Int.random(in: 0..<s, using: &random)
                changes = model.move(from: from, to: ItemPath(item: Int.random(in: 0...after.sections[section].items.count, using: &random), section: section))
            case 8: guard let path = anyRow() else { continue }; changes = model.replace(at: path, with: ListItem(Contact(id: -step, name: "r")))
            default: continue
            }
            let error = changes.validationError(oldCounts: before, newCounts: model.sections.map(\.items.count))
            #expect(error == nil, "seed \(seed), step \(step): \(changes) from \(before): \(String(describing: error))")
            if error != nil { return }
        }
    }

    @Test func twoDimensionalArrayBecomesSections() {
        let model = TableModel(sections: [[Contact(id: 1, name: "a")], [Contact(id: 2, name: "b"), Contact(id: 3, name: "c")]])
        #expect(model.sections.map(\.items.count) == [1, 2])
        #expect((model.model(at: ItemPath(row: 1, section: 1)) as? Contact)?.name == "c")
        #expect(model.model(at: ItemPath(row: 5, section: 1)) == nil)
    }

    /// No section, no index (outside check 12c): an empty alphabetical list showed 27 titles that
    /// went to a section 0 it did not have; a placeholder row alone shows none either.
    @MainActor @Test func anAlphabeticIndexOfAModelWithNoSectionIsEmpty() {
        #expect(SectionedDataSource.alphabetical([Post](), name: \.text).model.sectionIndexTitles.isEmpty)
        var placeholder = TableModel(sections: [TableSection(id: .placeholder, items: [ListItem(Post(1))])])
        placeholder.sectionIndexStyle = .alphabetic
        #expect(placeholder.sectionIndexTitles.isEmpty)
    }

    @MainActor @Test func anEmptyAlphabeticalSourceShowsNoIndex() async {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView()
        controller.attach(to: listView)
        controller.register(TextCell.self, for: Post.self) { cell, post in cell.text = post.text }
        controller.bind(to: SectionedDataSource.alphabetical([Post](), name: \.text))
        await controller.settle()
        #expect(controller.sectionIndexTitles(for: listView).isEmpty)
    }

    @Test func sectionIndexNoneDynamicAlphabetic() {
        var model = TableModel()
        for title in ["apple", "Banana", "cherry", "Cranberry", "42"] { model.appendSection(header: title) }
        #expect(model.sectionIndexTitles.isEmpty)
        model.sectionIndexStyle = .dynamic
        #expect(model.sectionIndexTitles == ["A", "B", "C", "#"])
        model.sectionIndexStyle = .alphabetic
        #expect(model.sectionIndexTitles.count == 27)
        #expect(model.sectionIndexTitles.first == "A" && model.sectionIndexTitles.last == "#")
        #expect(model.section(forSectionIndexTitle: "C", at: 2) == 2)
        // No section starts with "D": the last one before it.
        #expect(model.section(forSectionIndexTitle: "D", at: 3) == 3)
        #expect(model.section(forSectionIndexTitle: "#", at: 26) == 4)
    }

    @Test func identityIsTypePlusIDAndContentIsSeparate() {
        struct Other: Identifiable, Equatable, Sendable { let id: Int }
        let a = ListItem(Contact(id: 1, name: "Ada"))
        #expect(a.id == ListItem(Contact(id: 1, name: "Ada Lovelace")).id)
        #expect(!a.isContentEqual(to: ListItem(Contact(id: 1, name: "Ada Lovelace"))))
        #expect(a.isContentEqual(to: ListItem(Contact(id: 1, name: "Ada"))))
        #expect(a.id != ListItem(Other(id: 1)).id)
    }

    @Test func anObjectMutatedInPlaceIsSeenAsChanged() {
        final class Counter: Identifiable, ContentFingerprinting, @unchecked Sendable {
            let id = 1
            var count = 0
            var contentFingerprint: Int { count }
        }
        let counter = Counter()
        let before = ListItem(counter)
        counter.count += 1
        #expect(!before.isContentEqual(to: ListItem(counter)))
    }
}

@Suite("ItemID: identity across id types and construction paths")
struct ItemIDTests {
    struct User: Identifiable, Equatable, Sendable { let id: Int }
    struct Tag: Identifiable, Equatable, Sendable { let id: String }
    struct Handle: Hashable, Sendable { let server: String; let name: String }
    struct Account: Identifiable, Equatable, Sendable { let id: Handle }

    @Test func intStringAndOtherIDsAgreeWhicheverWayTheyAreBuilt() {
        let ids: [(ItemID, ItemID)] = [
            (ItemID(User(id: 7)), ItemID(type: User.self, id: 7)),
            (ItemID(Tag(id: "swift")), ItemID(type: Tag.self, id: "swift")),
            (ItemID(Account(id: Handle(server: "a", name: "b"))), ItemID(type: Account.self, id: Handle(server: "a", name: "b"))),
        ]
        for (a, b) in ids {
            #expect(a == b)
            #expect(a.hashValue == b.hashValue)
            #expect(Set([a, b]).count == 1)
        }
        #expect(ItemID(User(id: 7)) != ItemID(type: Tag.self, id: 7))
        #expect(ItemID(User(id: 7)) != ItemID(User(id: 8)))
        #expect(ItemID(Tag(id: "a")) != ItemID(Tag(id: "b")))
        #expect(ItemID(Account(id: Handle(server: "a", name: "b"))) != ItemID(Account(id: Handle(server: "a", name: "c"))))
        #expect((ItemID(Tag(id: "x")).rawValue as? String) == "x")
        #expect("\(ItemID(User(id: 3)))".contains("User(3)"))
    }

    @Test func contentOfSubclassInstancesIsComparedThroughTheBaseType() {
        class Shape: Identifiable, Equatable, @unchecked Sendable {
            let id: Int
            let sides: Int
            init(id: Int, sides: Int) { (self.id, self.sides) = (id, sides) }
            static func == (a: Shape, b: Shape) -> Bool { a.id == b.id && a.sides == b.sides }
        }
        final class Square: Shape, @unchecked Sendable {}
        let a = ListItem(Square(id: 1, sides: 4) as Shape)
        #expect(a.isContentEqual(to: ListItem(Square(id: 1, sides: 4) as Shape)))
        #expect(!a.isContentEqual(to: ListItem(Square(id: 1, sides: 5) as Shape)))
    }
}

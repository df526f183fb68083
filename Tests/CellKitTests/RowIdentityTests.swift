import CellKit
import CellKitTesting
import Testing

// One definition of a row's identity (`ItemID`), used alike by the diff, by
// `provideResource`, by `TableModel.indexPath(of:)` and by `ResourceLoader`:
// the same object, or an equal fresh copy, always finds its row.

private final class ImageCell: TextCell { var image: String? }

/// A `Hashable` model that is not `Identifiable`: its value is its identity.
private struct Tag: Hashable, Sendable { let name: String }

/// A model whose id is `Optional` (a record before it is saved).
private struct Draft: Identifiable, Equatable, Sendable { let id: Int?; var title: String }

/// A class hierarchy: rows carried in arrays typed as the base class.
private class Animal: Identifiable, @unchecked Sendable {
    let id: Int
    let name: String
    init(id: Int, name: String) { self.id = id; self.name = name }
}
private final class Dog: Animal, @unchecked Sendable {}
private final class Cat: Animal, @unchecked Sendable {}

@MainActor
@Suite("Row identity: one definition for diff, resources, look-ups and loaders")
struct RowIdentityTests {
    /// A controller showing `items` (one section, 10 rows on screen) whose cells take an `"image"` resource.
    private func screen(_ items: [ListItem]) -> (ListController, HeadlessListView, DiagnosticLog) {
        let log = DiagnosticLog()
        let controller = ListController(diagnostics: log.handler)
        register(Tag.self, Draft.self, Animal.self, in: controller)
        let listView = HeadlessListView(viewportHeight: 440, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel(sections: [TableSection(id: 0, items: items)]))
        return (controller, listView, log)
    }

    private func register<each Model>(_ models: repeat (each Model).Type, in controller: ListController) {
        for model in repeat each models {
            controller.register(ImageCell.self, for: model)
            controller.dispatch.onResource(model) { (cell: ImageCell, _, update) in cell.image = update.value as? String }
        }
    }

    private func images(_ listView: HeadlessListView) -> [String?] {
        listView.visibleCells.map { ($0 as! ImageCell).image }
    }

    /// Polls (bounded, no sleep) until `loader` has nothing running.
    private func settle<M, V>(_ loader: ResourceLoader<M, V>) async {
        for _ in 0..<10_000 where !loader.loadingIDs.isEmpty { await Task.yield() }
        #expect(loader.loadingIDs.isEmpty, "loads still running: \(loader.loadingIDs)")
    }

    // MARK: A Hashable model that is not Identifiable

    @Test func aHashableModelFindsItsRowByAnEqualValue() {
        let tags = [Tag(name: "swift"), Tag(name: "uikit"), Tag(name: "linux")]
        let (controller, listView, _) = screen(tags.map { ListItem($0) })
        #expect(controller.provideResource(Tag(name: "uikit"), key: "image", value: "uikit.png") == [ItemPath(item: 1, section: 0)])
        #expect(images(listView) == [nil, "uikit.png", nil])
        #expect(controller.displayed.indexPath(of: Tag(name: "linux")) == ItemPath(item: 2, section: 0))
        #expect(controller.displayed.indexPath(of: ItemID(Tag(name: "linux"))) == ItemPath(item: 2, section: 0))
        #expect(ItemID(Tag(name: "swift")) == ItemListIdentity.of(controller, row: 0))
    }

    @Test func aResourceLoaderDeliversToHashableRows() async {
        let tags = [Tag(name: "a"), Tag(name: "b")]
        let (controller, listView, _) = screen(tags.map { ListItem($0) })
        let loader = ResourceLoader<Tag, String>(key: "image") { "\($0.name).png" }
        controller.addResourceLoader(loader)
        listView.reloadData()
        await settle(loader)
        #expect(images(listView) == ["a.png", "b.png"])
        #expect(loader.cachedValue(for: ItemID(Tag(name: "b"))) == "b.png")
    }

    // MARK: A subclass instance in an array typed as its base class

    @Test func aSubclassRowIsFoundHoweverItsArrayAndTheLookUpAreTyped() {
        let animals: [Animal] = [Dog(id: 1, name: "Rex"), Cat(id: 2, name: "Tom")]
        let (controller, listView, _) = screen(animals.map { ListItem($0) })
        // A fresh copy (not the same object), passed with its own static type.
        #expect(controller.provideResource(Dog(id: 1, name: "Rex"), key: "image", value: "rex.png") == [ItemPath(item: 0, section: 0)])
        #expect(images(listView) == ["rex.png", nil])
        #expect(controller.displayed.indexPath(of: Cat(id: 2, name: "Tom")) == ItemPath(item: 1, section: 0))
        #expect(controller.displayed.indexPath(of: ItemID(Cat(id: 2, name: "Tom"))) == ItemPath(item: 1, section: 0))

        // The other way round: rows typed as the subclass, the look-up as the base class.
        let dogs = [Dog(id: 5, name: "Fido")]
        let model = TableModel(dogs)
        let asAnimal: Animal = Dog(id: 5, name: "Fido")
        #expect(model.indexPath(of: asAnimal) == ItemPath(item: 0, section: 0))
        #expect(ItemID(asAnimal) == ItemID(dogs[0]))
        #expect(ItemID(asAnimal).hashValue == ItemID(dogs[0]).hashValue)
    }

    @Test func aDogAndACatWithEqualIdsAreTwoRows() throws {
        let animals: [Animal] = [Dog(id: 1, name: "Rex"), Cat(id: 1, name: "Tom")]
        let (controller, listView, log) = screen(animals.map { ListItem($0) })
        #expect(controller.displayed.sections[0].items[0].id != controller.displayed.sections[0].items[1].id)
        // Replacing the content diffs cleanly: each keeps its own row.
        controller.apply(TableModel(sections: [TableSection(id: 0, items: animals.reversed().map { ListItem($0) })]))
        #expect(log.all.filter { $0.kind == .duplicateIdentifier }.isEmpty, "\(log.all)")
        #expect(listView.log.allSatisfy { if case .rejected = $0 { false } else { true } })
        try listView.checkConsistency()
        #expect(controller.displayed.itemCount == 2)
    }

    // MARK: A model whose id is Optional

    @Test func anOptionalIdIsItsValue() {
        let drafts = [Draft(id: 7, title: "a"), Draft(id: 8, title: "b")]
        let (controller, listView, _) = screen(drafts.map { ListItem($0) })
        #expect(controller.provideResource(Draft(id: 8, title: "b"), key: "image", value: "b.png") == [ItemPath(item: 1, section: 0)])
        #expect(images(listView) == [nil, "b.png"])
        #expect(controller.displayed.indexPath(of: ItemID(type: Draft.self, id: 7)) == ItemPath(item: 0, section: 0))
        #expect(controller.displayed.indexPath(of: Draft(id: 7, title: "changed")) == ItemPath(item: 0, section: 0))
        #expect(ItemID(Draft(id: 7, title: "")) == ItemID(type: Draft.self, id: Optional(7)))
        #expect(ItemID(Draft(id: 7, title: "")).hashValue == ItemID(type: Draft.self, id: 7).hashValue)
        #expect(ItemID(Draft(id: 7, title: "")).rawValue as? Int == 7)
        // Every nil id of one type is one identity.
        #expect(ItemID(Draft(id: nil, title: "x")) == ItemID(Draft(id: nil, title: "y")))
        #expect(ItemID(Draft(id: nil, title: "x")) != ItemID(Draft(id: 0, title: "x")))
    }

    /// RowIdentity: ids of several kinds in one model type through a `Sendable` wrapper
    /// (outside check 13c: `AnyHashable` is not `Sendable`, and the article did not say what works).
    @Test func idsOfSeveralTypesWorkThroughASendableWrapper() throws {
        struct AnyID: Hashable, Sendable {
            let base: any Hashable & Sendable
            init(_ base: some Hashable & Sendable) { self.base = base }
            static func == (a: AnyID, b: AnyID) -> Bool { AnyHashable(a.base) == AnyHashable(b.base) }
            func hash(into hasher: inout Hasher) { AnyHashable(base).hash(into: &hasher) }
        }
        struct Entry: Identifiable, Equatable, Sendable { let id: AnyID; var title: String }

        let old = [Entry(id: AnyID(7), title: "post"), Entry(id: AnyID("7"), title: "ad"), Entry(id: AnyID(8), title: "other")]
        let new = [Entry(id: AnyID("7"), title: "ad, edited"), Entry(id: AnyID(7), title: "post"), Entry(id: AnyID(8), title: "other")]
        // The wrapper is the id: 7 and "7" are two rows, found with the wrapper only.
        let model = TableModel(old)
        #expect(model.indexPath(of: ItemID(type: Entry.self, id: AnyID("7"))) == ItemPath(item: 1, section: 0))
        #expect(model.indexPath(of: ItemID(type: Entry.self, id: AnyID(7))) == ItemPath(item: 0, section: 0))
        #expect(model.indexPath(of: ItemID(type: Entry.self, id: 7)) == nil)
        // The diff sees a move and an update, no duplicate, no delete or insert.
        let changes = StagedChangeset(from: old.map { ListItem($0) }, to: new.map { ListItem($0) })
        let all = changes.stages.map(\.changeset)
        #expect(changes.duplicates.isEmpty)
        #expect(all.allSatisfy { $0.itemDeletes.isEmpty && $0.itemInserts.isEmpty })
        #expect(all.flatMap(\.itemMoves).count == 1 && all.flatMap(\.itemUpdates).count == 1)
        // On a screen too.
        let (controller, listView, log) = screen(old.map { ListItem($0) })
        controller.apply(TableModel(sections: [TableSection(id: 0, items: new.map { ListItem($0) })]))
        #expect(log.all.filter { $0.kind == .duplicateIdentifier }.isEmpty, "\(log.all)")
        try listView.checkConsistency()
        #expect(controller.displayed.indexPath(of: ItemID(type: Entry.self, id: AnyID(7))) == ItemPath(item: 1, section: 0))
    }

    /// A resource goes by the object a row shows, not by an explicit id that happens to equal
    /// another object's own id (recheck 12, r1: `ListItem(Draft 11, id: 1)` beside Draft 1 got
    /// Draft 1's image, through `provideResource` and a `ResourceLoader`).
    @Test func aResourceGoesByTheObjectNotByAnExplicitIdEqualToAnotherObjectsId() async {
        let items = [ListItem(Draft(id: 1, title: "one")), ListItem(Draft(id: 11, title: "eleven"), id: 1)]
        let (controller, listView, _) = screen(items)
        #expect(controller.provideResource(Draft(id: 1, title: "one"), key: "image", value: "1.png") == [ItemPath(item: 0, section: 0)])
        #expect(controller.provideResource(Draft(id: 11, title: "eleven"), key: "image", value: "11.png") == [ItemPath(item: 1, section: 0)])
        #expect(images(listView) == ["1.png", "11.png"])

        let (loaded, loadedView, _) = screen(items)
        let loader = ResourceLoader<Draft, String>(key: "image") { "\($0.id ?? -1).jpg" }
        loaded.addResourceLoader(loader)
        loadedView.reloadData()
        await settle(loader)
        #expect(images(loadedView) == ["1.jpg", "11.jpg"])
    }

    /// A section's `Optional` id counts as its value too, with the same hash (an outside user's
    /// report 12a, d4: `SectionID(Optional(1)) == SectionID(1)` held, but the hashes differed, so a
    /// `Set` of sections missed most of them).
    @Test func anOptionalSectionIdIsItsValueWithTheSameHash() {
        let plain = Set((0..<1_000).map { SectionID($0) })
        let optional = (0..<1_000).map { SectionID(Int?.some($0)) }
        #expect(optional.allSatisfy { plain.contains($0) })
        #expect(SectionID(Int??.some(.some(1))) == SectionID(1))
        #expect(SectionID(Int??.some(.some(1))).hashValue == SectionID(1).hashValue)
        #expect(SectionID(String?.some("today")).hashValue == SectionID("today").hashValue)
        #expect(SectionID(Int?.some(1)).rawValue as? Int == 1)
        #expect(SectionID(Int?.none) != SectionID(0))
        #expect(SectionID(Int?.none) == SectionID(Int?.none))
        #expect(SectionID(Int?.none).hashValue == SectionID(Int?.none).hashValue)
    }

    @Test func aResourceLoaderDeliversToRowsWithOptionalIds() async {
        let drafts = [Draft(id: 1, title: "a"), Draft(id: 2, title: "b")]
        let (controller, listView, _) = screen(drafts.map { ListItem($0) })
        let loader = ResourceLoader<Draft, String>(key: "image") { "draft-\($0.id ?? -1).png" }
        controller.addResourceLoader(loader)
        listView.reloadData()
        await settle(loader)
        #expect(loader.startedLoads == 2)
        #expect(images(listView) == ["draft-1.png", "draft-2.png"])
        #expect(loader.cachedValue(for: ItemID(type: Draft.self, id: 2)) == "draft-2.png")
    }

    @Test func aResourceLoaderDeliversToRowsWithExplicitIds() async {
        // No identity derivable from the model alone: the loader delivers by the row's own id.
        struct Note: Sendable { let text: String }
        let notes = [Note(text: "a"), Note(text: "b")]
        let (controller, listView, _) = screen(notes.enumerated().map { ListItem($0.element, id: $0.offset) })
        register(Note.self, in: controller)
        let loader = ResourceLoader<Note, String>(key: "image") { "\($0.text).png" }
        controller.addResourceLoader(loader)
        listView.reloadData()
        await settle(loader)
        #expect(images(listView) == ["a.png", "b.png"])
    }
}

private enum ItemListIdentity {
    @MainActor static func of(_ controller: ListController, row: Int) -> ItemID {
        controller.displayed.sections[0].items[row].id
    }
}

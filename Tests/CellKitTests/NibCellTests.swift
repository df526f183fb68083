import CellKit
import CellKitTesting
import Testing

// Carbon Five's `createCellWithOwner:` and nibs holding several cells: the platform-neutral
// decisions behind `CellSource.nibCell(_:name:bundle:owner:identifier:style:)` (CellKitUIKit),
// and what a nib source does on a list view that cannot load nibs.

private class NibCell { let reuseIdentifier: String?; init(_ id: String?) { reuseIdentifier = id } }
private final class ProductCell: NibCell {}
private final class ReviewCell: NibCell {}
private final class Owner {}

@MainActor
@Suite("Nib cells: picking the cell, reuse identifiers, non-UIKit list views")
struct NibCellTests {
    @Test func theCellOfTheClassWithTheIdentifierIsPicked() {
        let review = ReviewCell("ProductCell"), plain = ProductCell("Plain"), wanted = ProductCell("ProductCell")
        let objects: [Any] = [Owner(), review, plain, wanted, ProductCell("ProductCell")]
        let pick = NibCellPick(nibName: "Cells", identifier: "ProductCell")
        #expect(pick.cell(ProductCell.self, in: objects, reuseIdentifier: \.reuseIdentifier) === wanted)
        // No identifier: the first object of the class, as the seed's `identifier == nil`.
        let any = NibCellPick(nibName: "Cells", identifier: nil)
        #expect(any.cell(ProductCell.self, in: objects, reuseIdentifier: \.reuseIdentifier) === plain)
        #expect(any.cell(NibCell.self, in: objects, reuseIdentifier: \.reuseIdentifier) === review)   // subclasses count
    }

    @Test func aNibWithoutTheCellIsNamedWithClassAndIdentifier() {
        let objects: [Any] = [ReviewCell("ProductCell"), ProductCell("Other")]
        let pick = NibCellPick(nibName: "Cells", identifier: "ProductCell")
        #expect(pick.cell(ProductCell.self, in: objects, reuseIdentifier: \.reuseIdentifier) == nil)
        let message = pick.missingMessage(ProductCell.self, found: objects)
        #expect(message.contains("\"Cells\""))
        #expect(message.contains("ProductCell with reuse identifier \"ProductCell\""))
        #expect(message.contains("found: ReviewCell, ProductCell"))
        #expect(NibCellPick(nibName: "Empty", identifier: nil).missingMessage(ProductCell.self, found: []).contains("found: nothing"))
    }

    @Test func aTemplateIsDequeuedByTheIdentifierItsCellsCarry() {
        let template = CellSource.template(TextCell.self) { TextCell() }
        var identifiers = TemplateReuseIdentifiers()
        #expect(identifiers.dequeueIdentifier(for: template) == template.reuseIdentifier)
        identifiers.built(template, carrying: nil)              // a cell without one: nothing learnt
        identifiers.built(template, carrying: "")
        identifiers.built(template, carrying: template.reuseIdentifier)
        #expect(identifiers.dequeueIdentifier(for: template) == template.reuseIdentifier)
        identifiers.built(template, carrying: "ProductCell")   // the identifier set in the nib
        #expect(identifiers.dequeueIdentifier(for: template) == "ProductCell")
        let other = CellSource.template(TextCell.self) { TextCell() }
        #expect(identifiers.dequeueIdentifier(for: other) == other.reuseIdentifier)
    }

    // Outside check 6, F8: what a nib source does where nibs cannot be loaded.
    @Test func aNibSourceOnAHeadlessListViewShowsAPlainTextCell() {
        struct Product: Identifiable, Equatable, Sendable { let id: Int; var title: String }
        final class ProductCell: ListCell { var title = ""; init() {} }
        let log = DiagnosticLog()
        let controller = ListController(diagnostics: log.handler)
        controller.registry.register(CellSource.nib(ProductCell.self, name: "ProductCell"), for: Product.self) { (cell: ProductCell, product) in
            cell.title = product.title
        }
        let listView = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel([Product(id: 1, title: "a"), Product(id: 2, title: "b")]))
        // Not built from its type: a nib source has no `make`, so the list view shows a TextCell,
        // and the handler that expects the nib's class is skipped, reported once.
        #expect(listView.visibleCells.allSatisfy { type(of: $0) == TextCell.self })
        #expect(log.all.filter { $0.kind == .cellTypeMismatch }.count == 1)
    }
}

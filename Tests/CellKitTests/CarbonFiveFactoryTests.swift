import CellKit
import CellKitTesting
import Testing

// Carbon Five's cell factory: one factory (cell class + how to build it + a reuse
// identifier) kept as a property of the controllers and shared by several screens.
// In CellKit the factory is a CellSource and nobody types the identifier.

private final class ProductCell: ListCell {
    var title = ""
    var builtByTemplate = false
    /// Which template built the cell ("bold", "light"), as a nib's set-up would differ.
    var builtBy = ""
    init() {}
}

/// A nested cell class named like a style of its outer class (outside check 9b).
private final class CompactHost: ListCell {
    final class Compact: ListCell { init() {} }
    init() {}
}

private struct Product: Identifiable, Equatable, Sendable { let id: Int; var title: String }
private struct Review: Identifiable, Equatable, Sendable { let id: Int; var title: String }

/// A screen that takes its cell factory as a property, as the post suggests.
@MainActor
private final class ProductsScreen {
    let controller = ListController(diagnostics: .ignore)
    let listView = HeadlessListView(viewportHeight: 132, rowHeight: 44)

    init(cellFactory: CellSource, products: [Product]) {
        controller.registry.register(cellFactory, for: Product.self) { (cell: ProductCell, product) in
            cell.title = product.title
        }
        controller.attach(to: listView)
        controller.apply(TableModel(products))
    }
}

@MainActor
@Suite("Carbon Five: a cell factory shared by screens")
struct CarbonFiveFactoryTests {
    @Test func oneFactoryServesTwoScreens() {
        let factory = CellSource.template(ProductCell.self) {
            let cell = ProductCell()
            cell.builtByTemplate = true  // the nib's set-up would happen here
            return cell
        }
        let catalog = ProductsScreen(cellFactory: factory, products: (0..<10).map { Product(id: $0, title: "item \($0)") })
        let wishlist = ProductsScreen(cellFactory: factory, products: [Product(id: 42, title: "wish")])
        let catalogCells = catalog.listView.visibleCells.compactMap { $0 as? ProductCell }
        let wishlistCells = wishlist.listView.visibleCells.compactMap { $0 as? ProductCell }
        #expect(catalogCells.map(\.title) == ["item 0", "item 1", "item 2"])
        #expect(wishlistCells.map(\.title) == ["wish"])
        #expect((catalogCells + wishlistCells).allSatisfy { $0.builtByTemplate })
        #expect(catalog.listView.createdCells[factory.reuseIdentifier] == 3)
        #expect(wishlist.listView.createdCells[factory.reuseIdentifier] == 1)
    }

    @Test func reuseIdentifiersAreDerivedFromTypeStyleAndKind() {
        let plain = CellSource.type(ProductCell.self)
        let styled = CellSource.type(ProductCell.self, style: "compact")
        let template = CellSource.template(ProductCell.self) { ProductCell() }
        let nib = CellSource.nib(ProductCell.self, name: "ProductCell")
        let ids = [plain, styled, template, nib].map(\.reuseIdentifier)
        #expect(Set(ids).count == 4)
        #expect(ids.allSatisfy { $0.hasPrefix(String(reflecting: ProductCell.self)) })
        #expect(styled.reuseIdentifier.hasSuffix("#style(compact)"))
        #expect(nib.reuseIdentifier.contains("ProductCell)"))
        #expect(nib.make == nil)
        // Equal sources (same derivation) are interchangeable, so a factory can be rebuilt anywhere.
        #expect(plain == CellSource.type(ProductCell.self))
    }

    @Test("sources that differ in type, style, nib or bundle never share an identifier, however they are spelled")
    func derivedIdentifiersNeverCollide() {
        // Before: "type.style#nib(bundle/name)" unescaped, so these pairs had one identifier and were equal.
        let pairs: [(CellSource, CellSource)] = [
            (.type(CompactHost.self, style: "Compact"), .type(CompactHost.Compact.self)),
            (.type(ProductCell.self, style: "s#nib(P)"), .nib(ProductCell.self, name: "P", style: "s")),
            (.nib(ProductCell.self, name: "b/c", bundleIdentifier: "a"), .nib(ProductCell.self, name: "c", bundleIdentifier: "a/b")),
            (.nib(ProductCell.self, name: "a/b"), .nib(ProductCell.self, name: "b", bundleIdentifier: "a")),
            (.type(ProductCell.self, style: "x%23y"), .type(ProductCell.self, style: "x#y")),
        ]
        for (a, b) in pairs {
            #expect(a.reuseIdentifier != b.reuseIdentifier, "\(a) and \(b)")
            #expect(a != b, "\(a) and \(b)")
        }
        #expect(Set(pairs.flatMap { [$0.0, $0.1] }).count == pairs.count * 2)
        // Rebuilt alike, still equal.
        #expect(CellSource.nib(ProductCell.self, name: "a/b", style: "x#y") == .nib(ProductCell.self, name: "a/b", style: "x#y"))
    }

    @Test("a shared source is registered without a configure handler: the cell or a presenter configures it")
    func registerASourceWithoutConfigure() {
        final class SelfUpdatingCell: ListCell, UpdatableCell {
            var title = ""
            init() {}
            func update(with product: Product) -> Bool { title = product.title; return true }
        }
        let factory = CellSource.type(SelfUpdatingCell.self, style: "compact")
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        // Before: "generic parameter 'Cell' could not be inferred" without a closure.
        controller.registry.register(factory, for: Product.self)
        controller.attach(to: listView)
        controller.apply(TableModel([Product(id: 1, title: "one"), Product(id: 2, title: "two")]))
        #expect(listView.visibleCells.compactMap { ($0 as? SelfUpdatingCell)?.title } == ["one", "two"])
        #expect(listView.createdCells[factory.reuseIdentifier] == 2)
    }

    @Test func twoTemplatesOfOneCellTypeAndStyleNeverShareAPool() {
        func factory(_ flavor: String) -> CellSource {
            CellSource.template(ProductCell.self) {
                let cell = ProductCell()
                cell.builtBy = flavor
                return cell
            }
        }
        let bold = factory("bold")
        let light = factory("light")
        #expect(bold != light)
        #expect(bold.reuseIdentifier != light.reuseIdentifier)
        let shared = bold  // one factory, kept by two screens
        #expect(shared == bold && shared.reuseIdentifier == bold.reuseIdentifier)
        #expect(Set([bold, shared, light]).count == 2)

        // One list: products shown with the bold factory, then reviews with the light
        // one. The products' cells go back to a pool; a review must never get one.
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView(viewportHeight: 132, rowHeight: 44)
        controller.registry.register(bold, for: Product.self) { (cell: ProductCell, product) in cell.title = product.title }
        controller.registry.register(light, for: Review.self) { (cell: ProductCell, review) in cell.title = review.title }
        controller.attach(to: listView)
        controller.apply(TableModel((0..<5).map { Product(id: $0, title: "product \($0)") }))
        #expect(listView.visibleCells.compactMap { ($0 as? ProductCell)?.builtBy } == ["bold", "bold", "bold"])
        controller.apply(TableModel((0..<5).map { Review(id: $0, title: "review \($0)") }))
        let cells = listView.visibleCells.compactMap { $0 as? ProductCell }
        #expect(cells.map(\.title) == ["review 0", "review 1", "review 2"])
        #expect(cells.map(\.builtBy) == ["light", "light", "light"])
    }
}

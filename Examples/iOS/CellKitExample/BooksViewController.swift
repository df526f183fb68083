#if canImport(UIKit)
import UIKit
import CellKitUIKit

// The UIKit part of the Getting started guide (Sources/CellKit/Documentation.docc/
// GettingStarted.md). The class below is that guide's snippet, line for line:
// Scripts/doc-examples.py checks that it stays so, and ios-typecheck compiles it.

struct Book: Identifiable, Equatable, Sendable {
    let id: Int
    var title: String
    var author: String

    static let samples = [
        Book(id: 1, title: "Dune", author: "Frank Herbert"),
        Book(id: 2, title: "Emma", author: "Jane Austen"),
    ]
}

final class BooksViewController: UITableViewController {
    private let controller = ListController()
    private lazy var adapter = TableViewAdapter(tableView: tableView)

    override func viewDidLoad() {
        super.viewDidLoad()
        controller.register(UITableViewCell.self, for: Book.self, cellStyle: .subtitle) { cell, book in
            var content = cell.defaultContentConfiguration()
            content.text = book.title
            content.secondaryText = book.author
            cell.contentConfiguration = content
        }
        controller.onSelect(Book.self) { [weak self] book, _ in self?.open(book) }
        controller.attach(to: adapter)
        controller.apply(TableModel(Book.samples))
    }

    private func open(_ book: Book) {
        navigationController?.pushViewController(UIViewController(), animated: true)
    }
}
#endif

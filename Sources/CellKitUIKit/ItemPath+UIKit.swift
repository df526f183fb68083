#if canImport(UIKit)
import UIKit
import CellKit

extension ItemPath {
    /// This path as a Foundation index path (`section`, `item`/`row`).
    public var indexPath: IndexPath { IndexPath(item: item, section: section) }

    /// The path of a table or collection view's index path.
    public init(_ indexPath: IndexPath) {
        self.init(item: indexPath.item, section: indexPath.section)
    }
}

extension Changeset {
    /// The item paths as index paths, for UIKit calls.
    static func indexPaths(_ paths: [ItemPath]) -> [IndexPath] { paths.map(\.indexPath) }

    /// Sections as an index set, for UIKit calls.
    static func indexSet(_ sections: [Int]) -> IndexSet { IndexSet(sections) }
}
#endif

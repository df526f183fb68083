// UIKit adapters for CellKit: `TableViewAdapter` and `CollectionViewAdapter` make
// `UITableView` and `UICollectionView` list views that a `ListController` drives.
// Everything here is compiled only where UIKit exists; on other platforms the
// module is empty. The adapters replay what the core decides (`BatchPlan`,
// `PathMapping`, `ScrollAnchor`, `PrefetchRequest`, `EditingTable`,
// `BackgroundPlaceholder` in `CellKit`); they hold no logic of their own that
// another list view would need.
#if canImport(UIKit)
import UIKit
@_exported import CellKit
#endif

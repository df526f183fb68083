// UIKit adapters for CellKit. Everything here is compiled only where UIKit exists.
#if canImport(UIKit)
import UIKit
import CellKit
#endif

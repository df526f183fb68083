// SwiftUI for CellKit: SwiftUI views as cells (`SwiftUICell`, `register(_:style:content:)`),
// a SwiftUI list view over a `ListController` (`CellKitList`), and the controller's
// `ListState` as an `ObservableObject` (`ObservableListState`).
// Compiled only where SwiftUI and UIKit exist; elsewhere the module is empty. It is
// type-checked against the iOS 16.4 SDK and has never run (see the DocC article
// "Using CellKit from SwiftUI").
#if canImport(SwiftUI) && canImport(UIKit)
@_exported import CellKitUIKit
#endif

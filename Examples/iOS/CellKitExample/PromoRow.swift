#if canImport(SwiftUI) && canImport(UIKit)
import SwiftUI
import CellKitSwiftUI

/// A SwiftUI row inside the UIKit feed (`FeedViewController`): registered with
/// `controller.register(Promo.self) { PromoRow(promo: $0) }`, hosted in a table view
/// cell by `UIHostingConfiguration` (iOS 16+) and sized by SwiftUI.
struct PromoRow: View {
    let promo: Promo

    var body: some View {
        HStack(alignment: .top, spacing: 12) {
            Image(systemName: "sparkles")
                .font(.title2)
                .foregroundColor(.accentColor)
                .accessibilityHidden(true)
            VStack(alignment: .leading, spacing: 4) {
                Text(promo.title).font(.headline)
                Text(promo.message).font(.subheadline).foregroundColor(.secondary)
            }
        }
        .padding(.vertical, 8)
        .accessibilityElement(children: .combine)
    }
}
#endif

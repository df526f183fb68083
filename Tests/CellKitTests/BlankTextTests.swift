import CellKit
import Foundation
import CellKitTesting
import Testing

/// Outside check 11a: text that shows nothing, and heights no lookup can find.
@MainActor
@Suite("Blank text and height-cache widths")
struct BlankTextTests {
    /// A model whose description is `text`.
    private struct Described: Identifiable, Hashable, Sendable, CustomStringConvertible {
        let id: Int
        let text: String
        var description: String { text }
    }

    @Test("the default cell never shows a description of invisible characters", arguments: [
        "\u{3164}", "\u{115F}\u{1160}", "\u{FFA0}", "\u{034F}", "\u{17B4}\u{17B5}", "\u{180B}\u{180D}",
        "\u{FE0F}", "\u{2065}", "\u{2800}", " \u{3164} ", "\u{200B}",
    ])
    func invisibleDescriptions(text: String) throws {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView(viewportHeight: 44, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel([Described(id: 7, text: text)]))
        #expect(listView.visibleTexts == ["Described(id: 7)"])
    }

    @Test("a description with something to show is shown as it is")
    func visibleDescription() {
        let controller = ListController(diagnostics: .ignore)
        let listView = HeadlessListView(viewportHeight: 44, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel([Described(id: 7, text: "\u{3164}x")]))
        #expect(listView.visibleTexts == ["\u{3164}x"])
    }

    private struct Blank: Error, LocalizedError {
        let text: String
        var errorDescription: String? { text }
    }

    @Test("an error whose description shows nothing gets the generic message", arguments: ["", "   ", "\u{3164}", "\n\t"])
    func blankErrorDescription(text: String) {
        #expect(ListController.Placeholders().message(for: Blank(text: text)) == "Couldn't load the content.")
        #expect(ListController.Placeholders().message(for: Blank(text: "Offline")) == "Offline")
    }

    @Test("HeightCache keeps nothing for a width that no lookup can find")
    func heightCacheRefusesBadWidths() {
        var cache = HeightCache()
        let item = ListItem(Post(1))
        for width in [Double.nan, .infinity, 0, -3] { cache.store(40, for: item, width: width) }
        #expect(cache.count == 0)
        cache.store(40, for: item, width: 320)
        #expect(cache.height(for: item, width: 320) == 40)
    }
}

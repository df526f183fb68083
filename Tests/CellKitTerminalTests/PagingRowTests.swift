import Foundation
import Testing
import CellKit
import CellKitTerminal

/// Pages of `Line`s that fail while `failing` is set; counts the fetches.
actor FlakyPages {
    var failing = true
    private(set) var fetches: [Int] = []

    func setFailing(_ value: Bool) { failing = value }

    func page(_ n: Int) throws -> Page<Line> {
        fetches.append(n)
        if n > 0 && failing { throw PageFailed(page: n) }
        return Page((n * 10..<n * 10 + 10).map { Line(id: $0) }, hasMore: n < 3)
    }
}

struct Line: Identifiable, Equatable, Sendable { let id: Int }

struct PageFailed: LocalizedError {
    let page: Int
    var errorDescription: String? { "page \(page) is offline" }
}

@Suite("Terminal list view: the load-more row")
@MainActor
struct PagingRowTests {
    @Test("a failed page shows the retry row once (no retry loop on a view that reloads updated rows); Enter retries; paging goes on")
    func retryRow() async throws {
        let server = FlakyPages()
        let source = PaginatedDataSource<Line>(prefetchDistance: 1) { try await server.page($0) }
        let controller = ListController(diagnostics: .ignore)
        controller.register(TextCell.self, for: Line.self) { cell, line in cell.text = "line \(line.id)" }
        let list = TerminalListView(columns: 50, rows: 30)
        controller.attach(to: list)
        controller.bind(to: source)
        await source.load().value
        await controller.settle()
        _ = list.renderFrame()  // every row is on screen: page 1 is asked for, and fails
        while source.nextPageError == nil { await Task.yield() }
        await controller.settle()
        for _ in 0..<20 {
            _ = list.renderFrame()
            await Task.yield()
        }
        await controller.settle()
        #expect(await server.fetches == [0, 1], "the row that shows the failure does not retry by itself")
        let frame = list.renderFrame().map(\.plainText)
        #expect(frame.contains { $0.contains("↻ Couldn't load more: page 1 is offline") })
        #expect(frame.contains { $0.contains("Select to retry (Enter)") })

        await server.setFailing(false)
        list.handle(.end)
        #expect(controller.displayed.item(at: list.selectedPath!)?.model is LoadMorePlaceholder)
        list.handle(.enter)
        #expect(source.pageInFlight == 1)
        await source.loadAll().value
        await controller.settle()
        _ = list.renderFrame()
        #expect(source.items.count == 40 && !source.hasMore)
        #expect(!controller.displayed.sections.flatMap(\.items).contains { $0.model is LoadMorePlaceholder })
    }
}

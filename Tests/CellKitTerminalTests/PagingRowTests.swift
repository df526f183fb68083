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

/// Pages of ten `Line`s; each page after the first waits for ``release()``. Counts the fetches.
actor GatedPages {
    private(set) var fetches: [Int] = []
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var released = 0

    func page(_ n: Int) async -> Page<Line> {
        fetches.append(n)
        if n > released { await withCheckedContinuation { waiting.append($0) } }
        return Page((n * 10..<n * 10 + 10).map { Line(id: $0) }, hasMore: n < 3)
    }

    /// Lets the pages asked so far arrive, and the next one too.
    func release() {
        released += 1
        let resumed = waiting
        waiting.removeAll()
        for continuation in resumed { continuation.resume() }
    }
}

struct PageFailed: LocalizedError {
    let page: Int
    var errorDescription: String? { "page \(page) is offline" }
}

/// A terminal list of `columns` × `rows` showing the `Line`s of a paginated source that fetches
/// with `fetch` and loads the next page one row before the end; its first page loaded and shown.
@MainActor
private func pagedLines(
    columns: Int, rows: Int, onError: (@MainActor (any Error) -> Void)? = nil,
    fetch: @escaping @Sendable (Int) async throws -> Page<Line>
) async -> (PaginatedDataSource<Line>, ListController, TerminalListView) {
    let source = PaginatedDataSource<Line>(prefetchDistance: 1, fetch: fetch)
    let controller = ListController(diagnostics: .ignore)
    controller.onError = onError
    controller.register(TextCell.self, for: Line.self) { cell, line in cell.text = "line \(line.id)" }
    let list = TerminalListView(columns: columns, rows: rows)
    controller.attach(to: list)
    controller.bind(to: source)
    await source.load().value
    await controller.settle()
    return (source, controller, list)
}

@Suite("Terminal list view: the load-more row")
@MainActor
struct PagingRowTests {
    /// Outside check 11c (d2): the page's arrival was shown in two batches (the load-more
    /// row deleted, then the rows inserted), so the selection on the row fell back to the
    /// row above and stayed there, and the list without the row loaded a page no one
    /// scrolled to. One batch now: the selection lands on the first new row.
    @Test("with the selection on the load-more row, the page's first row is selected when the page arrives; no extra page loads")
    func selectionOnLoadMoreRowMovesToTheFirstNewRow() async throws {
        let server = GatedPages()
        let (source, controller, list) = await pagedLines(columns: 24, rows: 5) { await server.page($0) }
        list.handle(.end)                        // the last row: page 1 is asked for
        await controller.settle()
        #expect(source.pageInFlight == 1)
        list.handle(.end)                        // onto "Loading more…"
        #expect(list.selectedPath == ItemPath(item: 0, section: 1))
        var seen: [String] = []
        list.onNeedsDisplay = { seen.append("\(list.positionDescription) \(list.selectedPath.map { "[\($0.section), \($0.item)]" } ?? "nil")") }
        await server.release()
        for _ in 0..<10_000 where source.items.count < 20 { await Task.yield() }
        await controller.settle()
        _ = list.renderFrame()
        #expect(source.items.count == 20)
        #expect(list.selectedPath == ItemPath(item: 10, section: 0), "\(seen)")
        #expect(!seen.contains { $0.hasSuffix("[0, 9]") }, "the selection never goes back above the page: \(seen)")
        #expect(await server.fetches == [0, 1], "no page loads before the list is scrolled to its end")
    }

    @Test("a failed page shows the retry row once (no retry loop on a view that reloads updated rows); Enter retries; paging goes on")
    func retryRow() async throws {
        let server = FlakyPages()
        let (source, controller, list) = await pagedLines(columns: 50, rows: 30) { try await server.page($0) }
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

    // Failed before the fix (outside report 13b, item 4): End from the top selected the last
    // row at the bottom of the screen; the "Loading more…" row the page added below it stayed
    // off screen, and so did "Couldn't load more" when the page failed (onError was called),
    // until a second ↓ or End brought it on screen, which also retried the page.
    @Test("End from the top shows the load-more row the page adds below the last row, loading and then failed, without another key")
    func endShowsTheLoadMoreRow() async throws {
        let server = FlakyPages()
        var errors = 0
        let (source, controller, list) = await pagedLines(columns: 50, rows: 5, onError: { _ in errors += 1 }) { try await server.page($0) }
        #expect(list.renderFrame()[0].plainText.contains("line 0"))
        list.handle(.end)                        // line 9, the last row: page 1 is asked for
        #expect(list.selectedPath == ItemPath(item: 9, section: 0))
        #expect(source.pageInFlight == 1 || source.nextPageError != nil)
        // The page is in flight or failed already: the row that says so is on screen either way.
        await controller.settle()
        var frame = list.renderFrame().map(\.plainText)
        #expect(frame.contains { $0.contains("Loading more") || $0.contains("Couldn't load more") }, "\(frame)")
        #expect(frame.contains { $0.contains("line 9") }, "the selected row stays on screen: \(frame)")
        for _ in 0..<10_000 where source.nextPageError == nil { await Task.yield() }
        await controller.settle()
        frame = list.renderFrame().map(\.plainText)
        #expect(frame.contains { $0.contains("↻ Couldn't load more: page 1 is offline") }, "\(frame)")
        #expect(frame.contains { $0.contains("Select to retry (Enter)") }, "both lines of the failed row: \(frame)")
        #expect(frame.contains { $0.contains("line 9") }, "\(frame)")
        #expect(list.selectedPath == ItemPath(item: 9, section: 0))
        #expect(errors == 1)
        for _ in 0..<20 {
            _ = list.renderFrame()
            await Task.yield()
        }
        await controller.settle()
        #expect(await server.fetches == [0, 1], "shown, the failed row does not retry by itself")
        // ↓ onto it, Enter retries; the page's first row is selected where the row was.
        await server.setFailing(false)
        list.handle(.down)
        list.handle(.enter)
        await source.loadNextPage()?.value
        for _ in 0..<10_000 where source.items.count < 20 { await Task.yield() }
        await controller.settle()
        frame = list.renderFrame().map(\.plainText)
        #expect(list.selectedPath == ItemPath(item: 10, section: 0), "\(frame)")
    }

    @Test("the load-more row is not scrolled into view when the end of the content is not on screen, nor over the selected row")
    func loadMoreRowStaysBelowWhenTheEndIsNotOnScreen() async throws {
        let server = GatedPages()
        // One line: the selected row fills the screen, so the row after it has no room.
        let (source, controller, list) = await pagedLines(columns: 50, rows: 1) { await server.page($0) }
        list.handle(.end)
        await controller.settle()
        #expect(source.pageInFlight == 1)
        let frame = list.renderFrame().map(\.plainText)
        #expect(frame.count == 1 && frame[0].contains("line 9"), "the selected row, not the loading row: \(frame)")
        // Scrolled up: the end is off screen, and a load-more row added there stays there.
        list.handle(.home)
        _ = list.renderFrame()
        #expect(list.visibleItemPaths == [ItemPath(item: 0, section: 0)])
        await server.release()
        for _ in 0..<10_000 where source.items.count < 20 { await Task.yield() }
        await controller.settle()
        #expect(list.visibleItemPaths == [ItemPath(item: 0, section: 0)])
    }
}

// One measured call per run, for instruction counts that repeat on a loaded machine:
//   valgrind --tool=callgrind --toggle-collect='*measured*' .build/release/cellkit-probe apply 100000 10000
// (Scripts/instructions runs every case and prints the ratios). Input construction
// and the screen's first load happen outside the measured functions.
import CellKit
import CellKitTesting
import Workloads
#if canImport(Glibc)
import Glibc
#endif

@inline(never) func measuredBareDiff(_ old: [BenchItem], _ new: [BenchItem]) -> Int {
    StagedChangeset(from: old, to: new).stages.count
}

@inline(never) func measuredListItemDiff(_ old: [DiffSection<Int, Int, ListItem>], _ new: [DiffSection<Int, Int, ListItem>]) -> Int {
    StagedChangeset(from: old, to: new).stages.count
}

@MainActor @inline(never) func measuredApply(_ fixture: PipelineFixture) {
    fixture.apply()
}

@MainActor @inline(never) func measuredScroll(_ listView: HeadlessListView) -> Int {
    scrollFrames(listView, frames: 1_000)
}

@MainActor @inline(never) func measuredDispatch(_ fixture: DispatchFixture, _ kind: String) -> Int {
    switch kind {
    case "dispatch-casts": fixture.handWritten()
    case "dispatch-table": fixture.dispatchTable()
    default: fixture.registryPath()
    }
}

@inline(never) func measuredBuild(_ items: [BenchItem]) -> TableModel {
    TableModel(items)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let rows = Int(arguments[2]), let each = Int(arguments[3]) else {
    print("usage: cellkit-probe bare-diff|bare-front|bare-loaded|listitem-diff|apply|apply-warm|apply-feed|apply-generic|apply-more|apply-last|apply-sections|apply-loaded|apply-front|dispatch-casts|dispatch-table|dispatch-registry|scroll|build ROWS EACH")
    exit(64)
}

switch arguments[1] {
case "bare-diff":
    let (old, new) = bareDiffInput(rows: rows, each: each)
    print(measuredBareDiff(old, new))
case "bare-front":
    let old = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
    print(measuredBareDiff(old, [BenchItem(id: -1, content: 0)] + old))
case "listitem-diff":
    let (old, new) = bareDiffInput(rows: rows, each: each)
    print(measuredListItemDiff([DiffSection(id: 0, content: 0, elements: old.map { ListItem($0) })],
                               [DiffSection(id: 0, content: 0, elements: new.map { ListItem($0) })]))
case "apply", "apply-feed":
    MainActor.assumeIsolated {
        let fixture = PipelineFixture(rows: rows, each: each, feed: arguments[1] == "apply-feed")
        measuredApply(fixture)
        print(fixture.listView.visibleItemPaths.count)
    }
case "apply-warm":
    // The measured apply after one of the same size in the same process (code, runtime
    // metadata and lazy bindings warmed as in the benchmarks' later iterations).
    MainActor.assumeIsolated {
        let warm = PipelineFixture(rows: rows, each: each)
        warm.apply()
        let fixture = PipelineFixture(rows: rows, each: each)
        measuredApply(fixture)
        print(fixture.listView.visibleItemPaths.count, warm.listView.visibleItemPaths.count)
    }
case "apply-generic":
    // Models built inside CellKit's generic code (a data source), not in this module.
    MainActor.assumeIsolated {
        let (old, new) = bareDiffInput(rows: rows, each: each)
        let fixture = PipelineFixture(old: SimpleDataSource(old).model, next: SimpleDataSource(new).model)
        measuredApply(fixture)
        print(fixture.listView.visibleItemPaths.count)
    }
case "apply-front":
    // The most common update of a feed: one new row at the top (EACH is ignored).
    MainActor.assumeIsolated {
        let old = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
        let fixture = PipelineFixture(old: TableModel(old), next: TableModel([BenchItem(id: -1, content: 0)] + old))
        measuredApply(fixture)
        print(fixture.listView.visibleItemPaths.count)
    }
case "apply-more":
    // A paging list: the same update, shown with the load-more row (a placeholder section).
    MainActor.assumeIsolated {
        let (old, new) = bareDiffInput(rows: rows, each: each)
        var next = TableModel(new)
        next.sections.append(TableSection(id: "more", items: [ListItem(LoadMorePlaceholder())]))
        let fixture = PipelineFixture(old: TableModel(old), next: next)
        measuredApply(fixture)
        print(fixture.listView.visibleItemPaths.count)
    }
case "apply-last":
    // A paging list's last page: the same update, and the load-more row goes.
    MainActor.assumeIsolated {
        let (old, new) = bareDiffInput(rows: rows, each: each)
        var shown = TableModel(old)
        shown.sections.append(TableSection(id: "more", items: [ListItem(LoadMorePlaceholder())]))
        let fixture = PipelineFixture(old: shown, next: TableModel(new))
        measuredApply(fixture)
        print(fixture.listView.visibleItemPaths.count)
    }
case "bare-loaded":
    // The peer of a first load: the bare diff from no rows to ROWS rows (EACH is ignored).
    let new = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
    print(measuredBareDiff([], new))
case "apply-loaded":
    // Placeholder → content: the loading row (its own section) gives way to ROWS rows (EACH is ignored).
    MainActor.assumeIsolated {
        let new = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
        let loading = TableModel(sections: [TableSection(id: "placeholder", items: [ListItem(LoadingPlaceholder())])])
        let fixture = PipelineFixture(old: loading, next: TableModel(new))
        measuredApply(fixture)
        print(fixture.listView.visibleItemPaths.count)
    }
case "apply-sections":
    // The same update in two typed sections of different model types (a quarter of the
    // rows are notes), under a header row of a third type.
    MainActor.assumeIsolated {
        func model(_ items: [BenchItem]) -> TableModel {
            var model = TableModel(sections: [TableSection(id: "header", items: [ListItem(FeedAd(id: 0, content: 0))])])
            model.sections += TableModel(items.filter { $0.id & 3 != 0 }).sections
            var notes = TableModel(items.filter { $0.id & 3 == 0 }.map { FeedNote(id: $0.id, content: $0.content) }).sections[0]
            notes.id = "notes"
            model.sections.append(notes)
            return model
        }
        let (old, new) = bareDiffInput(rows: rows, each: each)
        let fixture = PipelineFixture(old: model(old), next: model(new))
        measuredApply(fixture)
        print(fixture.listView.visibleItemPaths.count)
    }
case "dispatch-casts", "dispatch-table", "dispatch-registry":
    // Configuring 100k rows of 4 model types (EACH is ignored): the peer, the dispatch table, the registry.
    MainActor.assumeIsolated {
        let fixture = DispatchFixture(count: rows)
        print(measuredDispatch(fixture, arguments[1]))
    }
case "scroll":
    MainActor.assumeIsolated {
        let (controller, listView) = makeBenchScreen()
        controller.apply(TableModel(benchIDs(rows).map { BenchItem(id: $0, content: 0) }))
        print(measuredScroll(listView), controller.displayed.itemCount)
    }
case "build":
    let items = benchIDs(rows).map { BenchItem(id: $0, content: 0) }
    print(measuredBuild(items).itemCount)
default:
    print("unknown case \(arguments[1])")
    exit(64)
}

import CellKit
import CellKitTesting
import Testing

private struct Member: Identifiable, Equatable, Sendable { let id: Int; var name: String }
private final class MemberCell: TextCell {}

/// `Cell` is `MemberCell`, but its cell source builds `TextCell`s.
private struct WrongCellPresenter: Presenter {
    func cellSource(for style: CellStyle) -> CellSource { .type(TextCell.self, style: style) }
    func present(_ member: Member, in cell: MemberCell, style: CellStyle, context: PresentationContext<Never>) {
        cell.text = member.name
    }
}

/// A presenter whose cell source builds another cell type than its `Cell` is reported once,
/// naming the model type, the cell type it expects, the one it got and where, as a registration
/// or a dispatch handler with the same slip is (outside report 13a, D4: one diagnostic per row
/// presented, and the expected type was not named).
@MainActor
@Suite("Presenters: a cell source that builds another cell type")
struct PresenterCellMismatchTests {
    @Test func itIsReportedOnceNamingTheTypesAndWhere() {
        let diagnostics = CollectedDiagnostics()
        let controller = ListController(diagnostics: diagnostics.handler)
        controller.addPresenter(WrongCellPresenter())
        let listView = HeadlessListView(viewportHeight: 88, rowHeight: 44)
        controller.attach(to: listView)
        controller.apply(TableModel((0..<100).map { Member(id: $0, name: "m\($0)") }))
        for row in stride(from: 0, to: 100, by: 2) { listView.scroll(to: Double(row) * 44) }
        let mismatches = diagnostics.all.filter { $0.kind == .cellTypeMismatch }
        #expect(mismatches.count == 1, "\(mismatches.count): \(mismatches.first?.message ?? "")")
        let message = mismatches.first?.message ?? ""
        #expect(message.contains("WrongCellPresenter") && message.contains("Member"), "\(message)")
        #expect(message.contains("expects cell type MemberCell"), "\(message)")
        #expect(message.contains("got a TextCell") && message.contains("section 0, row 0"), "\(message)")
    }
}

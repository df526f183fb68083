/// Reports, once per (cell type, expected type, model type, presenter type), that a typed
/// handler or a presenter got a cell of another type.
struct MismatchReporter {
    private var reported: Set<String> = []

    /// Reports that a handler (or `presenter`, whose cell came from `source`) for `model`
    /// expected a cell of type `expected` and got `cell`, at `path`.
    mutating func report(
        cell: AnyObject, expected: Any.Type, model: Any, at path: ItemPath?,
        presenter: Any.Type? = nil, source: CellSource? = nil, to diagnostics: DiagnosticHandler
    ) {
        let key = "\(type(of: cell))|\(expected)|\(type(of: model))|\(presenter.map { "\($0)" } ?? "")"
        guard reported.insert(key).inserted else { return }
        let who = presenter.map { "presenter \($0)" } ?? "handler"
        diagnostics(Diagnostic(
            .cellTypeMismatch,
            "\(who) for \(type(of: model)) expects cell type \(expected), but the row\(path.map { " at section \($0.section), row \($0.item)" } ?? "") got a \(type(of: cell))\(source.map { " from its cell source \($0)" } ?? ""); the \(presenter == nil ? "handler" : "presenter") was skipped"
        ))
    }
}

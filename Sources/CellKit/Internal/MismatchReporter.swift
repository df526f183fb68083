/// Reports, once per (cell type, expected type, model type), that a typed handler got a cell of another type.
struct MismatchReporter {
    private var reported: Set<String> = []

    mutating func report(cell: AnyObject, expected: Any.Type, model: Any, at path: ItemPath?, to diagnostics: DiagnosticHandler) {
        let key = "\(type(of: cell))|\(expected)|\(type(of: model))"
        guard reported.insert(key).inserted else { return }
        diagnostics(Diagnostic(
            .cellTypeMismatch,
            "handler for \(type(of: model)) expects cell type \(expected), but the row\(path.map { " at section \($0.section), row \($0.item)" } ?? "") got a \(type(of: cell)); the handler was skipped"
        ))
    }
}

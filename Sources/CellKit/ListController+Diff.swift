extension ListController {
    /// The staged changes from `old` to `new`, from CellKitDiff's sectioned diff.
    func stagedChanges(from old: TableModel, to new: TableModel) -> TableChangeset {
        Self.stagedChanges(from: old, to: new, reloadThreshold: reloadThreshold)
    }

    /// The staged changes from `old` to `new`; pure, so it may run on any thread.
    ///
    /// When the models have typed sections, the diff runs over their arrays,
    /// specialised for their model type where they were built: a typed section
    /// that keeps its id beside other rows (a load-more or header row) is diffed on
    /// its own and the other rows as ``ListItem``s, or, when rows could change
    /// section between them, all rows together (rows of other sections matched as
    /// ``ListItem``s); otherwise over ``ListItem`` rows. All give the same changes.
    nonisolated static func stagedChanges(from old: TableModel, to new: TableModel, reloadThreshold: Int?) -> TableChangeset {
        let options = DiffOptions(reloadThreshold: reloadThreshold)
        if let staged = _sectionwiseChanges(old, new, options) {
            return staged
        }
        if let differ = new.typedDiffer ?? old.typedDiffer, let staged = differ(old, new, options) {
            return staged
        }
        return listItemChanges(from: old, to: new, options: options)
    }

    /// The staged changes from `old` to `new` over ``ListItem`` rows.
    nonisolated static func listItemChanges(from old: TableModel, to new: TableModel, options: DiffOptions) -> TableChangeset {
        _tableChanges(old.diffSections, new.diffSections, options, new) { .items($0) }
    }
}

extension TableModel {
    /// The differ of the typed section with the most rows, if any.
    var typedDiffer: _TypedDiffer? {
        var best: _AnyTypedRows?
        for section in sections {
            if let typed = section.rows.typedRows, typed.count > best?.count ?? -1 { best = typed }
        }
        return best?.ops.diff
    }
}

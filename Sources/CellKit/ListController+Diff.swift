extension ListController {
    /// The staged changes from `old` to `new`, from CellKitDiff's sectioned diff.
    func stagedChanges(from old: TableModel, to new: TableModel) -> TableChangeset {
        Self.stagedChanges(from: old, to: new, reloadThreshold: reloadThreshold)
    }

    /// The staged changes from `old` to `new`; pure, so it may run on any thread.
    ///
    /// When every section of both models is typed with one model type (or empty),
    /// the diff runs over those arrays, specialised for their type where they were
    /// built; otherwise over ``ListItem`` rows. Both give the same changes.
    nonisolated static func stagedChanges(from old: TableModel, to new: TableModel, reloadThreshold: Int?) -> TableChangeset {
        let options = DiffOptions(reloadThreshold: reloadThreshold)
        if let differ = old.typedDiffer ?? new.typedDiffer, let staged = differ(old, new, options) {
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
    /// The differ of the first typed section, if any.
    var typedDiffer: _TypedDiffer? {
        for section in sections {
            if let typed = section.rows.typedRows { return typed.differ }
        }
        return nil
    }
}

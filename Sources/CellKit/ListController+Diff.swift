extension ListController {
    /// The staged changes from `old` to `new`, from CellKitDiff's sectioned diff.
    func stagedChanges(from old: TableModel, to new: TableModel) -> StagedChangeset<[DiffSection<SectionID, SectionHeader, ListItem>]> {
        Self.stagedChanges(from: old, to: new, reloadThreshold: reloadThreshold)
    }

    /// The staged changes from `old` to `new`; pure, so it may run on any thread.
    nonisolated static func stagedChanges(
        from old: TableModel, to new: TableModel, reloadThreshold: Int?
    ) -> StagedChangeset<[DiffSection<SectionID, SectionHeader, ListItem>]> {
        StagedChangeset(from: old.diffSections, to: new.diffSections, options: DiffOptions(reloadThreshold: reloadThreshold))
    }
}

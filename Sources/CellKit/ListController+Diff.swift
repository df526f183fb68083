extension ListController {
    /// The staged changes from `old` to `new`. TEMPORARY: reload until CellKitDiff lands.
    func stagedChanges(from old: TableModel, to new: TableModel) -> StagedChangeset<[DiffSection<SectionID, SectionHeader, ListItem>]> {
        StagedChangeset(stages: [], duplicates: [], isReload: true, finalData: new.diffSections)
    }
}

    /// Checks one stage against UIKit's batch rules before any list view sees it.
    func validate(_ changeset: Changeset, from before: TableModel, to after: TableModel) throws(_BatchUpdateThrown) {
        try changeset.validate(oldCounts: before.sections.map(\.items.count), newCounts: after.sections.map(\.items.count))
    }

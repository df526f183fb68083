extension ListController {
    /// After every apply: announces a change of category to the list view (see
    /// ``ListAnnouncement``) and updates ``listState``.
    func didShow() {
        let state = listState
        let before = ListAnnouncement.Shown(state: state.state, isEmpty: state.isEmpty)
        let now = ListAnnouncement.Shown(state: self.state, isEmpty: model.isEmpty)
        let announcement = ListAnnouncement.between(before, now, placeholders: placeholders)
        state.update(state: self.state, activity: activity, hasMore: hasMore, itemCount: model.itemCount, announcement: announcement)
        if let announcement { listView?.announce(announcement) }
    }
}

/// What the controller tells a resource loader about rows coming and going.
@MainActor
protocol _ResourceLoading: AnyObject {
    func willDisplay(_ item: ListItem)
    func didEndDisplaying(cell: AnyObject, at path: ItemPath)
    func prefetch(_ items: [ListItem])
    func cancelPrefetch(_ items: [ListItem])
}

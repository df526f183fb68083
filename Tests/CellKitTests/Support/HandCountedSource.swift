import CellKit

/// A data source whose row counts a test sets by hand: inside a batch's update closure, or
/// outside one to feed the list view data it was not told of. Every row is a `TextCell`.
@MainActor
final class HandCountedSource: ListViewDataSource {
    /// The rows of each section; the number of sections is its count.
    var counts: [Int]
    init(_ counts: [Int]) { self.counts = counts }
    func numberOfSections(in listView: any ListView) -> Int { counts.count }
    func listView(_ listView: any ListView, numberOfItemsInSection section: Int) -> Int { counts[section] }
    func listView(_ listView: any ListView, cellForItemAt path: ItemPath) -> AnyObject {
        listView.dequeueReusableCell(.type(TextCell.self), for: path)
    }
}

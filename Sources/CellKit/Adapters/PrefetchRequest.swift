/// Cleans the paths a list view asks to prefetch before they reach the data source.
///
/// UIKit may announce paths that no longer exist (a batch update landed between
/// its layout pass and the prefetch call), repeat a path, or list them out of
/// order; resource loaders should see each existing row once, in order.
///
/// ```swift
/// let paths = [ItemPath(item: 9, section: 0), ItemPath(item: 2, section: 0), ItemPath(item: 2, section: 0)]
/// assert(PrefetchRequest.valid(paths, counts: [5]) == [ItemPath(item: 2, section: 0)])
/// ```
public enum PrefetchRequest {
    /// The paths of `paths` that exist in a list with `counts` rows per section,
    /// without duplicates, ascending.
    ///
    /// - Complexity: O(*n* log *n*), *n* the number of paths.
    public static func valid(_ paths: [ItemPath], counts: [Int]) -> [ItemPath] {
        var seen = Set<ItemPath>()
        return paths
            .filter { counts.indices.contains($0.section) && $0.item >= 0 && $0.item < counts[$0.section] && seen.insert($0).inserted }
            .sorted()
    }
}

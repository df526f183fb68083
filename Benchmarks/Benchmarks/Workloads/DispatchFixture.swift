// The dispatch benchmarks' fixture (DispatchBenchmarks and cellkit-probe).
import CellKit

public struct Tweet: Identifiable, Equatable, Sendable { public let id: Int; public var text: String }
public struct User: Identifiable, Equatable, Sendable { public let id: Int; public var name: String }
public struct Hashtag: Identifiable, Equatable, Sendable { public let id: Int; public var tag: String }
public struct Place: Identifiable, Equatable, Sendable { public let id: Int; public var city: String }

/// 100k rows cycling through the four model types, one reusable cell.
@MainActor
public final class DispatchFixture {
    public let models: [any Sendable]
    public let cell = TextCell()
    public let table = DispatchTable(diagnostics: .ignore)
    public let registry = CellRegistry(diagnostics: .ignore)

    public init(count: Int) {
        models = (0..<count).map { i -> any Sendable in
            switch i % 4 {
            case 0: Tweet(id: i, text: "tweet")
            case 1: User(id: i, name: "user")
            case 2: Hashtag(id: i, tag: "tag")
            default: Place(id: i, city: "city")
            }
        }
        table.configure(Tweet.self) { (cell: TextCell, t) in cell.text = t.text }
        table.configure(User.self) { (cell: TextCell, u) in cell.text = u.name }
        table.configure(Hashtag.self) { (cell: TextCell, h) in cell.text = h.tag }
        table.configure(Place.self) { (cell: TextCell, p) in cell.text = p.city }
        registry.register(TextCell.self, for: Tweet.self) { cell, t in cell.text = t.text }
        registry.register(TextCell.self, for: User.self) { cell, u in cell.text = u.name }
        registry.register(TextCell.self, for: Hashtag.self) { cell, h in cell.text = h.tag }
        registry.register(TextCell.self, for: Place.self) { cell, p in cell.text = p.city }
    }

    /// Instant Cocoa's per-type configure, through the dispatch table.
    public func dispatchTable() -> Int {
        for (i, model) in models.enumerated() {
            table.configure(cell, with: model, at: ItemPath(item: i, section: 0))
        }
        return cell.text.count
    }

    /// The registry's binding (cell source + typed configure), as the controller resolves every row.
    public func registryPath() -> Int {
        for model in models {
            let binding = registry.binding(for: model)
            registry.configure(cell, with: model, binding: binding)
        }
        return cell.text.count
    }

    /// The peer: what a cellForRow full of casts does by hand.
    public func handWritten() -> Int {
        for model in models {
            if let t = model as? Tweet { cell.text = t.text }
            else if let u = model as? User { cell.text = u.name }
            else if let h = model as? Hashtag { cell.text = h.tag }
            else if let p = model as? Place { cell.text = p.city }
        }
        return cell.text.count
    }
}


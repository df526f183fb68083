/// How a model type was matched by a type table (``DispatchTable``, ``CellRegistry``).
public enum TypeMatch: Hashable, Sendable, CustomStringConvertible {
    /// A registration for the model's exact type.
    case exact
    /// A registration for a superclass, `distance` steps up the class chain.
    case superclass(distance: Int)
    /// A registration for a protocol (or other non-class supertype) the model conforms to.
    case conformance
    /// The catch-all registration for any object.
    case catchAll

    public var description: String {
        switch self {
        case .exact: "exact type"
        case .superclass(let d): "superclass (\(d) up)"
        case .conformance: "protocol conformance"
        case .catchAll: "catch-all"
        }
    }
}

/// A table from model types to values, with the fallback order of Instant Cocoa's
/// dispatch: exact type → nearest registered superclass → a registered protocol
/// the model conforms to (first registered wins) → catch-all.
///
/// Resolution happens once per concrete type and is cached; any registration
/// clears the cache.
struct TypeTable<Value> {
    struct Rule {
        let name: String
        let order: Int
        let matches: (Any) -> Bool
        let isClass: Bool
        var value: Value
    }

    private(set) var rules: [ObjectIdentifier: Rule] = [:]
    private var nextOrder = 0
    var catchAll: Value? { didSet { clearCaches() } }
    private var cache: [ObjectIdentifier: (Value, TypeMatch)?] = [:]
    /// The last few types resolved: a list has few model types, and a short
    /// linear scan of pointers beats hashing on every row.
    private var recent = RecentTypes<(Value, TypeMatch)?>()

    var isEmpty: Bool { rules.isEmpty && catchAll == nil }

    /// Registers `value` for `type`, replacing an earlier registration for the same type.
    /// Returns whether a registration was replaced.
    @discardableResult
    mutating func set<T>(_ value: Value, for type: T.Type) -> Bool {
        let key = ObjectIdentifier(type)
        let replaced = rules[key] != nil
        let order = rules[key]?.order ?? nextOrder
        nextOrder += 1
        rules[key] = Rule(
            name: String(describing: type),
            order: order,
            matches: { $0 is T },
            isClass: (type as Any.Type) is AnyObject.Type,
            value: value
        )
        clearCaches()
        return replaced
    }

    /// Removes the registration for `type`.
    mutating func remove<T>(_ type: T.Type) {
        rules[ObjectIdentifier(type)] = nil
        clearCaches()
    }

    private mutating func clearCaches() {
        cache.removeAll(keepingCapacity: true)
        recent.removeAll()
    }

    /// The value for `model`'s dynamic type, and how it matched; `nil` if nothing matches.
    mutating func resolve(_ model: Any) -> (value: Value, match: TypeMatch)? {
        let dynamicType: Any.Type = Swift.type(of: model)
        let key = ObjectIdentifier(dynamicType)
        if let hit = recent.value(for: key) { return hit }
        if let cached = cache[key] {
            recent.insert(cached, for: key)
            return cached
        }
        let resolved = lookUp(model, dynamicType: dynamicType)
        cache[key] = .some(resolved)
        recent.insert(resolved, for: key)
        return resolved
    }

    /// The value registered for exactly `type`, if any (no fallback).
    func exact<T>(_ type: T.Type) -> Value? { rules[ObjectIdentifier(type)]?.value }

    private func lookUp(_ model: Any, dynamicType: Any.Type) -> (Value, TypeMatch)? {
        if let rule = rules[ObjectIdentifier(dynamicType)] { return (rule.value, .exact) }
        if let cls = dynamicType as? AnyClass {
            var distance = 1
            var next: AnyClass? = _getSuperclass(cls)
            while let c = next {
                if let rule = rules[ObjectIdentifier(c)] { return (rule.value, .superclass(distance: distance)) }
                next = _getSuperclass(c)
                distance += 1
            }
        }
        let conforming = rules.values
            .filter { !$0.isClass && $0.matches(model) }
            .min { $0.order < $1.order }
        if let rule = conforming { return (rule.value, .conformance) }
        if let any = catchAll { return (any, .catchAll) }
        return nil
    }
}

/// A tiny cache of the last few types seen, scanned linearly.
struct RecentTypes<Value> {
    private static var capacity: Int { 8 }
    private var keys: [ObjectIdentifier] = []
    private var values: [Value] = []
    private var next = 0

    /// The value stored for `key`, if it is among the recent ones.
    func value(for key: ObjectIdentifier) -> Value? {
        for i in keys.indices where keys[i] == key { return values[i] }
        return nil
    }

    /// Remembers `value` for `key`, evicting the oldest entry when full.
    mutating func insert(_ value: Value, for key: ObjectIdentifier) {
        if keys.count < Self.capacity {
            keys.append(key)
            values.append(value)
        } else {
            keys[next] = key
            values[next] = value
            next = (next + 1) % Self.capacity
        }
    }

    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        next = 0
    }
}

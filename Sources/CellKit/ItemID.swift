/// The identity of a row: the model's type plus the model's own identifier.
///
/// Two models of different types never share an `ItemID`, even when their raw
/// identifiers are equal (a `User` 7 and a `Tweet` 7 are different rows).
///
/// ```swift
/// struct User: Identifiable, Sendable { let id: Int }
/// let a = ItemID(User(id: 7))
/// assert(a == ItemID(type: User.self, id: 7))
/// ```
public struct ItemID: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let modelType: any Any.Type
    @usableFromInline let raw: RawID
    /// The hash of type and identifier, computed once: the diff hashes every
    /// row and compares matched ones, and both start here.
    @usableFromInline let hash: Int

    /// Creates the identity of a row showing a model of `type` with identifier `id`.
    public init<Model, ID: Hashable & Sendable>(type: Model.Type, id: ID) {
        self.init(type: type, raw: RawID(id))
    }

    /// The identity of a row of `Model` whose identifier was already erased.
    init<Model>(type: Model.Type, erasedID: any Hashable & Sendable) {
        self.init(type: type, raw: RawID(erased: erasedID))
    }

    private init<Model>(type: Model.Type, raw: RawID) {
        self.modelType = type
        self.raw = raw
        var hasher = Hasher()
        hasher.combine(ObjectIdentifier(type))
        hasher.combine(raw)
        self.hash = hasher.finalize()
    }

    /// The identity of an `Identifiable` model.
    public init<Model: Identifiable>(_ model: Model) where Model.ID: Sendable {
        self.init(type: Model.self, id: model.id)
    }

    /// The raw identifier, as the model gave it.
    public var rawValue: any Hashable & Sendable { raw.value }

    public static func == (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.hash == rhs.hash && lhs.modelType == rhs.modelType && lhs.raw == rhs.raw
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    public var description: String { "\(modelType)(\(raw.value))" }
}

/// A raw identifier, stored inline for the common `Int` and `String` ids (no
/// existential box, no dynamic cast to compare), boxed otherwise.
@usableFromInline
enum RawID: Hashable, Sendable {
    case int(Int)
    case string(String)
    case other(OtherID)

    init<ID: Hashable & Sendable>(_ id: ID) {
        if ID.self == Int.self {
            self = .int(id as! Int)
        } else if ID.self == String.self {
            self = .string(id as! String)
        } else {
            self = .other(OtherID(id))
        }
    }

    init(erased id: any Hashable & Sendable) {
        if let int = id as? Int {
            self = .int(int)
        } else if let string = id as? String {
            self = .string(string)
        } else {
            self = .other(OtherID(id))
        }
    }

    var value: any Hashable & Sendable {
        switch self {
        case .int(let int): int
        case .string(let string): string
        case .other(let other): other.value
        }
    }
}

/// An identifier of any other type, boxed so that ``RawID`` stays two words.
@usableFromInline
final class OtherID: Hashable, Sendable {
    let value: any Hashable & Sendable

    init(_ value: any Hashable & Sendable) { self.value = value }

    @usableFromInline
    static func == (lhs: OtherID, rhs: OtherID) -> Bool { _isEqual(lhs.value, rhs.value) }

    @usableFromInline
    func hash(into hasher: inout Hasher) { value.hash(into: &hasher) }
}

@usableFromInline
func _isEqual<A: Hashable>(_ a: A, _ b: any Hashable) -> Bool {
    guard let b = b as? A else { return false }
    return a == b
}

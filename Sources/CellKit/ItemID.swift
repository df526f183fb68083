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
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let raw: any Hashable & Sendable
    @usableFromInline let typeName: @Sendable () -> String

    /// Creates the identity of a row showing a model of `type` with identifier `id`.
    public init<Model, ID: Hashable & Sendable>(type: Model.Type, id: ID) {
        self.type = ObjectIdentifier(type)
        self.raw = id
        self.typeName = { String(describing: Model.self) }
    }

    /// The identity of a row of `Model` whose identifier was already erased.
    init<Model>(type: Model.Type, erasedID: any Hashable & Sendable) {
        self.type = ObjectIdentifier(type)
        self.raw = erasedID
        self.typeName = { String(describing: Model.self) }
    }

    /// The identity of an `Identifiable` model.
    public init<Model: Identifiable>(_ model: Model) where Model.ID: Sendable {
        self.init(type: Model.self, id: model.id)
    }

    /// The raw identifier, as the model gave it.
    public var rawValue: any Hashable & Sendable { raw }

    public static func == (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.type == rhs.type && _isEqual(lhs.raw, rhs.raw)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        raw.hash(into: &hasher)
    }

    public var description: String { "\(typeName())(\(raw))" }
}

@usableFromInline
func _isEqual<A: Hashable>(_ a: A, _ b: any Hashable) -> Bool {
    guard let b = b as? A else { return false }
    return a == b
}

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
    @usableFromInline let raw: any Hashable & Sendable
    /// The hash of type and identifier, computed once: the diff hashes every
    /// row and compares matched ones, and both start here.
    @usableFromInline let hash: Int

    /// Creates the identity of a row showing a model of `type` with identifier `id`.
    public init<Model, ID: Hashable & Sendable>(type: Model.Type, id: ID) {
        self.modelType = type
        self.raw = id
        var hasher = Hasher()
        hasher.combine(ObjectIdentifier(type))
        hasher.combine(id)
        self.hash = hasher.finalize()
    }

    /// The identity of a row of `Model` whose identifier was already erased.
    init<Model>(type: Model.Type, erasedID: any Hashable & Sendable) {
        self.modelType = type
        self.raw = erasedID
        var hasher = Hasher()
        hasher.combine(ObjectIdentifier(type))
        erasedID.hash(into: &hasher)
        self.hash = hasher.finalize()
    }

    /// The identity of an `Identifiable` model.
    public init<Model: Identifiable>(_ model: Model) where Model.ID: Sendable {
        self.init(type: Model.self, id: model.id)
    }

    /// The raw identifier, as the model gave it.
    public var rawValue: any Hashable & Sendable { raw }

    public static func == (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.hash == rhs.hash && lhs.modelType == rhs.modelType && _isEqual(lhs.raw, rhs.raw)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    public var description: String { "\(modelType)(\(raw))" }
}

@usableFromInline
func _isEqual<A: Hashable>(_ a: A, _ b: any Hashable) -> Bool {
    guard let b = b as? A else { return false }
    return a == b
}

/// The identity of a row: the model's type plus the model's own identifier.
///
/// This is the one definition of "which row is this?" in CellKit. The diff matches
/// rows by it, ``ListController/provideResource(_:key:value:)`` finds the visible
/// rows of an object by it, `TableModel.indexPath(of:)` looks rows up by
/// it, and ``ResourceLoader`` caches and delivers by it. It is built the same way
/// wherever the model comes from, so the same object, or an equal fresh copy,
/// always finds its row:
///
/// - **The identifier** is the model's `id` when it is `Identifiable` (also when it
///   is `Hashable` too), the model itself when it is only `Hashable`, or the id you
///   pass to ``ListItem/init(_:id:)``.
/// - **An `Optional` identifier counts as its value**: a model with `let id: Int?`
///   holding `7` has the same identity as `ItemID(type: Model.self, id: 7)`. Every
///   `nil` id of one model type is the same identity, so two unsaved records with
///   `nil` ids are duplicates (the first one shows; see the duplicate policy):
///   give them an explicit id (``ListItem/init(_:id:)``) until they have one.
/// - **The type** is the model's own runtime type: for a class instance, its
///   class, however the array or variable that carried it was typed. A `Dog` in an
///   `[Animal]` array has the identity of a `Dog`, and a `Dog` and a `Cat` with
///   equal ids are two rows. (A row whose object is replaced by an instance of
///   another class with the same id is therefore a delete and an insert, not an
///   update.)
///
/// Two models of different types never share an `ItemID`, even when their raw
/// identifiers are equal (a `User` 7 and a `Tweet` 7 are different rows).
///
/// ```swift
/// struct User: Identifiable, Sendable { let id: Int }
/// let a = ItemID(User(id: 7))
/// assert(a == ItemID(type: User.self, id: 7))
///
/// struct Draft: Identifiable, Sendable { let id: Int? }
/// assert(ItemID(Draft(id: 7)) == ItemID(type: Draft.self, id: 7))
///
/// class Animal: Identifiable, @unchecked Sendable { let id: Int; init(id: Int) { self.id = id } }
/// final class Dog: Animal, @unchecked Sendable {}
/// let pets: [Animal] = [Dog(id: 1)]
/// assert(ItemID(pets[0]) == ItemID(Dog(id: 1)))
///
/// struct Tag: Hashable, Sendable { let name: String }
/// assert(ItemID(Tag(name: "swift")) == ItemID(type: Tag.self, id: Tag(name: "swift")))
/// ```
public struct ItemID: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let modelType: any Any.Type
    @usableFromInline let raw: RawID
    /// The hash of type and identifier, computed once: the diff hashes every
    /// row and compares matched ones, and both start here.
    @usableFromInline let hash: Int

    /// Creates the identity of a row showing a model of `type` with identifier `id`.
    ///
    /// `type` is taken as given: for a row of a subclass instance, pass the
    /// subclass (or make the identity from the object: `ItemID(object)`).
    public init<Model, ID: Hashable & Sendable>(type: Model.Type, id: ID) {
        self.init(type: type, raw: RawID(id))
    }

    /// The identity of a row showing `model` with identifier `id`: the type is
    /// `model`'s runtime type. Every initialiser that starts from a model ends here.
    init<Model, ID: Hashable>(model: Model, id: ID) {
        self.init(type: type(of: model), raw: RawID(unchecked: id))
    }

    /// An identity from its stored parts (a row keeps them apart).
    @inlinable
    init(modelType: any Any.Type, raw: RawID, hash: Int) {
        self.modelType = modelType
        self.raw = raw
        self.hash = hash
    }

    private init(type: any Any.Type, raw: RawID) {
        self.modelType = type
        self.raw = raw
        if case .int(let int) = raw {
            // The common integer id: two multiply–xorshift rounds over the type and the
            // id, seeded per process, instead of a SipHash pass (a row is made per model
            // on every snapshot). Every bit of both words reaches the low bits (the
            // diff's slot) and the high bits (its tag).
            let typeBits = UInt64(UInt(bitPattern: ObjectIdentifier(type)))
            var z = (typeBits &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(UInt(bitPattern: int)) ^ _itemIDHashSeed
            z = (z ^ (z &>> 32)) &* 0xD6E8_FEB8_6659_FD93
            z = (z ^ (z &>> 32)) &* 0xD6E8_FEB8_6659_FD93
            self.hash = Int(truncatingIfNeeded: z ^ (z &>> 32))
        } else {
            var hasher = Hasher()
            hasher.combine(ObjectIdentifier(type))
            hasher.combine(raw)
            self.hash = hasher.finalize()
        }
    }

    /// The identity of an `Identifiable` model: its type and its `id`.
    public init<Model: Identifiable>(_ model: Model) where Model.ID: Sendable {
        self.init(model: model, id: model.id)
    }

    /// The identity of a `Hashable` model that is its own identity: its type and its value.
    public init<Model: Hashable & Sendable>(_ model: Model) {
        self.init(model: model, id: model)
    }

    /// The identity of a model that is both `Identifiable` and `Hashable`: its type and its `id`.
    public init<Model: Identifiable & Hashable & Sendable>(_ model: Model) where Model.ID: Sendable {
        self.init(model: model, id: model.id)
    }

    /// The identity `object` has as a row when the row was made from the model
    /// alone (`Identifiable`: its `id`; else `Hashable`: its value); `nil` for
    /// other models, whose rows carry an explicit id.
    init?(anyModel object: Any) {
        if let identifiable = object as? any Identifiable {
            self.init(identifiable: identifiable)
        } else if let hashable = object as? any Hashable {
            self.init(hashable: hashable)
        } else {
            return nil
        }
    }

    private init<Model: Identifiable>(identifiable model: Model) {
        self.init(model: model, id: model.id)
    }

    private init<Model: Hashable>(hashable model: Model) {
        self.init(model: model, id: model)
    }

    /// The raw identifier, as the model gave it (an `Optional` id that holds a
    /// value gives the value).
    public var rawValue: any Hashable & Sendable { raw.value }

    /// The stored hashes first: unequal identities almost always differ there.
    @inlinable
    public static func == (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.hash == rhs.hash && lhs.modelType == rhs.modelType && lhs.raw == rhs.raw
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    /// `hashValue` is the hash stored at creation (well mixed and seeded per
    /// process): the diff asks every row's `hashValue`,
    /// and hashing the stored hash again would cost a SipHash pass per row.
    /// Seeded hashing (`Set`, `Dictionary`) still mixes its seed in.
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        if seed == 0 { return hash }
        var hasher = Hasher()
        hasher.combine(seed)
        hasher.combine(hash)
        return hasher.finalize()
    }

    public var description: String { "\(modelType)(\(raw.value))" }
}

/// The per-process seed of the integer ids' hash (``ItemID``), from `Hasher`'s
/// own random seed, so that slots in a hash table cannot be predicted across runs.
private let _itemIDHashSeed: UInt64 = {
    var hasher = Hasher()
    hasher.combine(0x1D)
    return UInt64(UInt(bitPattern: hasher.finalize()))
}()

/// A raw identifier, stored inline for the common `Int` and `String` ids (no
/// existential box, no dynamic cast to compare), boxed otherwise. An `Optional`
/// identifier is stored as its value, so `Int?.some(7)` and `7` are one id.
@usableFromInline
enum RawID: Hashable, Sendable {
    case int(Int)
    case string(String)
    case other(OtherID)

    init<ID: Hashable & Sendable>(_ id: ID) {
        self.init(unchecked: id)
    }

    /// `id` must be `Sendable`. Models reach CellKit as `Sendable` values, so their
    /// stored identifiers are too, even where a generic signature cannot say so.
    init<ID: Hashable>(unchecked id: ID) {
        if ID.self == Int.self {
            self = .int(unsafeBitCast(id, to: Int.self))
        } else if ID.self == String.self {
            self = .string(unsafeBitCast(id, to: String.self))
        } else if let optional = id as? any OptionalIdentifier {
            self = optional.rawID
        } else {
            self = .other(OtherID(unsafeBitCast(id as any Hashable, to: (any Hashable & Sendable).self)))
        }
    }

    /// Same case, equal payload; the common `Int` ids compare inline.
    @inlinable
    static func == (lhs: RawID, rhs: RawID) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.other(let a), .other(let b)): a == b
        default: false
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

/// An `Optional` identifier, which ``RawID`` stores as its wrapped value.
protocol OptionalIdentifier {
    var rawID: RawID { get }
}

extension Optional: OptionalIdentifier where Wrapped: Hashable {
    var rawID: RawID {
        switch self {
        case .some(let wrapped): RawID(unchecked: wrapped)
        // One `nil` per wrapped type; the model type in the ItemID tells the rest.
        case .none: .other(OtherID(unsafeBitCast(self as any Hashable, to: (any Hashable & Sendable).self)))
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

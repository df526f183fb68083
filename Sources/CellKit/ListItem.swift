/// One row of a snapshot: a model, its identity, and its content as captured when it entered the snapshot.
///
/// Identity comes from `Identifiable` (or the value itself, for `Hashable`
/// models, or an explicit id), together with the model's runtime type: see
/// ``ItemID`` for the full definition. Content equality comes from
/// ``ContentFingerprinting`` if the model adopts it, else from `==` for
/// `Equatable` models, else from object identity for classes; other models
/// count as unchanged while their identity stays.
///
/// ```swift
/// struct Tweet: Identifiable, Equatable, Sendable { let id: Int; var text: String }
/// let a = ListItem(Tweet(id: 1, text: "hi"))
/// let b = ListItem(Tweet(id: 1, text: "hello"))
/// assert(a.id == b.id && !a.isContentEqual(to: b))
/// ```
public struct ListItem: Sendable, Differentiable, CustomStringConvertible {
    /// What the row's content is compared by; at most one word besides the tag,
    /// so a row stays small. `@unchecked`: the `equatable` payload is the metatype
    /// of a stateless enum (older SDKs have no `SendableMetatype` to say so).
    @usableFromInline
    enum Content: @unchecked Sendable {
        /// A fingerprint captured at creation (boxed: rare, and keeps the enum small).
        case fingerprint(FingerprintBox)
        /// `==` of the model type, through a witness that needs no conformance lookup.
        case equatable(any ContentEquality.Type)
        /// Object identity, for classes that are neither.
        case object(ObjectIdentifier)
        /// Unchanged while the identity stays.
        case none
    }

    /// The row's identity.
    public let id: ItemID
    /// The model shown.
    public let model: any Sendable
    @usableFromInline let content: Content

    /// A row for a model with an explicit identifier.
    public init<Model: Sendable, ID: Hashable & Sendable>(_ model: Model, id: ID) {
        self.id = ItemID(model: model, id: id)
        self.model = model
        self.content = Self.captureContent(model)
    }

    /// A row for an `Identifiable` model.
    public init<Model: Identifiable & Sendable>(_ model: Model) where Model.ID: Sendable {
        self.init(model, id: model.id)
    }

    /// A row for a `Hashable` model that is its own identity.
    public init<Model: Hashable & Sendable>(_ model: Model) {
        self.init(model, id: model)
    }

    /// A row for a model that is both `Identifiable` and `Hashable`: the `id` is the identity.
    public init<Model: Identifiable & Hashable & Sendable>(_ model: Model) where Model.ID: Sendable {
        self.init(model, id: model.id)
    }

    /// The model, if it is a `Model`.
    public func model<Model>(as type: Model.Type) -> Model? { model as? Model }

    public var differenceIdentifier: ItemID { id }

    public func isContentEqual(to other: ListItem) -> Bool {
        switch (content, other.content) {
        case (.fingerprint(let a), .fingerprint(let b)): return _isEqual(a.value, b.value)
        case (.equatable(let witness), .equatable): return witness.equal(model, other.model)
        case (.object(let a), .object(let b)): return a == b
        case (.none, .none): return true
        default: return false
        }
    }

    public var description: String { "\(model)" }

    static func captureContent<Model>(_ model: Model) -> Content {
        if let fingerprinting = model as? any ContentFingerprinting {
            return .fingerprint(FingerprintBox(value: _fingerprint(fingerprinting)))
        }
        if let equatable = Model.self as? any Equatable.Type { return .equatable(_witness(equatable)) }
        if Model.self is AnyObject.Type { return .object(ObjectIdentifier(model as AnyObject)) }
        return .none
    }
}

private func _fingerprint<F: ContentFingerprinting>(_ value: F) -> any Hashable & Sendable {
    value.contentFingerprint
}

/// A content fingerprint, boxed so that ``ListItem`` stays small.
@usableFromInline
final class FingerprintBox: Sendable {
    let value: any Hashable & Sendable
    init(value: any Hashable & Sendable) { self.value = value }
}

/// Compares two models of one `Equatable` type with `==`.
@usableFromInline
protocol ContentEquality {
    static func equal(_ a: any Sendable, _ b: any Sendable) -> Bool
}

/// The ``ContentEquality`` witness of `Model`: a metatype, one word, no allocation.
enum EquatableWitness<Model: Equatable>: ContentEquality {
    static func equal(_ a: any Sendable, _ b: any Sendable) -> Bool {
        if let equal = exactlyEqual(a, b) { return equal }
        return castEqual(a, b)
    }

    /// `==` after dynamic casts (subclass instances). Kept out of ``equal(_:_:)``:
    /// the casts' `Optional<Model>` results need metadata that unspecialised code
    /// would otherwise look up on every call, cast or not.
    @inline(never)
    private static func castEqual(_ a: any Sendable, _ b: any Sendable) -> Bool {
        guard let a = a as? Model, let b = b as? Model else { return false }
        return a == b
    }

    /// `a == b` when both values are exactly `Model`, else `nil`: opening the
    /// existentials and comparing metadata is cheaper than a dynamic cast
    /// (subclasses take the cast), and no `Optional<Model>` is formed, whose
    /// metadata this unspecialised code would look up on every call.
    private static func exactlyEqual<A, B>(_ a: A, _ b: B) -> Bool? {
        guard A.self == Model.self, B.self == Model.self else { return nil }
        return unsafeBitCast(a, to: Model.self) == unsafeBitCast(b, to: Model.self)
    }
}

private func _witness<Model: Equatable>(_ type: Model.Type) -> any ContentEquality.Type {
    EquatableWitness<Model>.self
}

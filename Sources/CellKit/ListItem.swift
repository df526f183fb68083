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
    /// The hash of the identity, kept beside the reference: the diff hashes
    /// every row and compares matched ones, and both start here.
    @usableFromInline let hash: Int
    /// The rest of the identity, the model and its captured content (see ``RowStorage``).
    @usableFromInline let storage: RowStorage

    /// The row's identity.
    @inlinable
    public var id: ItemID { ItemID(modelType: storage.modelType, raw: storage.raw, hash: hash) }

    /// The model shown.
    public var model: any Sendable { storage.model }

    /// A row for a model with an explicit identifier.
    public init<Model: Sendable, ID: Hashable & Sendable>(_ model: Model, id: ID) {
        let identity = ItemID(model: model, id: id)
        self.hash = identity.hash
        self.storage = RowStorage.make(model, identity: identity)
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
    public func model<Model>(as type: Model.Type) -> Model? { storage.model as? Model }

    @inlinable
    public var differenceIdentifier: ItemID { id }

    /// Whether the row shows the same content as `other` (see ``ListItem``).
    ///
    /// Two copies of one row (one model captured once, as when a snapshot is
    /// edited rather than rebuilt) are equal without a comparison: `==` is
    /// reflexive, and a fingerprint is one captured value.
    @inlinable
    public func isContentEqual(to other: ListItem) -> Bool {
        storage === other.storage || storage.isContentEqual(to: other.storage)
    }

    public var description: String { storage.description }
}

/// A row's model and the content it was captured with, one final subclass per
/// way of comparing content (fingerprint, `==`, object identity, none), each
/// holding the model unboxed, as its own type.
///
/// Keeping these behind one reference makes ``ListItem`` a loadable value with
/// no existential inside: the diff copies, passes and destroys rows with a
/// retain and a release rather than value-witness calls, and a content
/// comparison is one virtual call that compares the two stored models with the
/// model type's `==`, with no existential to open and no dynamic cast.
///
/// `@unchecked Sendable`: immutable, and every subclass stores the `Sendable`
/// model a ``ListItem`` initialiser was given (and a value derived from it).
@usableFromInline
class RowStorage: @unchecked Sendable {
    /// The row identity's type (``ItemID``).
    @usableFromInline let modelType: any Any.Type
    /// The row identity's raw identifier (``ItemID``).
    @usableFromInline let raw: RawID

    init(identity: ItemID) {
        self.modelType = identity.modelType
        self.raw = identity.raw
    }

    /// The model, as an existential.
    var model: any Sendable { preconditionFailure("abstract") }

    /// Whether the content captured in `self` equals the content captured in
    /// `other`, the storage of a row with the same identity.
    @usableFromInline
    func isContentEqual(to other: RowStorage) -> Bool { preconditionFailure("abstract") }

    /// The model's description.
    var description: String { preconditionFailure("abstract") }

    /// The captured fingerprint, if the content is compared by one.
    var fingerprint: (any Hashable & Sendable)? { nil }
    /// Whether the content is compared with `==`.
    var isEquatableContent: Bool { false }
    /// The object, if the content is compared by object identity.
    var objectIdentity: ObjectIdentifier? { nil }
    /// Whether there is no content to compare.
    var isPlain: Bool { false }

    /// The storage of `model`, by what its content is compared with: its
    /// fingerprint (``ContentFingerprinting``), else `==` (`Equatable`), else
    /// object identity (classes), else nothing (equal while the identity stays).
    static func make<Model: Sendable>(_ model: Model, identity: ItemID) -> RowStorage {
        if let fingerprinting = model as? any ContentFingerprinting {
            return FingerprintRowStorage(model, fingerprint: _fingerprint(fingerprinting), identity: identity)
        }
        if let equatable = Model.self as? any Equatable.Type { return _equatableStorage(model, equatable, identity) }
        if Model.self is AnyObject.Type {
            return ObjectRowStorage(model, object: ObjectIdentifier(model as AnyObject), identity: identity)
        }
        return PlainRowStorage(model, identity: identity)
    }
}

private func _fingerprint<F: ContentFingerprinting>(_ value: F) -> any Hashable & Sendable {
    value.contentFingerprint
}

/// `model` (a `Model`, which is `E`) in an ``EquatableRowStorage``.
private func _equatableStorage<Model, E: Equatable>(_ model: Model, _ type: E.Type, _ identity: ItemID) -> RowStorage {
    EquatableRowStorage<E>(unsafeBitCast(model, to: E.self), identity: identity)
}

/// `value` as `any Sendable`: the initialisers take only `Sendable` models, and
/// `Sendable` adds nothing to an existential's layout.
private func _sendable<Model>(_ value: Model) -> any Sendable {
    unsafeBitCast(value as Any, to: (any Sendable).self)
}

/// Content compared with the model type's `==`.
final class EquatableRowStorage<Model: Equatable>: RowStorage, @unchecked Sendable {
    let value: Model

    init(_ value: Model, identity: ItemID) {
        self.value = value
        super.init(identity: identity)
    }

    override var model: any Sendable { _sendable(value) }

    override func isContentEqual(to other: RowStorage) -> Bool {
        // One model type on both sides, the usual case: `==` of the stored values.
        if type(of: other) == Self.self {
            return value == unsafeDowncast(other, to: Self.self).value
        }
        return castEqual(other)
    }

    /// The rows of one identity captured under different static types (a `Dog`
    /// passed as an `Animal` for one row and as a `Dog` for the other): `==` of
    /// this row's model type, after a cast.
    @inline(never)
    private func castEqual(_ other: RowStorage) -> Bool {
        guard other.isEquatableContent, let otherValue = other.model as? Model else { return false }
        return value == otherValue
    }

    override var isEquatableContent: Bool { true }
    override var description: String { "\(value)" }
}

/// Content compared by a fingerprint captured at creation.
final class FingerprintRowStorage<Model>: RowStorage, @unchecked Sendable {
    let value: Model
    let captured: any Hashable & Sendable

    init(_ value: Model, fingerprint: any Hashable & Sendable, identity: ItemID) {
        self.value = value
        self.captured = fingerprint
        super.init(identity: identity)
    }

    override var model: any Sendable { _sendable(value) }

    override func isContentEqual(to other: RowStorage) -> Bool {
        guard let theirs = other.fingerprint else { return false }
        return _isEqual(captured, theirs)
    }

    override var fingerprint: (any Hashable & Sendable)? { captured }
    override var description: String { "\(value)" }
}

/// Content compared by object identity (a class that is neither fingerprinted nor `Equatable`).
final class ObjectRowStorage<Model>: RowStorage, @unchecked Sendable {
    let value: Model
    let object: ObjectIdentifier

    init(_ value: Model, object: ObjectIdentifier, identity: ItemID) {
        self.value = value
        self.object = object
        super.init(identity: identity)
    }

    override var model: any Sendable { _sendable(value) }

    override func isContentEqual(to other: RowStorage) -> Bool { other.objectIdentity == object }

    override var objectIdentity: ObjectIdentifier? { object }
    override var description: String { "\(value)" }
}

/// No content to compare: unchanged while the identity stays.
final class PlainRowStorage<Model>: RowStorage, @unchecked Sendable {
    let value: Model

    init(_ value: Model, identity: ItemID) {
        self.value = value
        super.init(identity: identity)
    }

    override var model: any Sendable { _sendable(value) }

    override func isContentEqual(to other: RowStorage) -> Bool { other.isPlain }

    override var isPlain: Bool { true }
    override var description: String { "\(value)" }
}

extension ListItem {
    /// Whether the row shows the object with identity `id` though its own identity is
    /// another (a row made with an explicit id): its model's own identity is `id`.
    func showsObject(_ id: ItemID) -> Bool {
        self.id.modelType == id.modelType && ItemID(anyModel: model) == id
    }
}

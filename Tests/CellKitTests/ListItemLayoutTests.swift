import CellKit
import Testing

// A row is two words: its identity's hash beside one reference that holds the rest of
// the identity, the model (unboxed, as its own type) and the content it was captured
// with. These tests pin down that the layout changed nothing a user can see: identity
// (runtime type + id, Optional ids, subclass instances), content (fingerprints captured
// at creation, Equatable `==`, object identity for other classes, none), the model and
// its description.

private struct Tweet: Identifiable, Equatable, Sendable { let id: Int; var text: String }
private struct Poster: Identifiable, Sendable { let id: Int; var title: String }
private struct Large: Identifiable, Equatable, Sendable {
    let id: String
    var a: String, b: String, c: String
}
/// A model whose `==` is never true (as for a NaN field).
private struct Unsettled: Identifiable, Equatable, Sendable {
    let id: Int
    static func == (a: Unsettled, b: Unsettled) -> Bool { false }
}
private struct Draft: Identifiable, Equatable, Sendable { let id: Int?; var title: String }
private struct Tag: Hashable, Sendable { let name: String }

private class Animal: Identifiable, Equatable, @unchecked Sendable {
    let id: Int
    var name: String
    init(id: Int, name: String) { self.id = id; self.name = name }
    static func == (a: Animal, b: Animal) -> Bool { a.id == b.id && a.name == b.name }
}
private final class Dog: Animal, @unchecked Sendable {}
private final class Cat: Animal, @unchecked Sendable {}

/// A class that is neither Equatable nor fingerprinted: compared by object identity.
private final class Session: Identifiable, @unchecked Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// A class whose content is a fingerprint read when the row is made.
private final class Counter: Identifiable, ContentFingerprinting, @unchecked Sendable {
    let id: Int
    var count = 0
    init(id: Int) { self.id = id }
    var contentFingerprint: Int { count }
}

@Suite("ListItem layout: two words, same identity and content")
struct ListItemLayoutTests {
    @Test func aRowIsTwoWords() {
        #expect(MemoryLayout<ListItem>.size == 2 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<ListItem>.stride <= 40)
    }

    @Test func theIdentityIsTheItemIDOfTheModel() {
        let tweet = ListItem(Tweet(id: 7, text: "hi"))
        #expect(tweet.id == ItemID(type: Tweet.self, id: 7))
        #expect(tweet.id.hashValue == ItemID(type: Tweet.self, id: 7).hashValue)
        #expect(tweet.differenceIdentifier == tweet.id)
        #expect(tweet.id != ItemID(type: Poster.self, id: 7))
        #expect(ListItem(Large(id: "k", a: "a", b: "b", c: "c")).id == ItemID(type: Large.self, id: "k"))
        #expect(ListItem(Tag(name: "swift")).id == ItemID(Tag(name: "swift")))
        #expect(ListItem(Poster(id: 1, title: "x"), id: "explicit").id == ItemID(type: Poster.self, id: "explicit"))
        #expect(ListItem(Draft(id: 3, title: "")).id == ItemID(type: Draft.self, id: 3))
        #expect(ListItem(Draft(id: nil, title: "a")).id == ListItem(Draft(id: nil, title: "b")).id)
        #expect(ListItem(Draft(id: nil, title: "a")).id != ListItem(Draft(id: 0, title: "a")).id)
    }

    @Test func aSubclassInstanceHasItsClassAsIdentityType() {
        let pets: [Animal] = [Dog(id: 1, name: "Rex"), Cat(id: 1, name: "Tom")]
        let rows = pets.map { ListItem($0) }
        #expect(rows[0].id == ItemID(Dog(id: 1, name: "")))
        #expect(rows[0].id != rows[1].id)
        #expect(type(of: rows[0].model) == Dog.self)
        #expect(rows[0].model(as: Dog.self).map(ObjectIdentifier.init) == ObjectIdentifier(pets[0]))
        #expect(rows[0].model(as: Animal.self).map(ObjectIdentifier.init) == ObjectIdentifier(pets[0]))
    }

    @Test func equatableContentComparesWithEquals() {
        let a = ListItem(Tweet(id: 1, text: "hi"))
        #expect(a.isContentEqual(to: ListItem(Tweet(id: 1, text: "hi"))))
        #expect(!a.isContentEqual(to: ListItem(Tweet(id: 1, text: "hello"))))
        #expect(a.isContentEqual(to: a))
        let large = ListItem(Large(id: "k", a: "a", b: "b", c: "c"))
        #expect(large.isContentEqual(to: ListItem(Large(id: "k", a: "a", b: "b", c: "c"))))
        #expect(!large.isContentEqual(to: ListItem(Large(id: "k", a: "a", b: "b", c: "C"))))
    }

    @Test func copiesOfOneRowAreEqualWithoutComparing() {
        let row = ListItem(Unsettled(id: 1))
        let copy = row
        #expect(row.isContentEqual(to: copy))
        #expect(!row.isContentEqual(to: ListItem(Unsettled(id: 1))))
    }

    @Test func oneObjectPassedUnderTwoStaticTypesComparesWithTheClassEquals() {
        let dog = Dog(id: 1, name: "Rex")
        let asAnimal = ListItem(dog as Animal)
        let asDog = ListItem(dog)
        #expect(asAnimal.id == asDog.id)
        #expect(asAnimal.isContentEqual(to: asDog) && asDog.isContentEqual(to: asAnimal))
        #expect(!asAnimal.isContentEqual(to: ListItem(Dog(id: 1, name: "Max"))))
        #expect(!ListItem(Dog(id: 1, name: "Max")).isContentEqual(to: asAnimal))
    }

    @Test func aFingerprintIsCapturedWhenTheRowIsMade() {
        let counter = Counter(id: 1)
        let before = ListItem(counter)
        counter.count = 1
        let after = ListItem(counter)
        #expect(!before.isContentEqual(to: after))
        #expect(after.isContentEqual(to: ListItem(counter)))
        #expect(before.id == after.id)
    }

    @Test func anotherClassComparesByObjectIdentity() {
        let session = Session(id: 1)
        #expect(ListItem(session).isContentEqual(to: ListItem(session)))
        #expect(!ListItem(session).isContentEqual(to: ListItem(Session(id: 1))))
        #expect(ListItem(session).id == ListItem(Session(id: 1)).id)
        let shown = ListItem(session).model as AnyObject
        #expect(ObjectIdentifier(shown) == ObjectIdentifier(session))
    }

    @Test func aModelWithNoContentIsUnchangedWhileItsIdentityStays() {
        let a = ListItem(Poster(id: 1, title: "a"))
        #expect(a.isContentEqual(to: ListItem(Poster(id: 1, title: "b"))))
    }

    @Test func differentWaysOfComparingNeverMatch() {
        // A model passed as an existential is compared by nothing (its static type
        // is not Equatable); the same model passed as itself is compared with `==`.
        let plain = ListItem(Tweet(id: 1, text: "hi") as any Sendable, id: 1)
        let equatable = ListItem(Tweet(id: 1, text: "hi"), id: 1)
        #expect(!plain.isContentEqual(to: equatable) && !equatable.isContentEqual(to: plain))
        #expect(plain.isContentEqual(to: ListItem(Tweet(id: 1, text: "other") as any Sendable, id: 1)))
    }

    @Test func theModelAndItsDescriptionAreTheModels() {
        let tweet = Tweet(id: 1, text: "hi")
        let row = ListItem(tweet)
        #expect(row.model(as: Tweet.self) == tweet)
        #expect(row.model as? Tweet == tweet)
        #expect(row.model(as: Poster.self) == nil)
        #expect(row.description == "\(tweet)")
        let large = Large(id: "k", a: "a", b: "b", c: "c")
        #expect(ListItem(large).model as? Large == large)
        #expect(ListItem(large).description == "\(large)")
        #expect(ListItem(Tweet(id: 2, text: "x") as any Sendable, id: 2).model as? Tweet == Tweet(id: 2, text: "x"))
    }
}

import CellKit
import CellKitTesting
import Testing

// The data sources that load tell rows apart by row identity (`ItemID`: the model's
// runtime type and id), as the diff does: a `Dog` and a `Cat` with equal ids are two
// rows for de-duplication, local edits, refresh merging and gap tracking alike.

private class Animal: Identifiable, @unchecked Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}
private final class Dog: Animal, @unchecked Sendable {}
private final class Cat: Animal, @unchecked Sendable {}

/// `"Dog1"`, `"Cat1"`: an animal's row identity, readable in expectations.
private func names(_ animals: [Animal]) -> [String] { animals.map { "\(type(of: $0))\($0.id)" } }
private func dogs(_ ids: Range<Int>) -> [Animal] { ids.map { Dog(id: $0) } }
private func cats(_ ids: Range<Int>) -> [Animal] { ids.map { Cat(id: $0) } }

/// A server of animals, pages of `size` from the top.
@MainActor
private final class AnimalServer {
    var animals: [Animal]
    let size: Int
    init(_ animals: [Animal], pageSize: Int) {
        self.animals = animals
        size = pageSize
    }
    func page(_ n: Int) -> Page<Animal> {
        let start = min(n * size, animals.count)
        let end = min(start + size, animals.count)
        return Page(Array(animals[start..<end]), hasMore: end < animals.count)
    }
}

@MainActor
@Suite("Data sources: rows told apart by type and id")
struct DataSourceIdentityTests {
    @Test func aPageWithADogAndACatOfEqualIdsShowsBoth() async throws {
        let source = PaginatedDataSource<Animal>(prefetchDistance: 0) { _ in
            Page([Dog(id: 1), Cat(id: 1), Dog(id: 1)], hasMore: false)
        }
        await source.load().value
        // The second Dog 1 repeats the first (a distinct row, reported by the controller), not the Cat.
        #expect(names(source.items) == ["Dog1", "Cat1", "Dog1"])
        #expect(source.snapshot.model.itemCount == 3)
    }

    @Test func aLaterPageWithACatOfTheSameIdAsALoadedDogAppendsIt() async throws {
        let source = PaginatedDataSource<Animal>(prefetchDistance: 0) { page in
            page == 0 ? Page([Dog(id: 1)], hasMore: true) : Page([Cat(id: 1), Dog(id: 1)], hasMore: false)
        }
        await source.load().value
        await source.loadNextPage()?.value
        #expect(names(source.items) == ["Dog1", "Cat1"])
    }

    @Test func removingADogHidesThatDogNotTheCatWithItsId() async throws {
        let server = AnimalServer([Dog(id: 1), Dog(id: 2), Cat(id: 1), Dog(id: 3)], pageSize: 2)
        let source = PaginatedDataSource<Animal>(prefetchDistance: 0) { page in await server.page(page) }
        await source.load().value
        source.edit { $0.removeAll { $0 is Dog && $0.id == 1 } }
        await source.loadAll().value
        #expect(names(source.items) == ["Dog2", "Cat1", "Dog3"])

        // A refresh that still holds the removed Dog: it stays removed, the Cat stays.
        await source.refresh().value
        #expect(names(source.items) == ["Dog2", "Cat1", "Dog3"])
        #expect(source.lastRefreshNewItemCount == 0)

        // Inserting a Cat 2 locally does not lift the removal of Dog 2's twin, nor hide Dog 2.
        source.edit { $0.insert(Cat(id: 2), at: 0) }
        await source.refresh().value
        #expect(names(source.items) == ["Cat2", "Dog2", "Cat1", "Dog3"], "the local insert stays until the server has it")
    }

    @Test func aRefreshOfNewRowsWhoseIdsEqualLoadedRowsOfAnotherTypeOpensAGap() async throws {
        // Two pages of dogs loaded; then 15 cats arrive on top, with the ids of loaded dogs.
        // The new first page holds only cats: it overlaps nothing loaded before.
        let server = AnimalServer(dogs(0..<30), pageSize: 10)
        let source = PaginatedDataSource<Animal>(prefetchDistance: 0) { page in await server.page(page) }
        await source.load().value
        await source.loadNextPage()?.value
        server.animals.insert(contentsOf: cats(0..<15), at: 0)
        await source.refresh().value
        #expect(names(source.items) == names(cats(0..<10) + dogs(0..<20)), "the dogs loaded before stay below the cats")
        #expect(source.lastRefreshNewItemCount == 10)
        await source.loadAll().value
        #expect(names(source.items) == names(server.animals), "every animal once, in the server's order")
    }

    @Test func aRemoteSourceKeepsARemovedDogRemovedAndItsCatShown() async throws {
        let source = RemoteDataSource { [Dog(id: 1), Cat(id: 1)] as [Animal] }
        await source.load().value
        source.edit { $0.removeAll { $0 is Dog } }
        await source.refresh().value
        #expect(names(source.items) == ["Cat1"])
        #expect(source.snapshot.model.itemCount == 1)
        #expect(source.lastRefreshNewItemCount == 0)
    }
}

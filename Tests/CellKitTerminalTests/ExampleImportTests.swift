import Foundation
import Testing

/// Outside check 11c (d4): the CellKitTerminal examples began with `import CellKit` only, but
/// `CellKitTerminal` does not re-export `CellKit`, so they did not compile as printed (the
/// generated doc-example tests import every module, and could not see it). Every example of
/// the module that shows its imports names both.
@Suite("CellKitTerminal examples: their imports")
struct ExampleImportTests {
    /// The ```swift blocks of the module's articles and doc comments, with where they are.
    static func examples() throws -> [(place: String, lines: [String])] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let module = root.appendingPathComponent("Sources/CellKitTerminal")
        var found: [(String, [String])] = []
        let files = FileManager.default.enumerator(at: module, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where ["swift", "md"].contains(file.pathExtension) {
            let isSwift = file.pathExtension == "swift"
            var block: [String]?
            for raw in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                var line = raw.trimmingCharacters(in: .whitespaces)
                if isSwift {
                    guard line.hasPrefix("///") else { block = nil; continue }
                    line = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                }
                if block == nil, line == "```swift" { block = []; continue }
                if let lines = block, line == "```" {
                    found.append((file.lastPathComponent, lines))
                    block = nil
                    continue
                }
                block?.append(line)
            }
        }
        return found
    }

    @Test("an example that imports anything imports CellKitTerminal and CellKit")
    func examplesImportTheModule() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 8, "\(examples.count) examples found")
        for example in examples {
            let imports = example.lines.filter { $0.hasPrefix("import ") }
            guard !imports.isEmpty else { continue }
            #expect(imports.contains("import CellKitTerminal") && imports.contains("import CellKit"),
                    "\(example.place): \(example.lines.prefix(3).joined(separator: " | "))")
        }
    }
}

@testable import CellKit
import CellKitDiff
import Testing

/// What `DiagnosticHandler.standardError` writes for text from the app's data.
@Suite("Diagnostics written to standard error")
struct DiagnosticTextTests {
    // Outside check 8 (doc gap): an identifier carrying an escape sequence reached the
    // terminal raw through the default handler.
    @Test("control characters and bidi controls are written escaped; other text as it is")
    func controlsAreEscaped() {
        let hostile = "\u{1B}]52;c;AA\u{07}\u{9B}2J\n\u{202E}dir é 👍🏽 \u{7F}"
        let duplicate = DuplicateIdentifier(side: .new, identifier: hostile, positions: [ItemPath(item: 0, section: 0), ItemPath(item: 1, section: 0)])
        let written = Diagnostic.escapingControls(Diagnostic(.duplicateIdentifier, duplicate.description).description)
        #expect(written.hasPrefix("CellKit [duplicateIdentifier] duplicate identifier \\u{1B}]52;c;AA\\u{7}\\u{9B}2J\\u{A}\\u{202E}dir é 👍🏽 \\u{7F} in new snapshot at rows 0, 1"), "\(written)")
        #expect(!written.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        let plain = "CellKit [missingRegistration] no cell registered for Tweet (id: 7)"
        #expect(Diagnostic.escapingControls(plain) == plain)
    }
}

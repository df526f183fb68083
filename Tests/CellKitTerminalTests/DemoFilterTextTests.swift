import Testing
@testable import cellkit_demo

/// The demo's filter over text beyond ASCII (demo report 11, defect 5: a letter of Devanagari,
/// Sinhala or Thai typed alone found nothing, so typing a word letter by letter flickered).
@Suite("cellkit-demo: the filter beyond ASCII")
struct DemoFilterTextTests {
    @Test("a letter typed alone finds the clusters it starts; composed and decomposed accents find each other", arguments: [
        ("ksha क्षत्रिय end", "क", true), ("क्षत्रिय", "क्", true), ("क्षत्रिय", "क्षत", true),
        ("ශ්‍රී ලංකා", "ශ", true), ("ශ්‍රී ලංකා", "ශ්", true), ("น้ำ นี่", "น", true), ("Cafe\u{301}", "café", true),
        ("café", "cafe\u{301}", true), ("café", "cafe", false), ("abc", "é", false), ("ABC", "bc", true), ("क्ष", "ख", false),
    ])
    func scalarRuns(field: String, query: String, expected: Bool) {
        #expect(shownText(of: field, contains: query.lowercased()) == expected)
    }
}

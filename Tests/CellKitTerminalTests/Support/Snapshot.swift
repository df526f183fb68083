import Foundation
import Testing

/// Compares `lines` with the recorded snapshot `name` under Snapshots/.
///
/// A missing snapshot is recorded (and the test passes with a note) except in CI,
/// where it fails; set CELLKIT_RECORD_SNAPSHOTS=1 to re-record all.
func assertSnapshot(_ lines: [String], named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Snapshots")
    let file = directory.appendingPathComponent(name + ".txt")
    // Trailing spaces are kept and made visible at the line end with a bar.
    let text = lines.map { $0 + "|" }.joined(separator: "\n") + "\n"
    let record = ProcessInfo.processInfo.environment["CELLKIT_RECORD_SNAPSHOTS"] == "1"
    if record || !FileManager.default.fileExists(atPath: file.path) {
        if ProcessInfo.processInfo.environment["CI"] == "true" && !record {
            Issue.record("snapshot \(name).txt is missing under \(directory.path); record it locally and commit it", sourceLocation: sourceLocation)
            return
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        print("recorded snapshot \(file.path)")
        return
    }
    let recorded = try String(contentsOf: file, encoding: .utf8)
    if recorded != text {
        let actual = file.deletingPathExtension().appendingPathExtension("actual.txt")
        try? text.write(to: actual, atomically: true, encoding: .utf8)
        Issue.record("frame differs from snapshot \(name).txt (the actual frame is in \(actual.lastPathComponent)):\n\(text)", sourceLocation: sourceLocation)
    }
}

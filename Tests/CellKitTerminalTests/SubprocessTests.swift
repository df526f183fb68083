@testable import cellkit_demo
import Dispatch
import Foundation
import Testing

@Suite("The demo's subprocess runner", .blocking)
struct SubprocessTests {
    @Test func aChildThatFillsStandardErrorFirstDoesNotDeadlock() {
        // 200 kB to stderr before anything on stdout: more than a pipe holds.
        let result = Subprocess.runBlocking(["sh", "-c", "head -c 200000 /dev/zero | tr '\\\\0' x >&2; echo done; exit 3"])
        #expect(result.status == 3)
        #expect(result.output == "done\n")
        #expect(result.errorOutput.utf8.count == 200_000)
    }

    @Test func aMissingProgramIsAnErrorNamingIt() {
        let result = Subprocess.runBlocking(["cellkit-no-such-program"])
        #expect(result.status != 0)
    }

    // demouser14, defect 2: a diffstat's `git show` started while another thread started a
    // `git log` had its pipes' write ends inherited by that git log, which kept them open (held
    // by backpressure) for as long as it ran: the diffstat, waiting for its end of file, never came.
    @Test("a child started while another thread starts one inherits none of its pipes",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
    func pipesAreNotInheritedAcrossThreads() {
        // Each child lists its shell's descriptors: its own standard output and error, and any other
        // pipe it inherited. Two threads start such children at once, many times.
        let runs = 300
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<runs {
                let result = Subprocess.runBlocking(["sh", "-c", "ls -l /proc/$$/fd"])
                results.append(result.output)
            }
        }
        // A pipe one child writes its output to (its descriptor 1 or 2) must be open in no other child.
        var own: Set<String> = []
        var others: [String: Int] = [:]
        for output in results.outputs {
            for line in output.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard let arrow = parts.firstIndex(of: "->"), arrow > 0, arrow + 1 < parts.count, parts[arrow + 1].hasPrefix("pipe:") else { continue }
                let target = String(parts[arrow + 1])
                if parts[arrow - 1] == "1" || parts[arrow - 1] == "2" { own.insert(target) } else { others[target, default: 0] += 1 }
            }
        }
        #expect(own.count >= 2 * runs, "the children did not list their descriptors: \(results.outputs.prefix(1))")
        let leaked = others.keys.filter(own.contains)
        #expect(leaked.isEmpty, "\(leaked.count) pipes of a child were open in another child started meanwhile (of \(2 * runs))")
    }

    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [String] = []
        func append(_ output: String) { lock.withLock { all.append(output) } }
        var outputs: [String] { lock.withLock { all } }
    }
}

@testable import cellkit_demo
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
}

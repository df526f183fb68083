#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// All operating-system calls of the core, in one place.
enum Platform {
    /// Writes `line` and a newline to standard error.
    static func writeToStandardError(_ line: String) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { break }
            offset += written
        }
        #else
        print(line)
        #endif
    }
}

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

    /// A monotonic clock reading in nanoseconds (for the benchmarks' main-actor timing;
    /// `ContinuousClock` needs iOS 16).
    static func monotonicNanoseconds() -> UInt64 {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        #else
        return 0
        #endif
    }
}

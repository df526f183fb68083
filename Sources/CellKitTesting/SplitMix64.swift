/// A small, fast, seedable random number generator (SplitMix64) for reproducible
/// random tests: print the seed, and a failure can be replayed exactly.
///
/// ```swift
/// var a = SplitMix64(seed: 42)
/// var b = SplitMix64(seed: 42)
/// assert(Int.random(in: 0..<1000, using: &a) == Int.random(in: 0..<1000, using: &b))
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state; the seed is its first value.
    public var state: UInt64

    /// Creates a generator that yields the same sequence for the same `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

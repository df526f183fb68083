/// A small deterministic random generator (SplitMix64): the same seed, the same sample data.
struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<1.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A generator derived from this seed for one purpose, independent of the others.
    static func derived(seed: UInt64, stream: UInt64) -> SeededRandom {
        var base = SeededRandom(seed: seed ^ (stream &* 0xD6E8_FEB8_6659_FD93))
        return SeededRandom(seed: base.next())
    }
}

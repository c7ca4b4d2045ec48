/// SplitMix64: a small, fast, deterministic random generator for a given seed. Used where results must
/// repeat: `deskkit mutate`, the fuzz checks' chunk splits, property tests and benchmarks.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state: the seed, advanced by each number drawn.
    public var state: UInt64

    /// A generator that starts from `seed`; the same seed gives the same numbers.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

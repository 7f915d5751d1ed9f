/// SplitMix64: a small, fast generator whose whole state is its seed, so a seeded request
/// replays exactly.
///
/// Package-wide for `serve-fuzz`, whose runs replay from their seed too.
package struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform double in [0, 1).
  mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }
}

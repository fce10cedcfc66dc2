/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64), so that a seed
/// printed in a report gives the same choices on any machine and any Swift version.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  /// The SplitMix64 finalizer: a bijection that spreads every input bit over the output.
  package static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The seed of iteration `index` of a run seeded with `runSeed`: every iteration gets its own
  /// seed, so one failing iteration can be replayed alone.
  package static func iterationSeed(runSeed: UInt64, index: Int) -> UInt64 {
    mix(runSeed ^ mix(UInt64(bitPattern: Int64(index))))
  }

  /// A choice among `count` options, without the modulo bias of `next() % count`.
  package mutating func choice(among count: Int) -> Int {
    Int(next(upperBound: UInt64(count)))
  }
}

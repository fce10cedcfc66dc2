/// The diagnosis's second seed: a cause that a contrast of rates showed (a race, time, a first
/// run, the order of jobs) is a measurement of a moment, and a second run would not always
/// repeat it. So the arms of its contrast (``CauseContrast``) run again with another seed, apart,
/// and the cause stands only if they show it again; else the test is `undetermined`. Causes
/// shown otherwise need no second seed: every iteration failing on one queue (blocks-thread,
/// serial-deterministic), the seeds replayed (randomness), the polluters confirmed one by one
/// (interference).
///
/// The first runs chose among up to ``Diagnostician/contrasts`` causes, each at the report's
/// error shared among them; the second seed asks one question, decided beforehand, at the
/// report's error: a replication, as a second lab would run it. It is sized from the first
/// seed's rates for ``power`` and runs in looks while undecided: that size, as many again, then
/// twice as many, never beyond ``cap`` times an arm's own iterations. Looking at the answer after
/// each look spends a little of the error each time: three looks at most, each at the report's
/// level (a Pocock-like bound would ask a little more).
package enum SecondSeed {
  /// The probability a second seed's first look shows again the difference the first seed
  /// measured.
  static let power = 0.9
  /// The fewest iterations a second seed's first look runs an arm: fewer decide nothing.
  static let fewest = 10
  /// The most a second seed runs an arm, in times its own iterations: the test's share.
  static let cap = 4

  /// Whether `cause` stands only once a second seed shows it again.
  static func isAsked(for cause: TestDiagnosis) -> Bool { CauseContrast.arms(for: cause) != nil }

  /// The second seed, apart from the first's iteration seeds.
  package static func seed(after first: UInt64) -> UInt64 {
    SplitMix64.mix(first ^ 0x5EC0_4D5E_ED00_0002)
  }

  /// Where each look of an arm of `iterations` ends, for `cause` shown by `firstSeed`: the
  /// size that gives ``power`` to the difference the first seed measured (at least ``fewest``),
  /// then twice, then four times that, each within ``cap`` times `iterations`.
  static func lookEnds(
    for cause: TestDiagnosis, firstSeed: [RunResult], iterations: Int, confidence: Double
  ) -> [Int] {
    let size =
      CauseContrast.iterationsToDecide(cause, from: firstSeed, confidence: confidence, contrasts: 1, power: power)
      ?? iterations
    let most = cap * iterations
    let ends = [1, 2, 4].map { min(most, max(fewest, size) * $0) }
    return ends.enumerated().filter { $0.offset == 0 || $0.element > ends[$0.offset - 1] }.map(\.element)
  }

  /// Whether the second seed's `runs` show `cause` again; nil when the cause needs no second
  /// seed.
  static func showsAgain(_ cause: TestDiagnosis, in runs: [RunResult], confidence: Double) -> Bool? {
    CauseContrast.shows(cause, in: runs, confidence: confidence, contrasts: 1)
  }

  /// Whether the second seed's `runs` have not shown `cause` again yet and still can.
  static func isUndecided(_ cause: TestDiagnosis, in runs: [RunResult], confidence: Double) -> Bool {
    CauseContrast.isUndecided(cause, in: runs, confidence: confidence, contrasts: 1)
  }
}

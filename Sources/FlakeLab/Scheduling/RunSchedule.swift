/// What a run under the deterministic scheduler records about its schedules: the run's seed, one
/// hash of every iteration's schedule, and the first failing iterations with their replay seeds.
package struct RunSchedule: Equatable, Sendable {
  /// How many failing iterations a report lists.
  package static let failingLimit = 20

  /// A failing iteration and what replays it.
  package struct FailingIteration: Equatable, Sendable {
    package let index: Int
    /// The iteration's own seed: `flakelab replay … --seed` takes it.
    package let seed: UInt64
    package let fingerprint: UInt64
    package let outcome: Outcome
  }

  package let seed: UInt64
  /// XOR of every iteration's share (index and schedule fingerprint): equal for two runs with
  /// the same seed and the same schedules, whatever the split into workers and shards.
  package var fingerprint: UInt64
  /// The failing iterations with the lowest indices, up to ``failingLimit``.
  package private(set) var failingIterations: [FailingIteration]
  /// Whether the scheduler alone decided the order of every job. In a package's test process
  /// a task woken by another thread (I/O, Dispatch) or a real-time sleep decides some of it, and
  /// a seed then does not replay an iteration: reports offer no replay command.
  package var isControlled: Bool

  package init(
    seed: UInt64, fingerprint: UInt64 = 0, failingIterations: [FailingIteration] = [],
    isControlled: Bool = true
  ) {
    self.seed = seed
    self.fingerprint = fingerprint
    self.failingIterations = failingIterations
    self.isControlled = isControlled
  }

  /// Notes a failing iteration; one outside the rate (skipped) ran nothing there is to replay.
  mutating func noteFailing(index: Int, fingerprint: UInt64, outcome: Outcome) {
    guard !outcome.isOutsideTheRate else { return }
    let failing = FailingIteration(
      index: index, seed: SplitMix64.iterationSeed(runSeed: seed, index: index),
      fingerprint: fingerprint, outcome: outcome)
    if failingIterations.count < Self.failingLimit {
      failingIterations.append(failing)
      failingIterations.sort { $0.index < $1.index }
    } else if let last = failingIterations.last, index < last.index {
      failingIterations[failingIterations.count - 1] = failing
      failingIterations.sort { $0.index < $1.index }
    }
  }

  /// The indices of `range` no failure is listed for that are known not to have failed: the
  /// list holds the lowest failing indices, so once it is at its limit an iteration past its
  /// last entry may have failed unlisted (a seed taken there as passing failed its replay).
  package func indicesWithoutFailure(in range: Range<Int>) -> [Int] {
    let listed = Set(failingIterations.map(\.index))
    let end = failingIterations.count < Self.failingLimit ? range.upperBound : failingIterations.last?.index ?? 0
    return range.clamped(to: range.lowerBound..<max(range.lowerBound, end)).filter { !listed.contains($0) }
  }

  /// Adds another part of the same run (another shard).
  mutating func merge(_ other: RunSchedule) {
    fingerprint ^= other.fingerprint
    isControlled = isControlled && other.isControlled
    for failing in other.failingIterations {
      noteFailing(index: failing.index, fingerprint: failing.fingerprint, outcome: failing.outcome)
    }
  }
}

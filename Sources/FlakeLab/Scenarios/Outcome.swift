/// What one iteration of a scenario came to.
///
/// A run is a histogram of outcomes, as in jcstress: passes, and each distinct thing seen instead.
/// Observations are plain sentences without addresses or timings, so that equal failures group.
package enum Outcome: Hashable, Sendable {
  /// Every expectation of the test held.
  case passed
  /// An expectation did not hold; the observation says what was seen instead.
  case failed(observation: String)
  /// The iteration's process died (a trap, `fatalError`, a fatal signal or an unexpected exit).
  case crashed(Crash)
  /// The iteration did not finish within the run's per-iteration timeout.
  case timedOut
  /// Under the deterministic scheduler: nothing was left to run and no sleeper pending, yet the
  /// test had not finished, so it never would.
  case deadlocked(observation: String)
  /// The test framework skipped the test (`.disabled`, a condition trait, `XCTSkip`): it did
  /// not run, so it neither passed nor failed, and stays outside the failure rate.
  case skipped(reason: String)
  /// The test turned the run's executor off during the iteration (it cleared the serial
  /// executor's hook): whatever it came to was not under that executor, so it stays outside the
  /// failure rate, which is never reported for an executor that was not in force.
  case executorChanged

  /// Whether the iteration stays out of the failure rate: it did not run under the run's
  /// executor at all (skipped, or the test turned the executor off), so it neither passed nor
  /// failed there, and there is nothing to replay.
  package var isOutsideTheRate: Bool {
    switch self {
    case .skipped, .executorChanged: true
    case .passed, .failed, .crashed, .timedOut, .deadlocked: false
    }
  }

  /// A crash charged to every test in flight because none of them crashed alone.
  package var isCrashBesideOthers: Bool {
    if case .crashed(let crash) = self { crash.isBesideOthers } else { false }
  }
}

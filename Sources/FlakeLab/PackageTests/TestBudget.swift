/// `flakelab test`'s `--budget`, one value from the command to the last process: when the run
/// began and how long it may take, asked the four questions a run asks of it. Without a limit
/// every answer is yes.
///
/// Where a diagnosis follows the screen, the screen starts no pass that would end after half of
/// the budget once a test has failed (the failure needs the diagnosis to be explained), and the
/// diagnosis no process after the whole. Until a test fails there is nothing to diagnose: the
/// screen may go on to the budget's end, less ``kept``.
package struct TestBudget: Sendable {
  /// `--budget`, or nil for none.
  package let limit: Duration?
  package let start: ContinuousClock.Instant
  /// Whether a diagnosis follows the screen and gets the second half.
  package let diagnosisFollows: Bool
  /// The share at the budget's end that no screen takes, failure or none: the thread sanitizer's
  /// when it runs every test (`--sanitize thread`).
  package let kept: Double

  package init(
    _ limit: Duration?, from start: ContinuousClock.Instant = .now, diagnosisFollows: Bool, kept: Double = 0
  ) {
    self.limit = limit
    self.start = start
    self.diagnosisFollows = diagnosisFollows
    self.kept = kept
  }

  package static let unbounded = TestBudget(nil, diagnosisFollows: false)

  /// The budget of a stage that leaves the last `share` of the whole to the stage after it:
  /// the diagnosis leaves the thread sanitizer its part, which a large suite's diagnosis
  /// would otherwise spend (swift-nio-extras' 350 tests left it none of 10 minutes).
  package func leaving(_ share: Double) -> TestBudget {
    TestBudget(limit.map { $0 * (1 - share) }, from: start, diagnosisFollows: diagnosisFollows)
  }

  /// This budget with `share` of it kept from the screen (``kept``).
  package func keeping(_ share: Double) -> TestBudget {
    TestBudget(limit, from: start, diagnosisFollows: diagnosisFollows, kept: share)
  }

  /// When no process may start any more; nil without a limit.
  package var end: ContinuousClock.Instant? { limit.map { start + $0 } }

  /// When the screen's passes must have ended: at half the budget once a test has failed and a
  /// diagnosis follows, else at its end less what is kept.
  private func screenEnd(afterAFailure: Bool) -> ContinuousClock.Instant? {
    limit.map { start + (diagnosisFollows && afterAFailure ? $0 / 2 : $0 * (1 - kept)) }
  }

  /// Whether the screen may start, at `now`, a pass that takes as long as `length`, once a test
  /// has failed or while none has.
  package func screenMayStart(
    passLasting length: Duration, at now: ContinuousClock.Instant, afterAFailure: Bool
  ) -> Bool {
    screenEnd(afterAFailure: afterAFailure).map { now + length <= $0 } ?? true
  }

  /// Whether a process of the diagnosis may start at `now`: whether the run is still in time.
  package func isInTime(at now: ContinuousClock.Instant) -> Bool {
    end.map { now < $0 } ?? true
  }

  /// The seconds of workers' time left at `now` for each of `tests` with `jobs` workers; nil
  /// without a limit.
  package func share(of tests: Int, jobs: Int, at now: ContinuousClock.Instant) -> Double? {
    end.map { max(0, ($0 - now).seconds) * Double(jobs) / Double(max(1, tests)) }
  }
}

/// When a run's first iterations settle its answer, so that the rest would only cost time to say
/// it again, and what a supervised run comes to: the one rule and the one assembly the scenario
/// supervisor, the suite passes and the diagnosis share.
package enum RunSettling {
  /// Iterations from a run's start that settle it when they all came to the same costly end: a
  /// test that never finishes under an executor would otherwise cost the whole timeout, a
  /// minute by default for a package's test, per iteration.
  package static let limit = 3

  /// Processes of one run in a row that end before their test starts, after which the run
  /// stops with the rest of its iterations not run.
  package static let startFailureLimit = 3

  /// What a run's first iterations came to, as far as settling goes.
  package struct Evidence: Equatable {
    package var iterations = 0
    package var timedOut = 0
    package var executorChanged = 0
    /// Iterations that failed after waiting (``PassSupervisor/slowFailure`` or more).
    package var failedAfterWaiting = 0
    /// Iterations whose process died before any test started, because of this test.
    package var diedBeforeStarting = 0
    /// Iterations that did not pass.
    package var notPassed = 0
    /// Whether a failure here settles the arm however fast it came: the test failed every pass
    /// of the screen, so it is broken and has no rate to contrast.
    package var failureSettles = false

    package init(iterations: Int, timedOut: Int) {
      self.iterations = iterations
      self.timedOut = timedOut
    }

    package init(_ tally: Tally) {
      iterations = tally.iterations
      timedOut = tally.timedOut
      executorChanged = tally.executorChanged
      notPassed = tally.notPassed
    }
  }

  /// Why `evidence` settles its run, if it does: every iteration timed out, turned the executor
  /// off, failed after a wait, killed its process before the start, or failed where a failure
  /// settles it.
  package static func stop(_ evidence: Evidence) -> RunStop? {
    let count = evidence.iterations
    guard count >= limit else { return nil }
    if evidence.timedOut == count { return .everyIterationTimedOut }
    if evidence.executorChanged == count { return .everyIterationChangedExecutor }
    if evidence.timedOut + evidence.failedAfterWaiting == count { return .everyIterationFailedSlowly }
    if evidence.diedBeforeStarting == count { return .everyIterationDiedBeforeStarting }
    if evidence.notPassed == count, evidence.failureSettles { return .everyIterationFailed }
    return nil
  }
}

extension RunResult {
  /// A supervised run's result: its replicates' counts added up; the iterations `planned` that
  /// did not run, and why: the run's own `stop`, or, for those nothing else explains, `cut`
  /// (an interrupt, the budget).
  init(
    _ key: RunKey, replicates: [Tally], seconds: Double, iterationsAreIndependent: Bool, schedule: RunSchedule?,
    planned: Int, notRun: Int, stop: RunStop?, cutBy cut: RunStop?
  ) {
    let tally = replicates.reduce(into: Tally()) { $0.merge($1) }
    self.init(
      key, tally: tally, seconds: seconds, iterationsAreIndependent: iterationsAreIndependent, schedule: schedule,
      replicates: replicates.filter { $0.iterations > 0 }.map(ReplicateCounts.init))
    self.notRun = max(notRun, planned - tally.iterations)
    self.stop = stop ?? (self.notRun > 0 ? cut : nil)
  }
}

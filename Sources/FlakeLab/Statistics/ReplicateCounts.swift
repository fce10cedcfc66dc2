/// The counts of one replicate: a batch of a run's iterations in a worker process of its own.
///
/// A run is measured as several replicates so that the spread between processes, which under
/// the global executor is far beyond binomial noise, can be seen and allowed for
/// (``Dispersion``).
package struct ReplicateCounts: Equatable, Sendable {
  package var iterations: Int
  package var passed: Int
  package var failed: Int
  package var crashed: Int
  package var timedOut: Int
  package var deadlocked: Int
  /// Iterations the framework skipped: counted, never in the rate.
  package var skipped: Int
  /// Iterations in which the test turned the executor off: counted, never in the rate.
  package var executorChanged: Int

  package init(
    iterations: Int, passed: Int, failed: Int = 0, crashed: Int = 0, timedOut: Int = 0,
    deadlocked: Int = 0, skipped: Int = 0, executorChanged: Int = 0
  ) {
    self.iterations = iterations
    self.passed = passed
    self.failed = failed
    self.crashed = crashed
    self.timedOut = timedOut
    self.deadlocked = deadlocked
    self.skipped = skipped
    self.executorChanged = executorChanged
  }

  /// The counts of `tally`.
  package init(_ tally: Tally) {
    self.init(
      iterations: tally.iterations, passed: tally.passed, failed: tally.failed,
      crashed: tally.crashed, timedOut: tally.timedOut, deadlocked: tally.deadlocked,
      skipped: tally.skipped, executorChanged: tally.executorChanged)
  }

  /// Iterations that ran under the run's executor: all but the skipped ones and those in which
  /// the test turned the executor off.
  package var ran: Int { iterations - skipped - executorChanged }

  /// Iterations that ran and did not pass, for any reason.
  package var notPassed: Int { ran - passed }

  package var failureRate: Double { ran == 0 ? 0 : Double(notPassed) / Double(ran) }
}

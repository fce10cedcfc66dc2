/// The counts of one replicate: a batch of a run's iterations in a worker process of its own.
///
/// A run is measured as several replicates so that the spread between processes, which under
/// the global executor is far beyond binomial noise, can be seen and allowed for
/// (``Dispersion``).
public struct ReplicateCounts: Equatable, Sendable {
  public var iterations: Int
  public var passed: Int
  public var failed: Int
  public var crashed: Int
  public var timedOut: Int
  public var deadlocked: Int

  public init(
    iterations: Int, passed: Int, failed: Int = 0, crashed: Int = 0, timedOut: Int = 0,
    deadlocked: Int = 0
  ) {
    self.iterations = iterations
    self.passed = passed
    self.failed = failed
    self.crashed = crashed
    self.timedOut = timedOut
    self.deadlocked = deadlocked
  }

  /// The counts of `tally`.
  public init(_ tally: Tally) {
    self.init(
      iterations: tally.iterations, passed: tally.passed, failed: tally.failed,
      crashed: tally.crashed, timedOut: tally.timedOut, deadlocked: tally.deadlocked)
  }

  /// Iterations that did not pass, for any reason.
  public var notPassed: Int { iterations - passed }

  public var failureRate: Double { iterations == 0 ? 0 : Double(notPassed) / Double(iterations) }
}

/// A finished run: what was run, its tally, and how long it took.
public struct RunResult: Sendable {
  public let scenario: String
  public let variant: String
  public let executor: String
  public var tally: Tally
  /// Each replicate's counts, in the order they were measured; they add up to `tally`.
  public var replicates: [ReplicateCounts]
  /// Whether the executor makes iterations independent (``IterationExecutor/iterationsAreIndependent``).
  public var iterationsAreIndependent: Bool
  /// Wall-clock seconds spent running iterations.
  public var seconds: Double
  /// The verdict on the variant's claim under this executor, for `flakelab check`.
  public var verdict: Verdict?
  /// Why this run fails the command: gates not met, a violated claim, a significant rise over
  /// the baseline. Each becomes a `<failure>` in JUnit and a line on stderr.
  public var problems: [String] = []
  /// The run's seed, schedule hash and failing iterations, under the deterministic scheduler.
  public var schedule: RunSchedule?
  /// Set when the run is of a test of the user's package (`flakelab test`).
  public var test: TestReference?

  public init(
    scenario: String, variant: String, executor: String, tally: Tally, seconds: Double,
    schedule: RunSchedule? = nil, replicates: [ReplicateCounts]? = nil,
    iterationsAreIndependent: Bool? = nil
  ) {
    self.scenario = scenario
    self.variant = variant
    self.executor = executor
    self.tally = tally
    self.replicates = replicates ?? [ReplicateCounts(tally)]
    self.iterationsAreIndependent =
      iterationsAreIndependent ?? ExecutorCatalog.iterationsAreIndependent(executor)
    self.seconds = seconds
    self.schedule = schedule
  }

  /// `scenario.variant`, the selector that names this run's variant.
  public var selector: String { "\(scenario).\(variant)" }

  /// The failure rate and its interval at `confidence`, from the replicates.
  public func estimate(confidence: Double) -> FailureRateEstimate {
    FailureRateEstimate(
      replicates: replicates, iterationsAreIndependent: iterationsAreIndependent,
      confidence: confidence)
  }

  public var iterationsPerSecond: Double {
    seconds > 0 ? Double(tally.iterations) / seconds : 0
  }
}

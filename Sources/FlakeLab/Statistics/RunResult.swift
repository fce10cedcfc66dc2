/// A finished run: what was run, its tally, and how long it took.
package struct RunResult: Sendable {
  package let scenario: String
  package let variant: String
  package let executor: String
  package var tally: Tally
  /// Each replicate's counts, in the order they were measured; they add up to `tally`.
  package var replicates: [ReplicateCounts]
  /// Whether the executor makes iterations independent (``IterationExecutor/iterationsAreIndependent``).
  package var iterationsAreIndependent: Bool
  /// Wall-clock seconds spent running iterations.
  package var seconds: Double
  /// The verdict on the variant's claim under this executor, for `flakelab check`.
  package var verdict: Verdict?
  /// Why this run fails the command: gates not met, a violated claim, a significant rise over
  /// the baseline. Each becomes a `<failure>` in JUnit and a line on stderr.
  package var problems: [String] = []
  /// The run's seed, schedule hash and failing iterations, under the deterministic scheduler.
  package var schedule: RunSchedule?
  /// Set when the run is of a test of the user's package (`flakelab test`).
  package var test: TestReference?

  package init(
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
  package var selector: String { "\(scenario).\(variant)" }

  /// The failure rate and its interval at `confidence`, from the replicates.
  package func estimate(confidence: Double) -> FailureRateEstimate {
    FailureRateEstimate(
      replicates: replicates, iterationsAreIndependent: iterationsAreIndependent,
      confidence: confidence)
  }

  package var iterationsPerSecond: Double {
    seconds > 0 ? Double(tally.iterations) / seconds : 0
  }
}

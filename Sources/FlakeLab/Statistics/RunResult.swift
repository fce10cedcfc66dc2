/// A finished run: what was run, its counts, how long it took, and what the statistics stage
/// made of them.
///
/// The statistics are one stage: the interval is computed when the counts or the confidence
/// change, never by a reader; the verdict on a claim and the problems are added once, by the
/// command that judges them. Every report, gate and exit status reads them from here.
package struct RunResult: Sendable {
  package let key: RunKey
  package private(set) var tally: Tally
  /// Each replicate's counts, in the order they were measured; they add up to `tally`.
  package private(set) var replicates: [ReplicateCounts]
  /// Whether the executor makes iterations independent (``IterationExecutor/iterationsAreIndependent``).
  package let iterationsAreIndependent: Bool
  /// The failure rate and its interval, at the confidence of the report the run is in.
  package private(set) var estimate: FailureRateEstimate
  /// Wall-clock seconds spent running iterations.
  package var seconds: Double
  /// The verdict on the variant's claim under this executor, for `flakelab check`.
  package var verdict: Verdict?
  /// Why this run fails the command: gates not met, a violated claim, a significant rise over
  /// the baseline. Each becomes a `<failure>` in JUnit and a line on stderr.
  package var problems: [Problem] = []
  /// The run's seed, schedule hash and failing iterations, under the deterministic scheduler.
  package var schedule: RunSchedule?
  /// Set when the run is of a test of the user's package (`flakelab test`).
  package var test: TestReference?
  /// Iterations left unrun because the run stopped early (``stop`` says why).
  package var notRun = 0
  /// Why the run stopped early, when it did.
  package var stop: RunStop?
  /// Event lines of a package's test that fit no iteration and were ignored: an end with no
  /// start, or past the iterations asked. Something other than the framework wrote them.
  package var ignoredEvents = 0
  /// A package's test: its own time over its iterations; in the suite layout from each start to
  /// its end (``seconds`` is its arm's, every test's together), alone its processes' time from
  /// ready to exit, without the start-up a loaded machine stretches.
  package var testSeconds: Double?
  /// In the suite layout: processes that ran this test whose events did not add up (the lab
  /// lost some), discarded and run again.
  package var rerunForLostEvents = 0
  /// In the suite layout: for each test that was running beside this one in a pass where this
  /// one failed, in how many such passes.
  package var failedBeside: [PackageTest: Int] = [:]
  /// In the suite layout: for each place a failure was recorded at that lies in the body of
  /// another test that ran before it in its process, that test (``FailureOrigin``).
  package var origins: [SourceLocation: PackageTest] = [:]
  /// A package's test on one queue: its failing iterations in which it blocked the queue's
  /// thread (a sleep, a semaphore, a condition or group wait), as the harness saw them.
  package var blockedIterations = 0
  /// Its passing iterations in which it blocked the queue's thread too.
  package var blockedPassingIterations = 0
  /// Where it blocked the most often: the innermost frame of the test binary, and the call.
  package var blockedAt: String?
  /// A package's test alone: how long its counted iterations took, each apart.
  package var iterationTimes = IterationTimes()

  package init(
    _ key: RunKey, tally: Tally, seconds: Double, iterationsAreIndependent: Bool,
    schedule: RunSchedule? = nil, replicates: [ReplicateCounts]? = nil,
    confidence: Double = FailureRateEstimate.defaultConfidence
  ) {
    self.key = key
    self.tally = tally
    let replicates = replicates ?? [ReplicateCounts(tally)]
    self.replicates = replicates
    self.iterationsAreIndependent = iterationsAreIndependent
    estimate = FailureRateEstimate(
      replicates: replicates, iterationsAreIndependent: iterationsAreIndependent,
      confidence: confidence)
    self.seconds = seconds
    self.schedule = schedule
  }

  /// The interval again, at `confidence` (a report's, which may differ from the default).
  package mutating func estimate(atConfidence confidence: Double) {
    guard confidence != estimate.confidence else { return }
    estimate = FailureRateEstimate(
      replicates: replicates, iterationsAreIndependent: iterationsAreIndependent,
      confidence: confidence)
  }

  /// Adds `other`, the same run measured elsewhere (a shard), to this one.
  package mutating func add(_ other: RunResult) {
    tally.merge(other.tally)
    notRun += other.notRun
    stop = stop ?? other.stop
    ignoredEvents += other.ignoredEvents
    rerunForLostEvents += other.rerunForLostEvents
    if let more = other.testSeconds { testSeconds = (testSeconds ?? 0) + more }
    failedBeside.merge(other.failedBeside, uniquingKeysWith: +)
    origins.merge(other.origins, uniquingKeysWith: { first, _ in first })
    blockedIterations += other.blockedIterations
    blockedPassingIterations += other.blockedPassingIterations
    blockedAt = blockedAt ?? other.blockedAt
    iterationTimes.add(other.iterationTimes)
    replicates += other.replicates
    seconds += other.seconds
    if let schedule = other.schedule { self.schedule?.merge(schedule) }
    estimate = FailureRateEstimate(
      replicates: replicates, iterationsAreIndependent: iterationsAreIndependent,
      confidence: estimate.confidence)
  }

  /// What the harness said of its iterations' blocks of the queue's thread.
  package mutating func note(_ blocks: ThreadBlocks) {
    blockedIterations = blocks.failingIterations
    blockedPassingIterations = blocks.passingIterations
    blockedAt = blocks.commonest
  }

  /// This run with `other` added.
  package func adding(_ other: RunResult) -> RunResult {
    var sum = self
    sum.add(other)
    return sum
  }

  package var scenario: String { key.scenario }
  package var variant: String { key.variant }
  package var executor: ExecutorID { key.executor }
  /// `scenario.variant`, the selector that names this run's variant.
  package var selector: String { key.selector }

  package var iterationsPerSecond: Double {
    seconds > 0 ? Double(tally.iterations) / seconds : 0
  }
}

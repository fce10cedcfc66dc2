/// What `flakelab test` was asked, built once by the command and read by every stage of the run:
/// the seed, the workers, the timeout, the statistics and the gates, and the executors.
package struct TestSettings {
  package let seed: UInt64
  /// Workers at once for tests alone (suite passes run one process at a time).
  package let jobs: Int
  package let timeout: Duration
  /// `--replicates`, or nil for each run's default (``replicates(independent:)``).
  package let replicates: Int?
  package let shard: Shard?
  package let confidence: Double
  package let gates: [FailureRateGate]
  package let baseline: Report?
  /// The executors asked for, each with a harness mechanism.
  package let executors: [any IterationExecutor]
  /// The executable workers are started from, and the program replay commands name.
  package let workerExecutable: String
  package let program: String
  /// `--sanitize`: which tests run again under the thread sanitizer.
  package let sanitizing: Sanitizing

  package init(
    seed: UInt64, jobs: Int = 1, timeout: Duration, replicates: Int? = nil, shard: Shard? = nil,
    confidence: Double = FailureRateEstimate.defaultConfidence, gates: [FailureRateGate] = [], baseline: Report? = nil,
    executors: [any IterationExecutor], workerExecutable: String, program: String, sanitizing: Sanitizing = .failures
  ) {
    self.seed = seed
    self.jobs = jobs
    self.timeout = timeout
    self.replicates = replicates
    self.shard = shard
    self.confidence = confidence
    self.gates = gates
    self.baseline = baseline
    self.executors = executors
    self.workerExecutable = workerExecutable
    self.program = program
    self.sanitizing = sanitizing
  }

  /// The replicates of a run (``SupervisedRun/replicates(asked:jobs:independent:)``).
  package func replicates(independent: Bool) -> Int {
    SupervisedRun.replicates(asked: replicates, jobs: jobs, independent: independent)
  }

  /// The executors a test runs alone under in the diagnosis, one of each order of jobs
  /// (``JobOrder``), ready for this run's seed.
  package var diagnosisExecutors: [any IterationExecutor] {
    [ExecutorID.global, .serial, .seeded].compactMap { id in
      ExecutorCatalog.standard.first { $0.id == id }?.forRun(seed: seed)
    }
  }
}

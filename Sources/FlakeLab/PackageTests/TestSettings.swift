/// What `flakelab test` was asked, built once by the command and read by every stage of the run:
/// the seed, the workers, the timeout, the statistics and the gates, and the executors.
package struct TestSettings {
  package var seed: UInt64
  /// Workers at once for tests alone (suite passes run one process at a time).
  package var jobs = 1
  package var timeout: Duration
  /// `--replicates`, or nil for each run's default (``replicates(independent:)``).
  package var replicates: Int?
  package var shard: Shard?
  package var confidence = FailureRateEstimate.defaultConfidence
  package var gates: [FailureRateGate] = []
  package var baseline: Report?
  /// The executors asked for, each with a harness mechanism.
  package var executors: [any IterationExecutor]
  /// The executable workers are started from, and the program replay commands name.
  package var workerExecutable: String
  package var program: String

  package init(
    seed: UInt64, timeout: Duration, executors: [any IterationExecutor], workerExecutable: String, program: String
  ) {
    self.seed = seed
    self.timeout = timeout
    self.executors = executors
    self.workerExecutable = workerExecutable
    self.program = program
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

import Foundation

/// One run as the supervisor sees it: its key, its iterations, what its executor says of them,
/// and how to start a worker process for a batch of them.
///
/// The supervisor knows nothing of what a worker runs: a scenario variant in `flakelab worker`
/// or a test of the user's package in its own test binary. Both are a ``WorkerLaunch``.
package struct SupervisedRun {
  package let key: RunKey
  /// The global indices of the run's iterations.
  package let indices: Range<Int>
  package let seed: UInt64
  /// Whether the run lists its failing iterations with their seeds: under the deterministic
  /// scheduler, or where the seed decides the test's randomness (``DrillDownPlan``'s replays).
  package var isScheduled: Bool
  /// Set for a test of the user's package.
  package let test: TestReference?
  /// Whether the executor makes iterations independent, which decides how the run's interval
  /// is computed (``FailureRateEstimate``).
  package let iterationsAreIndependent: Bool
  /// How many replicates the run is measured as: consecutive blocks of its iterations, each in
  /// worker processes of its own. Nil makes one per job.
  package var replicates: Int?
  /// Iterations one worker process runs at most; nil runs each replicate in one process, 1
  /// gives every iteration a process of its own.
  let iterationsPerWorker: Int?
  /// The worker process for a batch of the run's iterations.
  let launch: (Range<Int>) throws -> WorkerLaunch

  /// A run of `key` under `executor`, which says whether the run is scheduled and whether its
  /// iterations are independent.
  init(
    _ key: RunKey, executor: any IterationExecutor, indices: Range<Int>,
    seed: UInt64, test: TestReference? = nil, replicates: Int? = nil,
    iterationsPerWorker: Int? = nil, launch: @escaping (Range<Int>) throws -> WorkerLaunch
  ) {
    self.key = key
    self.indices = indices
    self.seed = seed
    isScheduled = executor.needsDeterministicScheduler
    iterationsAreIndependent = executor.iterationsAreIndependent
    self.test = test
    self.replicates = replicates
    self.iterationsPerWorker = iterationsPerWorker
    self.launch = launch
  }

  /// The worker batches of each replicate: `replicates` (or `jobs`) near-equal blocks of the
  /// run's indices, each cut into batches of `iterationsPerWorker` when that is set.
  func replicateBatches(jobs: Int) -> [[Range<Int>]] {
    Supervisor.batches(of: indices, count: replicates ?? jobs).map { block in
      iterationsPerWorker.map { Supervisor.batches(of: block, size: $0) } ?? [block]
    }
  }
}

/// How to start one worker process: the program, its arguments and environment, and the feed
/// it reports through on its descriptor `channelDescriptor`.
struct WorkerLaunch {
  let executable: String
  let arguments: [String]
  let environment: [String: String]
  let feed: any OutcomeFeed
  var channelDescriptor = ProcessSpawner.channelDescriptor
  /// Files the process inherits beside its channel (a test process's list of tests).
  var inherited: [InheritedFile] = []
}

extension SupervisedRun {
  /// A scenario run, in `flakelab worker` processes of `executable`.
  package init(_ run: RunPlan.Run, workerExecutable executable: String) {
    // The key only: the worker resolves it in its own catalog, and the supervisor never holds
    // the variant's body.
    let (selector, executor, seed) = (run.key.selector, run.executor.id, run.seed)
    self.init(
      run.key, executor: run.executor, indices: run.indices, seed: seed
    ) { indices in
      let invocation = WorkerInvocation(
        selector: selector, executor: executor, seed: seed, indices: indices)
      return WorkerLaunch(
        executable: executable, arguments: invocation.arguments,
        environment: WorkerLaunch.baseEnvironment, feed: try OutcomeChannelReader())
    }
  }
}

extension WorkerLaunch {
  /// The supervisor's environment, with what every worker needs: a trap should end the worker
  /// at once with a short message, not symbolicate a backtrace; and the worker must die with
  /// the supervisor (``SupervisorLifetime``). Made once: the lab sets no variable of its own,
  /// and reading the environment again was a profile's tenth of a millisecond a worker.
  static let baseEnvironment: [String: String] = {
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    environment[SupervisorLifetime.variable] = String(getpid())
    return environment
  }()
}

extension SupervisedRun {
  /// Replicates of a global run unless `--replicates` says otherwise: enough to see how far the
  /// rate moves between processes, few enough that process start-up stays a small share.
  package static let defaultReplicates = 10

  /// The replicates of a run: `asked` (`--replicates`), or ``defaultReplicates`` (at least one
  /// per job) where iterations are not independent, and one per job where they are (their
  /// interval needs no replicates, see ``FailureRateEstimate``).
  package static func replicates(asked: Int?, jobs: Int, independent: Bool) -> Int {
    asked ?? (independent ? jobs : max(defaultReplicates, jobs))
  }
}

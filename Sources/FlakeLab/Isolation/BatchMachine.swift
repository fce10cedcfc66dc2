/// The decisions of ``Supervisor``: which batch of iterations a worker starts next, what a worker
/// that ended means for its run (the iteration it was in crashed or timed out, the rest of its
/// batch runs in a new worker), when a run stops (settled, or never starting), and what the
/// budget cuts. It is fed what each worker came to and starts none itself, so each decision is
/// tested without a process.
struct BatchMachine {
  /// What the supervisor knows of one run while its replicates are under way.
  struct RunState {
    var replicates: [Tally]
    var schedule: RunSchedule?
    /// The lifetimes of the run's workers, start to exit.
    var workerTime: Duration = .zero
    /// The time its workers spent on iterations: each from ready to exit.
    var iterationTime: Duration = .zero
    var batches: Int
    /// Workers of the run that ended before their test started, since one last finished an
    /// iteration; at ``RunSettling/startFailureLimit`` the run stops.
    var startFailuresInARow = 0
    /// Iterations left unrun because the run stopped.
    var notRun = 0
    /// Why the run stopped, once it has.
    var stop: RunStop?
    /// Event lines the run's workers' feeds could not place, and ignored.
    var ignoredEvents = 0
    var blocks = ThreadBlocks()
    var times = IterationTimes()

    /// Why the run's first iterations settle it, if they do: a run alone settles on timeouts
    /// only (each iteration that turned the executor off still says so, and a failure is a rate).
    var settled: RunStop? {
      RunSettling.stop(
        RunSettling.Evidence(
          iterations: replicates.reduce(0) { $0 + $1.iterations }, timedOut: replicates.reduce(0) { $0 + $1.timedOut }))
    }
  }

  /// How the worker of a batch ended, beyond the outcomes it published: one run's iterations,
  /// counted by the worker, so the end says how far it got. A suite pass's process ends
  /// otherwise (``SuitePassMachine/PassProcessEnd``): many tests, read from their events.
  struct BatchEnd {
    var exit: ProcessExit
    /// Iterations it finished; the one after them is the one it was in.
    var completed: Int
    var ignoredEvents: Int
    var blocks = ThreadBlocks()
    var times = IterationTimes()
    /// From ready to exit; zero for a worker that never got ready.
    var iterationTime: Duration
  }

  private(set) var runs: [RunState]
  private(set) var pending: [Supervisor.Batch]
  private let keys: [RunKey]
  /// Whether each run is of a package's test, whose binary passed the harness probe before any
  /// run: a worker that dies before its test's first event died of the test.
  private let isTest: [Bool]

  init(_ runs: [SupervisedRun], jobs: Int) {
    let replicateBatches = runs.map { $0.replicateBatches(jobs: jobs) }
    self.runs = zip(runs, replicateBatches).map { run, replicates in
      RunState(
        replicates: Array(repeating: Tally(), count: replicates.count),
        schedule: run.isScheduled ? RunSchedule(seed: run.seed) : nil, batches: replicates.reduce(0) { $0 + $1.count })
    }
    pending = Supervisor.interleave(replicateBatches)
    keys = runs.map(\.key)
    isTest = runs.map { $0.test != nil }
  }

  /// The next batch to start, if any is left.
  mutating func nextBatch() -> Supervisor.Batch? {
    pending.isEmpty ? nil : pending.removeFirst()
  }

  /// The budget is spent: workers under way finish their batches; none starts.
  mutating func deadlinePassed() {
    for batch in pending {
      runs[batch.run].notRun += batch.indices.count
      runs[batch.run].stop = runs[batch.run].stop ?? .budgetSpent
    }
    pending.removeAll()
  }

  /// A worker of `batch` was killed at an interrupt after `lifetime`.
  mutating func interrupted(_ batch: Supervisor.Batch, lifetime: Duration) {
    runs[batch.run].workerTime += lifetime
  }

  /// Counts what a worker of `batch` published into its replicate and the run's schedule.
  mutating func take(_ news: WorkerNews, for batch: Supervisor.Batch) {
    for record in news.records {
      runs[batch.run].replicates[batch.replicate].record(
        record.outcome, count: 1, example: record.example, place: record.place)
      runs[batch.run].schedule?.noteFailing(
        index: record.index, fingerprint: record.fingerprint, outcome: record.outcome)
    }
    if news.passes > 0 { runs[batch.run].replicates[batch.replicate].record(.passed, count: news.passes) }
    if news.scheduleIsUncontrolled { runs[batch.run].schedule?.isControlled = false }
    runs[batch.run].schedule?.fingerprint ^= news.scheduleShare
  }

  /// The worker of `batch` ended as `end`: the iteration it was in, if any, is its crash or its
  /// timeout, and the rest of the batch runs in a new worker unless the run has stopped.
  ///
  /// - Throws: ``Supervisor/WorkerStartFailure`` when a scenario's worker never started, which
  ///   is the lab's failure, not the scenario's.
  mutating func workerEnded(_ batch: Supervisor.Batch, _ end: BatchEnd) throws(Supervisor.WorkerStartFailure) {
    let run = batch.run
    let exit = end.exit
    runs[run].workerTime += exit.lifetime
    runs[run].iterationTime += end.iterationTime
    runs[run].ignoredEvents += end.ignoredEvents
    runs[run].blocks.add(end.blocks)
    runs[run].times.add(end.times)
    let stopped = batch.indices.lowerBound + end.completed
    var rest: Range<Int>?
    if stopped < batch.indices.upperBound {
      guard exit.wasReady || isTest[run] else {
        throw Supervisor.WorkerStartFailure(
          selector: keys[run].selector,
          reason: exit.wasTimedOut ? .noSignOfLife(after: Supervisor.startLimit) : .ended(status: exit.status),
          // More of its last lines than a crash's two: what the lab needs to see why.
          lastLines: CrashSummary.summarize(exit.output, lines: 4))
      }
      let outcome: Outcome =
        exit.wasTimedOut ? .timedOut : .crashed(exit.crash(beforeTheTestStarted: !exit.wasReady))
      runs[run].replicates[batch.replicate].record(outcome, count: 1)
      rest = stopped + 1 < batch.indices.upperBound ? (stopped + 1)..<batch.indices.upperBound : nil
    }
    if end.completed > 0 { runs[run].startFailuresInARow = 0 }
    if !exit.wasReady { runs[run].startFailuresInARow += 1 }
    if runs[run].stop == nil {
      // A settled run stops: a test that cannot start would fail so every time, a process start
      // (or a start limit) apiece; one whose every iteration so far timed out would cost the
      // whole timeout each time.
      runs[run].stop =
        runs[run].startFailuresInARow >= RunSettling.startFailureLimit ? .neverStarted : runs[run].settled
    }
    if runs[run].stop != nil {
      runs[run].notRun += (rest?.count ?? 0) + pending.filter { $0.run == run }.reduce(0) { $0 + $1.indices.count }
      pending.removeAll { $0.run == run }
    } else if let rest {
      pending.insert(Supervisor.Batch(run: run, replicate: batch.replicate, indices: rest), at: 0)
    }
  }
}

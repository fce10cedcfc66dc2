import Foundation

/// Runs a plan's iterations in worker processes, so that a crash or a hang inside a scenario is
/// an outcome to report instead of the end of the run.
///
/// Each run's iterations are split into replicates, consecutive blocks of indices each run by a
/// worker process of its own, up to `jobs` workers at once.
/// The supervisor reads every worker's feed (a scenario's ``OutcomeChannel`` every 2 ms, a test
/// process's events every 20 ms, its feed's `readInterval`). When a worker
/// dies, the iteration it was running is recorded as `crashed` (with the signal and the last
/// lines it printed) and a new worker takes the rest of its batch. When a worker's count has not
/// moved for longer than the timeout, it is killed and that iteration is `timedOut`. Counts are
/// exact: every iteration run is counted once, under one outcome (passed, failed, crashed, timed
/// out, deadlocked, skipped, or not under the run's executor).
package final class Supervisor {
  package struct Options: Sendable {
    /// Workers running at once.
    package var jobs: Int
    /// How long one iteration may take before it is recorded as timed out.
    package var timeout: Duration
    /// The `flakelab` executable, started with the hidden `worker` command.
    package var workerExecutable: String
    /// After it no worker starts (`--budget`): the iterations left are not run, and say why.
    package var deadline: ContinuousClock.Instant?

    package init(
      jobs: Int = 1, timeout: Duration = .seconds(10), workerExecutable: String,
      deadline: ContinuousClock.Instant? = nil
    ) {
      self.jobs = jobs
      self.timeout = timeout
      self.workerExecutable = workerExecutable
      self.deadline = deadline
    }
  }

  /// What a run looks like while it is under way, for progress displays.
  package struct Progress: Sendable {
    /// `isLoading.naive (global)`, or `12 runs` when several are interleaved.
    package let label: String
    package let done: Int
    package let total: Int
    package let notPassed: Int
    package let elapsed: Duration
    /// Suite passes: the test that took longest so far, or runs longest now, and how long.
    package var slowest: (test: String, duration: Duration, executor: ExecutorID)? = nil
  }

  /// The lab failed to run a worker at all (not the scenario's doing).
  package struct WorkerStartFailure: Error, Equatable {
    package enum Reason: Equatable, Sendable {
      /// Not ready within ``Supervisor/startLimit``.
      case noSignOfLife(after: Duration)
      /// Ended, with this wait status, before it was ready.
      case ended(status: Int32)
    }

    /// The run the worker was for (`scenario.variant`).
    package let selector: String
    package let reason: Reason
    /// The last lines it printed.
    package let lastLines: String
  }

  /// How often the supervisor reads a scenario worker's ring while it fills (the worker waits
  /// when it is full), and looks at a worker whose exit it cannot be woken by.
  static let pollInterval: useconds_t = 2_000
  /// How often it reads a test process, whose events wait in a pipe of a megabyte and say their
  /// own times: a wake-up every 2 ms beside a test that timed a thousand zero sleeps added
  /// 1.9 ms to its 87 at the median (paired rounds), 0.5 ms every 50 ms. Ends wake it at once.
  static let eventReadInterval: useconds_t = 20_000

  package let options: Options
  private let onProgress: (Progress) -> Void

  package init(options: Options, onProgress: @escaping (Progress) -> Void = { _ in }) {
    self.options = options
    self.onProgress = onProgress
  }

  /// Whether a run was cut short by Ctrl-C or SIGTERM; its result holds what finished before.
  package private(set) var wasInterrupted = false

  /// How long a worker may take to start (load, find its test, announce itself) before the lab
  /// gives up on it. Start-up never counts against the per-iteration timeout.
  static let startLimit: Duration = .seconds(60)

  /// Runs every iteration of a scenario run in `flakelab worker` processes.
  package func run(_ run: RunPlan.Run) throws -> RunResult {
    try self.run([SupervisedRun(run, workerExecutable: options.workerExecutable)])[0]
  }

  /// One batch of one run's iterations, for one worker process.
  struct Batch: Equatable {
    let run: Int
    let replicate: Int
    let indices: Range<Int>
  }

  /// The order batches start in: each run's first replicate, then each run's second, and so on.
  /// `replicateBatches[run][replicate]` are the worker batches of that replicate.
  static func interleave(_ replicateBatches: [[[Range<Int>]]]) -> [Batch] {
    let rounds = replicateBatches.map(\.count).max() ?? 0
    return (0..<rounds).flatMap { replicate in
      replicateBatches.enumerated().flatMap { run, replicates in
        replicate < replicates.count
          ? replicates[replicate].map { Batch(run: run, replicate: replicate, indices: $0) } : []
      }
    }
  }

  /// Runs every iteration of `runs` and returns each run's counts, replicate by replicate, in
  /// the order of `runs`; stops early when interrupted (a run that had not started is empty).
  ///
  /// The replicates of all the runs are interleaved, first replicate of every run, then the
  /// second, …, so that drift in the machine's load falls on every run alike.
  package func run(_ runs: [SupervisedRun]) throws -> [RunResult] {
    try InterruptSignal.watching { try supervise(runs) }
  }

  private func supervise(_ runs: [SupervisedRun]) throws -> [RunResult] {
    let clock = ContinuousClock()
    let start = clock.now
    var machine = BatchMachine(runs, jobs: options.jobs)
    var active: [(worker: WorkerProcess, batch: Batch)] = []
    var lastReport = start
    ProcessTree.becomeSubreaper()
    // However the run ends, nothing a worker started outlives it.
    defer { ProcessTree.reapOrphans(keeping: []) }

    // Whatever ends the run, no worker is left behind: an error kills and reaps every worker.
    do {
      while !machine.pending.isEmpty || !active.isEmpty {
        if InterruptSignal.isRaised {
          wasInterrupted = true
          stop(active, machine: &machine, clock: clock)
          break
        }
        if SuspendSignal.takeRaised() { SuspendSignal.suspend(active.map(\.worker)) }
        if let deadline = options.deadline, clock.now >= deadline { machine.deadlinePassed() }
        while active.count < options.jobs, let batch = machine.nextBatch() {
          active.append((try WorkerProcess(runs[batch.run].launch(batch.indices), indices: batch.indices), batch))
        }
        WorkerProcess.wait(
          forAnEndOf: active.map(\.worker), upTo: active.map(\.worker.feed.readInterval).min() ?? Self.pollInterval)
        let stillActive = try poll(active, machine: &machine, clock: clock)
        if stillActive.count < active.count {
          ProcessTree.reapOrphans(keeping: Set(stillActive.map(\.worker.pid)))
        }
        active = stillActive
        if clock.now - lastReport > .milliseconds(100) {
          lastReport = clock.now
          onProgress(progress(of: runs, states: machine.runs, active: active, elapsed: clock.now - start))
        }
      }
    } catch {
      for (worker, _) in active {
        worker.kill()
        _ = worker.reap(waiting: true)
      }
      throw error
    }
    return zip(runs, machine.runs).map { run, state in
      // The time the run would take alone: its workers' time over the workers it ran at once.
      let parallel = max(1, min(options.jobs, state.batches))
      // An interrupt leaves iterations that neither ran nor were counted out: they are cut.
      var result = RunResult(
        run.key, replicates: state.replicates, seconds: (state.workerTime / parallel).seconds,
        iterationsAreIndependent: run.iterationsAreIndependent, schedule: state.schedule, planned: run.indices.count,
        notRun: state.notRun, stop: state.stop, cutBy: wasInterrupted ? .interrupted : nil)
      result.test = run.test
      // A package's test alone: its own time is what its processes did once ready.
      if run.test != nil { result.testSeconds = state.iterationTime.seconds }
      result.ignoredEvents = state.ignoredEvents
      result.note(state.blocks)
      result.iterationTimes = state.times
      return result
    }
  }

  /// Takes in what each of `active` published, tells the machine of those that ended, and
  /// kills those that hung; returns those still running.
  private func poll(
    _ active: [(worker: WorkerProcess, batch: Batch)], machine: inout BatchMachine, clock: ContinuousClock
  ) throws -> [(worker: WorkerProcess, batch: Batch)] {
    var stillActive: [(worker: WorkerProcess, batch: Batch)] = []
    for (worker, batch) in active {
      machine.take(worker.poll(), for: batch)
      if let status = worker.reap() {
        machine.take(worker.collectFinal(status: status), for: batch)
        try machine.workerEnded(batch, ended(worker, status: status, now: clock.now))
        continue
      }
      let now = clock.now
      if HangRule.hasHung(
        isReady: worker.isReady, sinceProgress: now - worker.lastProgress, sinceStart: now - worker.startedAt,
        timeout: options.timeout)
      {
        worker.wasTimedOut = true
        worker.kill()
      }
      stillActive.append((worker, batch))
    }
    return stillActive
  }

  /// Kills every worker of `active` at an interrupt, keeping what each published.
  private func stop(
    _ active: [(worker: WorkerProcess, batch: Batch)], machine: inout BatchMachine, clock: ContinuousClock
  ) {
    for (worker, batch) in active {
      worker.kill()
      let status = worker.reap(waiting: true) ?? 0
      machine.take(worker.collectFinal(status: status), for: batch)
      machine.interrupted(batch, lifetime: clock.now - worker.startedAt)
    }
  }

  /// How `worker` ended with `status`, for the machine.
  private func ended(_ worker: WorkerProcess, status: Int32, now: ContinuousClock.Instant) -> BatchMachine.BatchEnd {
    BatchMachine.BatchEnd(
      exit: worker.exit(status: status, lifetime: now - worker.startedAt), completed: worker.completed,
      ignoredEvents: worker.feed.ignoredEvents, blocks: worker.feed.blocks,
      times: worker.feed.times, iterationTime: worker.readyAt.map { now - $0 } ?? .zero)
  }

  private func progress(
    of runs: [SupervisedRun], states: [BatchMachine.RunState], active: [(worker: WorkerProcess, batch: Batch)],
    elapsed: Duration
  ) -> Progress {
    var done = states.reduce(0) { $0 + $1.replicates.reduce(0) { $0 + $1.iterations } }
    let notPassed = states.reduce(0) { $0 + $1.replicates.reduce(0) { $0 + $1.notPassed } }
    // Passes of workers still running are not counted yet; their failures are.
    for (worker, _) in active { done += worker.completed - worker.failures }
    return Progress(
      label: runs.count == 1 ? "\(runs[0].key.selector) (\(runs[0].key.executor))" : "\(runs.count) runs",
      done: done, total: runs.reduce(0) { $0 + $1.indices.count }, notPassed: notPassed,
      elapsed: elapsed)
  }

  /// `signal 4 (SIGILL)`, `exited with status 3`.
  package static func describe(status: Int32) -> String {
    let signalNumber = status & 0x7f
    if signalNumber == 0 {
      return "exited with status \((status >> 8) & 0xff)"
    }
    let names: [Int32: String] = [
      SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS",
      SIGFPE: "SIGFPE", SIGSEGV: "SIGSEGV", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
    ]
    return "signal \(signalNumber)" + (names[signalNumber].map { " (\($0))" } ?? "")
  }

  /// `indices` cut into consecutive batches of `size` (the last may be shorter).
  static func batches(of indices: Range<Int>, size: Int) -> [Range<Int>] {
    stride(from: indices.lowerBound, to: indices.upperBound, by: size).map {
      $0..<min($0 + size, indices.upperBound)
    }
  }

  /// `indices` cut into `count` consecutive batches of near-equal size (fewer if it is short).
  static func batches(of indices: Range<Int>, count: Int) -> [Range<Int>] {
    let total = indices.count
    let parts = max(1, min(count, total))
    return (0..<parts).compactMap { part in
      let lower = indices.lowerBound + total * part / parts
      let upper = indices.lowerBound + total * (part + 1) / parts
      return lower < upper ? lower..<upper : nil
    }
  }
}

extension Supervisor {
  /// What a measurement's workers came to, and whether Ctrl-C or SIGTERM cut it short.
  package struct Measured {
    package let results: [RunResult]
    package let interrupted: Bool
  }

  /// Supervises `runs` while Ctrl-C and SIGTERM end the supervision early with the runs that
  /// finished; after it, both end the process at once, even while a report waits on a full
  /// pipe, and Ctrl-Z stops it as any program.
  @MainActor
  package static func measuring(
    _ runs: [SupervisedRun], options: Options, onProgress: @escaping (Progress) -> Void
  ) throws -> Measured {
    SuspendSignal.install()
    defer { SuspendSignal.restoreDefault() }
    let supervisor = Supervisor(options: options, onProgress: onProgress)
    let results = try InterruptSignal.watching { try supervisor.run(runs) }
    return Measured(results: results, interrupted: supervisor.wasInterrupted)
  }
}

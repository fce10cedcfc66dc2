import Foundation

/// Runs a plan's iterations in worker processes, so that a crash or a hang inside a scenario is
/// an outcome to report instead of the end of the run.
///
/// Each run's iterations are split into replicates, consecutive blocks of indices each run by a
/// worker process of its own, up to `jobs` workers at once.
/// The supervisor polls every worker's ``OutcomeChannel`` every few milliseconds. When a worker
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
      jobs: Int = 1, timeout: Duration = .seconds(10), workerExecutable: String, deadline: ContinuousClock.Instant? = nil
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
  package struct WorkerStartFailure: Error, CustomStringConvertible {
    package let description: String
  }

  static let pollInterval: useconds_t = 2_000

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

  /// What the supervisor knows of one run while its replicates are under way.
  private struct RunState {
    var replicates: [Tally]
    var schedule: RunSchedule?
    /// The lifetimes of the run's workers, start to exit.
    var workerTime: Duration = .zero
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

    /// Why the run's first iterations settle it, if they do: a run alone settles on timeouts
    /// only (each iteration that turned the executor off still says so, and a failure is a rate).
    var settled: RunStop? {
      RunSettling.stop(
        RunSettling.Evidence(
          iterations: replicates.reduce(0) { $0 + $1.iterations }, timedOut: replicates.reduce(0) { $0 + $1.timedOut }))
    }

    /// Takes in what `worker`, running `replicate`, published since the last poll.
    mutating func poll(_ worker: WorkerProcess, replicate: Int) {
      worker.poll(into: &replicates[replicate], schedule: &schedule)
    }

    /// Takes in the rest of what `worker` published before it ended with `status`.
    mutating func collectFinal(_ worker: WorkerProcess, replicate: Int, status: Int32) {
      worker.collectFinal(status: status, into: &replicates[replicate], schedule: &schedule)
    }
  }

  /// Runs every iteration of `runs` and returns each run's counts, replicate by replicate, in
  /// the order of `runs`; stops early when interrupted (a run that had not started is empty).
  ///
  /// The replicates of all the runs are interleaved, first replicate of every run, then the
  /// second, …, so that drift in the machine's load falls on every run alike.
  package func run(_ runs: [SupervisedRun]) throws -> [RunResult] {
    let clock = ContinuousClock()
    let start = clock.now
    let replicateBatches = runs.map { $0.replicateBatches(jobs: options.jobs) }
    var states = zip(runs, replicateBatches).map { run, replicates in
      RunState(
        replicates: Array(repeating: Tally(), count: replicates.count),
        schedule: run.isScheduled ? RunSchedule(seed: run.seed) : nil,
        batches: replicates.reduce(0) { $0 + $1.count })
    }
    var pending = Self.interleave(replicateBatches)
    var active: [(worker: WorkerProcess, batch: Batch)] = []
    var lastReport = start
    ProcessTree.becomeSubreaper()
    // However the run ends, nothing a worker started outlives it.
    defer { ProcessTree.reapOrphans(keeping: []) }

    // Whatever ends the run, no worker is left behind: an error kills and reaps every worker.
    do {
      while !pending.isEmpty || !active.isEmpty {
        if InterruptSignal.isRaised {
          wasInterrupted = true
          for (worker, batch) in active {
            worker.kill()
            let status = worker.reap(waiting: true) ?? 0
            states[batch.run].collectFinal(worker, replicate: batch.replicate, status: status)
            states[batch.run].workerTime += clock.now - worker.startedAt
          }
          break
        }
        if SuspendSignal.takeRaised() { SuspendSignal.suspend(active.map(\.worker)) }
        if let deadline = options.deadline, clock.now >= deadline {
          // Workers under way finish their batches; none starts.
          for batch in pending {
            states[batch.run].notRun += batch.indices.count
            states[batch.run].stop = states[batch.run].stop ?? .budgetSpent
          }
          pending.removeAll()
        }
        while active.count < options.jobs, !pending.isEmpty {
          let batch = pending.removeFirst()
          active.append((try WorkerProcess(runs[batch.run].launch(batch.indices), indices: batch.indices), batch))
        }
        usleep(Self.pollInterval)
        var stillActive: [(worker: WorkerProcess, batch: Batch)] = []
        for (worker, batch) in active {
          let run = batch.run
          states[run].poll(worker, replicate: batch.replicate)
          if let status = worker.reap() {
            states[run].collectFinal(worker, replicate: batch.replicate, status: status)
            states[run].workerTime += clock.now - worker.startedAt
            states[run].ignoredEvents += worker.feed.ignoredEvents
            let rest = try settle(
              worker, of: runs[run], status: status, into: &states[run].replicates[batch.replicate])
            if worker.completed > 0 { states[run].startFailuresInARow = 0 }
            if !worker.isReady { states[run].startFailuresInARow += 1 }
            if states[run].stop == nil {
              // A settled run stops: a test that cannot start would fail so every time, a
              // process start (or a start limit) apiece; one whose every iteration so far timed
              // out would cost the whole timeout each time.
              if states[run].startFailuresInARow >= RunSettling.startFailureLimit {
                states[run].stop = .neverStarted
              } else {
                states[run].stop = states[run].settled
              }
            }
            if states[run].stop != nil {
              states[run].notRun += (rest?.count ?? 0)
                + pending.filter { $0.run == run }.reduce(0) { $0 + $1.indices.count }
              pending.removeAll { $0.run == run }
            } else if let rest {
              pending.insert(Batch(run: run, replicate: batch.replicate, indices: rest), at: 0)
            }
          } else if worker.isReady
            ? clock.now - worker.lastProgress > options.timeout
            : clock.now - worker.startedAt > Self.startLimit
          {
            worker.wasTimedOut = true
            worker.kill()
            stillActive.append((worker, batch))
          } else {
            stillActive.append((worker, batch))
          }
        }
        if stillActive.count < active.count {
          ProcessTree.reapOrphans(keeping: Set(stillActive.map(\.worker.pid)))
        }
        active = stillActive
        if clock.now - lastReport > .milliseconds(100) {
          lastReport = clock.now
          onProgress(progress(of: runs, states: states, active: active, elapsed: clock.now - start))
        }
      }
    } catch {
      for (worker, _) in active {
        worker.kill()
        _ = worker.reap(waiting: true)
      }
      throw error
    }
    return zip(runs, states).map { run, state in
      // The time the run would take alone: its workers' time over the workers it ran at once.
      let parallel = max(1, min(options.jobs, state.batches))
      // An interrupt leaves iterations that neither ran nor were counted out: they are cut.
      var result = RunResult(
        run.key, replicates: state.replicates, seconds: (state.workerTime / parallel).seconds,
        iterationsAreIndependent: run.iterationsAreIndependent, schedule: state.schedule, planned: run.indices.count,
        notRun: state.notRun, stop: state.stop, cutBy: wasInterrupted ? .interrupted : nil)
      result.test = run.test
      result.ignoredEvents = state.ignoredEvents
      return result
    }
  }

  /// Records how `worker` ended, beyond what it published, and returns the part of its batch
  /// still to run, if any.
  private func settle(
    _ worker: WorkerProcess, of run: SupervisedRun, status: Int32, into tally: inout Tally
  ) throws -> Range<Int>? {
    let indices = worker.indices
    let stopped = worker.currentIndex
    guard stopped < indices.upperBound else { return nil }
    // A package's test binary passed the harness probe before any run, so a process that dies
    // or hangs before its test's first event died of the test (an argument list that traps, a
    // static initializer): its outcome, not the lab's failure. A scenario worker is the lab's.
    guard worker.isReady || run.test != nil else {
      let why = worker.wasTimedOut ? "no sign of life after \(Self.startLimit)" : Self.describe(status: status)
      throw WorkerStartFailure(
        description: "a worker for \(run.key.selector) did not start: \(why). " + worker.lastOutputLines(4))
    }
    if worker.wasTimedOut {
      tally.record(.timedOut, count: 1)
    } else {
      let crash = Crash(status: status, lastLines: worker.lastOutputLines(), beforeTheTestStarted: !worker.isReady)
      tally.record(.crashed(crash), count: 1)
    }
    return stopped + 1 < indices.upperBound ? (stopped + 1)..<indices.upperBound : nil
  }

  private func progress(
    of runs: [SupervisedRun], states: [RunState], active: [(worker: WorkerProcess, batch: Batch)],
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

import Foundation

/// Runs suite passes: each pass runs every selected test once, in fresh processes of the
/// package's test binary, the way `swift test` runs them, and yields one outcome per test.
///
/// Passes run one process at a time, as `swift test` runs them: a second pass beside the first
/// would load the machine and move the global rates the screen is there to measure. The passes
/// of the executors alternate (pass 0 under each, then pass 1, …), so drift in the machine's
/// load falls on every executor alike.
///
/// A crash or a hang ends a process, not a pass: what each process that ended means, and which
/// process to start next, is ``SuitePassMachine``'s to decide; this class starts and watches the
/// processes, and keeps to the budget and the interrupt.
package final class PassSupervisor {
  /// The passes under one executor, in one layout: what a screen, a daily job's pass or a
  /// polluter search's check asks of the test binary.
  package struct Series {
    let executor: any IterationExecutor
    /// The pass's tests, a group per framework (each framework runs in a process of its own).
    let groups: [[PackageTest]]
    /// The passes' layout: the tests side by side as the framework runs them, one at a time, or
    /// each alone in a process.
    let layout: TestReference.ProcessLayout
    /// How many of the screen's passes the series runs, its first; nil runs them all.
    let passes: Int?
    /// Starts the tests given (a subset of one group) as pass `pass`.
    let launch: ([PackageTest], _ pass: Int) throws -> (launch: WorkerLaunch, feed: SuiteEventFeed)

    init(
      executor: any IterationExecutor, groups: [[PackageTest]], layout: TestReference.ProcessLayout = .suite,
      passes: Int? = nil, launch: @escaping ([PackageTest], Int) throws -> (launch: WorkerLaunch, feed: SuiteEventFeed)
    ) {
      self.executor = executor
      self.groups = groups
      self.layout = layout
      self.passes = passes
      self.launch = launch
    }

    /// The passes of `passes` the series runs.
    func passCount(of passes: Range<Int>) -> Int { min(self.passes ?? passes.count, passes.count) }

    /// The groups of consecutive passes the series' runs are measured in: `replicates`, fewer when
    /// it runs fewer passes.
    func replicateCount(of passes: Range<Int>, replicates: Int) -> Int {
      max(1, min(replicates, passCount(of: passes)))
    }

    /// The replicate pass `pass` counts in.
    func replicate(of pass: Int, in passes: Range<Int>, replicates: Int) -> Int {
      (pass - passes.lowerBound) * replicateCount(of: passes, replicates: replicates) / passCount(of: passes)
    }

    /// Whether `--budget` may stop the series before its first pass: the passes alone, which no
    /// answer needs and which cost a process per test (a minute and more for thousands).
    var isBoundFromItsFirstPass: Bool { layout == .alone }
  }

  package let timeout: Duration
  /// A failure that took this long was a wait running out, not a quick check: three in a row
  /// settle the test under the executor (``RunStop/everyIterationFailedSlowly``). Below a
  /// second, the shortest wait test helpers commonly use: a one-second wait measured by the
  /// supervisor (from reading the test's start to reading its end) or timed by another clock
  /// can come out a hair short of it.
  package static let slowFailure: Duration = .milliseconds(900)
  private let onProgress: (Supervisor.Progress) -> Void
  /// Whether the passes were cut short by Ctrl-C or SIGTERM.
  package private(set) var wasInterrupted = false

  package init(timeout: Duration, onProgress: @escaping (Supervisor.Progress) -> Void = { _ in }) {
    self.timeout = timeout
    self.onProgress = onProgress
  }

  /// Runs passes `passes` under every series, in `replicates` groups of consecutive passes, and
  /// returns a result per series and test: the series in order, each one's tests group by group. No pass
  /// of a series after its first (of the passes alone, none at all) starts when its last pass,
  /// taken again, would end past the screen's share of `budget` (``PassBudget``); the tests' passes
  /// left are not run, stopped by ``RunStop/budgetSpent``.
  package func run(
    _ allSeries: [Series], passes: Range<Int>, replicates: Int, seed: UInt64, packagePath: String,
    budget: TestBudget = .unbounded
  ) throws -> [RunResult] {
    try InterruptSignal.watching {
      try supervise(
        allSeries, passes: passes, replicates: replicates, seed: seed, packagePath: packagePath, budget: budget)
    }
  }

  private func supervise(
    _ allSeries: [Series], passes: Range<Int>, replicates: Int, seed: UInt64, packagePath: String,
    budget: TestBudget
  ) throws -> [RunResult] {
    let clock = ContinuousClock()
    let start = clock.now
    var machines = allSeries.map { passMachines(of: $0, passes: passes, replicates: replicates, seed: seed) }
    let total = allSeries.reduce(0) { $0 + $1.passCount(of: passes) }
    var progress = PassProgress(total: total, start: start, onProgress: onProgress)
    ProcessTree.becomeSubreaper()
    defer { ProcessTree.reapOrphans(keeping: []) }

    var passBudget = PassBudget(
      series: allSeries.count, budget: budget,
      boundFromTheirFirstPass: Set(allSeries.indices.filter { allSeries[$0].isBoundFromItsFirstPass }))
    passLoop: for pass in passes {
      for (seriesIndex, series) in allSeries.enumerated() where pass - passes.lowerBound < series.passCount(of: passes)
      {
        let replicate = series.replicate(of: pass, in: passes, replicates: replicates)
        guard passBudget.allows(series: seriesIndex, isFirstPass: pass == passes.lowerBound, now: clock.now) else {
          if passBudget.stoppedEverySeries { break passLoop }
          continue
        }
        let passStart = clock.now
        for groupIndex in series.groups.indices {
          var action = machines[seriesIndex][groupIndex].startPass(pass, replicate: replicate)
          while case .run(let positions) = action {
            if InterruptSignal.isRaised {
              wasInterrupted = true
              break passLoop
            }
            let group = series.groups[groupIndex]
            let tests = positions.map { group[$0] }
            let end = try runProcess(series, tests: tests, pass: pass) { longest in
              progress.show(
                inFlight: longest.map { (tests[$0.test].id, $0.ran, series.executor.id) }, states: machines,
                clock: clock)
            }
            // A process an interrupt ended says nothing of its tests: the pass is left there.
            if InterruptSignal.isRaised {
              wasInterrupted = true
              break passLoop
            }
            progress.note(end, tests: tests, executor: series.executor.id)
            action = machines[seriesIndex][groupIndex].ended(end)
          }
        }
        passBudget.passTook(
          clock.now - passStart, series: seriesIndex, failed: machines.joined().contains(where: \.hasAFailure))
        progress.passDone(states: machines, clock: clock)
      }
    }
    return allSeries.enumerated().flatMap { seriesIndex, series in
      results(
        of: machines[seriesIndex], under: series.executor, layout: series.layout, packagePath: packagePath,
        planned: series.passCount(of: passes),
        cutBy: wasInterrupted ? .interrupted : passBudget.stopped[seriesIndex] ? .budgetSpent : nil)
    }
  }

  /// The decisions of `series`' passes, a machine per group.
  private func passMachines(of series: Series, passes: Range<Int>, replicates: Int, seed: UInt64) -> [SuitePassMachine]
  {
    series.groups.map { group in
      SuitePassMachine(
        group: group, timeout: timeout, replicates: series.replicateCount(of: passes, replicates: replicates),
        schedule: series.executor.needsDeterministicScheduler ? RunSchedule(seed: seed) : nil,
        testsAlone: series.layout == .alone)
    }
  }

  /// A series' results, group by group; each carries the series' time and ignored events, every
  /// test's together.
  private func results(
    of machines: [SuitePassMachine], under executor: any IterationExecutor, layout: TestReference.ProcessLayout,
    packagePath: String, planned: Int, cutBy cut: RunStop?
  ) -> [RunResult] {
    let seconds = machines.reduce(Duration.zero) { $0 + $1.seconds }.seconds
    let ignored = machines.reduce(0) { $0 + $1.ignoredEvents }
    return machines.flatMap { machine in
      machine.results(under: executor, packagePath: packagePath, planned: planned, cutBy: cut).map { result in
        var result = result
        result.test = result.test.map { TestReference(test: $0.test, packagePath: $0.packagePath, layout: layout) }
        result.seconds = seconds
        result.ignoredEvents = ignored
        return result
      }
    }
  }

  /// Runs `tests` as pass `pass` in one process, until it exits, hangs or is interrupted;
  /// `onTick` is told now and then which test has been in flight longest.
  private func runProcess(
    _ series: Series, tests: [PackageTest], pass: Int, onTick: ((test: Int, ran: Duration)?) -> Void = { _ in }
  ) throws -> SuitePassMachine.PassProcessEnd {
    let clock = ContinuousClock()
    let (launch, feed) = try series.launch(tests, pass)
    let worker = try WorkerProcess(launch, indices: pass..<(pass + 1))
    let started = clock.now
    var status: Int32?
    var idleSince: ContinuousClock.Instant?
    while status == nil {
      WorkerProcess.wait(forAnEndOf: [worker], upTo: feed.readInterval)
      // A pass's outcomes are its feed's, test by test (``SuiteEventFeed``): the worker's news
      // only moves the process's own counts and reads its output.
      _ = worker.poll()
      if InterruptSignal.isRaised {
        worker.kill()
        status = worker.reap(waiting: true)
        break
      }
      if let ended = worker.reap() {
        status = ended
        break
      }
      let now = clock.now
      // The test in flight longest, found once a wake: the progress line's and the hang rule's.
      let longest = feed.inFlight.min { $0.value < $1.value }.map { (test: $0.key, ran: now - $0.value) }
      onTick(longest)
      idleSince = longest == nil ? idleSince ?? now : nil
      let hung = HangRule.passHasHung(
        isReady: feed.workerIsReady, longestInFlight: longest?.ran,
        idle: idleSince.map { now - $0 }, sinceStart: now - started, timeout: timeout)
      if hung {
        worker.wasTimedOut = true
        worker.kill()
        status = worker.reap(waiting: true)
      }
    }
    _ = worker.collectFinal(status: status ?? 0)
    // Only now: until the process ended, a failure could still land on a finished test's line.
    let finished = feed.drain()
    let now = clock.now
    return SuitePassMachine.PassProcessEnd(
      exit: worker.exit(status: status ?? 0, lifetime: now - started), finished: finished,
      inFlight: feed.inFlight.map { ($0.key, now - $0.value) }.sorted { $0.test < $1.test },
      scheduleIsUncontrolled: feed.scheduleIsUncontrolled, ignoredEvents: feed.ignoredEvents,
      lostEvents: feed.lostEvents)
  }
}

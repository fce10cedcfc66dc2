import Foundation

/// Runs suite passes: each pass runs every selected test once, in fresh processes of the
/// package's test binary, the way `swift test` runs them, and yields one outcome per test.
///
/// Passes run one process at a time, as `swift test` runs them: a second pass beside the first
/// would load the machine and move the global rates the screen is there to measure. The passes
/// of the executors alternate (pass 0 under each, then pass 1, …), so drift in the machine's
/// load falls on every executor alike.
///
/// A crash or a hang ends a process, not a pass. A hang (a test in flight longer than the
/// timeout) is charged to the test in flight that long; a crash to the one test in flight.
/// When several were in flight (at a hang, several for the whole timeout: one test that stops
/// its process hangs its neighbours too), each runs alone, once, and the crash or hang is
/// charged to those that crash or hang alone too, or, when none does, to all of them (a
/// crash with the observation saying so): never one, silently, and never a bystander. Either
/// way the pass resumes in a new process with the tests it has not run, the interrupted
/// neighbours among them.
package final class PassSupervisor {
  /// The passes under one executor.
  package struct Arm {
    let executor: any IterationExecutor
    /// The pass's tests, a group per framework (each framework runs in a process of its own).
    let groups: [[PackageTest]]
    /// Starts the tests given (a subset of one group) as pass `pass`.
    let launch: ([PackageTest], _ pass: Int) throws -> (launch: WorkerLaunch, feed: SuiteEventFeed)

    init(
      executor: any IterationExecutor, groups: [[PackageTest]],
      launch: @escaping ([PackageTest], Int) throws -> (launch: WorkerLaunch, feed: SuiteEventFeed)
    ) {
      self.executor = executor
      self.groups = groups
      self.launch = launch
    }
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

  /// What one test came to under one arm, pass by pass.
  private struct TestState {
    var replicates: [Tally]
    var schedule: RunSchedule?
    var notRun = 0
    var stop: RunStop?
    /// For each test that ran beside this one in a pass where it failed, in how many.
    var failedBeside: [PackageTest: Int] = [:]
    /// Processes that ran it whose events did not add up, run again.
    var rerunForLostEvents = 0
    /// Passes in which a process died before any test started whenever it was among the tests.
    var diedBeforeStarting = 0
    /// Iterations that failed after ``PassSupervisor/slowFailure`` or more.
    var failedSlowly = 0
    /// Its own time: from each start to its end.
    var duration = Duration.zero

    var tally: Tally { replicates.reduce(into: Tally()) { $0.merge($1) } }

    mutating func record(_ outcome: Outcome, example: String? = nil, pass: Int, replicate: Int) {
      replicates[replicate].record(outcome, count: 1, example: example)
      schedule?.noteFailing(index: pass, fingerprint: 0, outcome: outcome)
    }

    /// What one process said of the test: its outcome, its time, and, when it failed, the tests
    /// that ran beside it (`neighbours`).
    mutating func note(_ finished: SuiteEventFeed.Finished, neighbours: [PackageTest], pass: Int, replicate: Int) {
      duration += finished.duration
      record(finished.outcome ?? .passed, example: finished.example, pass: pass, replicate: replicate)
      guard finished.outcome.map({ !$0.isOutsideTheRate }) ?? false else { return }
      if finished.duration >= PassSupervisor.slowFailure { failedSlowly += 1 }
      for neighbour in neighbours { failedBeside[neighbour, default: 0] += 1 }
    }

    /// The run this state comes to, `planned` passes asked; those it did not run and that no
    /// stop explains were cut by `cut`.
    func result(
      of test: PackageTest, under executor: any IterationExecutor, packagePath: String, planned: Int, cutBy cut: RunStop?
    ) -> RunResult {
      let tally = tally
      var result = RunResult(
        RunKey(test: test, executor: executor.id), tally: tally, seconds: 0,
        iterationsAreIndependent: executor.iterationsAreIndependent, schedule: schedule,
        replicates: replicates.filter { $0.iterations > 0 }.map(ReplicateCounts.init))
      result.test = TestReference(test: test, packagePath: packagePath, layout: .suite)
      result.notRun = max(notRun, planned - tally.iterations)
      result.stop = stop ?? (result.notRun > 0 ? cut : nil)
      result.failedBeside = failedBeside
      result.rerunForLostEvents = rerunForLostEvents
      result.testSeconds = duration.seconds
      return result
    }

    /// Why its first passes under the arm settle it there, if they do: each timed out, turned
    /// the executor off, failed only after a long wait, or killed its process before the start,
    /// and every further pass would cost that again to say so.
    var settled: RunStop? {
      let tally = tally
      guard stop == nil, tally.iterations >= Supervisor.settledLimit else { return nil }
      if tally.timedOut == tally.iterations { return .everyIterationTimedOut }
      if tally.executorChanged == tally.iterations { return .everyIterationChangedExecutor }
      if tally.timedOut + failedSlowly == tally.iterations { return .everyIterationFailedSlowly }
      if diedBeforeStarting == tally.iterations { return .everyIterationDiedBeforeStarting }
      return nil
    }
  }

  /// How one process of a pass ended.
  private struct ProcessEnd {
    var finished: [SuiteEventFeed.Finished]
    /// Tests in flight when it ended, with how long each had run.
    var inFlight: [(test: Int, ran: Duration)]
    var status: Int32
    var wasTimedOut: Bool
    var wasReady: Bool
    var output: String
    var scheduleIsUncontrolled: Bool
    var ignoredEvents: Int
    /// The process's events did not add up (``SuiteEventFeed/lostEvents``): none is an outcome.
    var lostEvents: Bool
    var seconds: Duration

    /// Died (a signal or an exit status other than 0) before any test started, nothing lost:
    /// the framework's planning or a class's set-up killed it, for one of its tests.
    var diedBeforeAnyTestStarted: Bool {
      finished.isEmpty && inFlight.isEmpty && !wasTimedOut && !lostEvents && status != 0
    }

    /// How it ended, as a crash: the status and the last lines it printed.
    var crash: Crash { Crash(status: status, lastLines: output, beforeTheTestStarted: diedBeforeAnyTestStarted) }
  }

  /// Runs passes `passes` under every arm, in `replicates` groups of consecutive passes, and
  /// returns a result per arm and test: arms in order, each arm's tests group by group. No pass
  /// of an arm after its first starts when its last pass, taken again, would end past
  /// `deadline` (`--budget`); the tests' passes left are not run, stopped by
  /// ``RunStop/budgetSpent``.
  package func run(
    _ arms: [Arm], passes: Range<Int>, replicates: Int, seed: UInt64, packagePath: String,
    deadline: ContinuousClock.Instant? = nil
  ) throws -> [RunResult] {
    let clock = ContinuousClock()
    let start = clock.now
    let replicateCount = max(1, min(replicates, passes.count))
    var states = arms.map { arm in
      arm.groups.map { group in
        group.map { _ in
          TestState(
            replicates: Array(repeating: Tally(), count: replicateCount),
            schedule: arm.executor.needsDeterministicScheduler ? RunSchedule(seed: seed) : nil)
        }
      }
    }
    var time = Array(repeating: Duration.zero, count: arms.count)
    var ignored = Array(repeating: 0, count: arms.count)
    /// Whether a process of the arm's group got as far as a test: proof that a process dying
    /// before any test started was killed by one of the tests, not by the binary or the lab.
    var testsStarted = arms.map { $0.groups.map { _ in false } }
    var donePasses = 0
    var lastReport = start
    /// The test that took longest in one iteration so far, for the progress line.
    var slowest: (test: String, duration: Duration, executor: ExecutorID)?
    func report(force: Bool = false, inFlight: (test: String, duration: Duration, executor: ExecutorID)? = nil) {
      guard force || clock.now - lastReport > .milliseconds(500) else { return }
      lastReport = clock.now
      let notPassed = states.joined().joined().reduce(0) { $0 + $1.replicates.reduce(0) { $0 + $1.notPassed } }
      var progress = Supervisor.Progress(
        label: "suite passes", done: donePasses, total: passes.count * arms.count, notPassed: notPassed,
        elapsed: clock.now - start)
      progress.slowest = [slowest, inFlight].compactMap { $0 }.max { $0.duration < $1.duration }
      onProgress(progress)
    }
    ProcessTree.becomeSubreaper()
    defer { ProcessTree.reapOrphans(keeping: []) }

    /// The arms the budget stopped, and how long each arm's last pass took: a pass that would
    /// end past the deadline does not start (a slow executor's passes stop before a fast one's).
    var budgetStopped = Array(repeating: false, count: arms.count)
    var lastPass = Array(repeating: Duration.zero, count: arms.count)
    passLoop: for pass in passes {
      let replicate = (pass - passes.lowerBound) * replicateCount / passes.count
      for (armIndex, arm) in arms.enumerated() {
        if let deadline, pass > passes.lowerBound, budgetStopped[armIndex] || clock.now + lastPass[armIndex] > deadline {
          budgetStopped[armIndex] = true
          if budgetStopped.allSatisfy({ $0 }) { break passLoop }
          continue
        }
        let passStart = clock.now
        defer { lastPass[armIndex] = clock.now - passStart }
        for (groupIndex, group) in arm.groups.enumerated() {
          // Positions in the group still to run in this pass; a settled test is left out.
          var remaining = group.indices.filter { states[armIndex][groupIndex][$0].stop == nil }
          var fruitless = 0
          var lostInARow = 0
          while !remaining.isEmpty {
            if InterruptSignal.isRaised {
              wasInterrupted = true
              break passLoop
            }
            let end = try runProcess(arm, tests: remaining.map { group[$0] }, pass: pass) { longest in
              report(inFlight: longest.map { (group[remaining[$0.test]].id, $0.ran, arm.executor.id) })
            }
            if InterruptSignal.isRaised {
              wasInterrupted = true
              break passLoop
            }
            time[armIndex] += end.seconds
            if end.lostEvents {
              // The lab lost some of what the process said, so none of it is an outcome: its
              // tests run again, and a loss that keeps coming back is reported as the lab's.
              for test in remaining { states[armIndex][groupIndex][test].rerunForLostEvents += 1 }
              lostInARow += 1
              if lostInARow >= Supervisor.settledLimit {
                for test in remaining { states[armIndex][groupIndex][test].stop = .eventsLost }
                break
              }
              continue
            }
            lostInARow = 0
            ignored[armIndex] += end.ignoredEvents
            // The process ran `remaining`: map its positions back to the group's.
            let toGroup = remaining
            var done = Set<Int>()
            for finished in end.finished {
              let test = toGroup[finished.test]
              done.insert(test)
              states[armIndex][groupIndex][test].note(
                finished, neighbours: finished.neighbours.map { group[toGroup[$0]] }, pass: pass, replicate: replicate)
              if finished.duration > slowest?.duration ?? .zero {
                slowest = (group[test].id, finished.duration, arm.executor.id)
              }
            }
            if end.scheduleIsUncontrolled {
              for test in group.indices { states[armIndex][groupIndex][test].schedule?.isControlled = false }
            }
            let charged = try charge(
              end, tests: toGroup, group: group, arm: arm, pass: pass,
              into: &states[armIndex][groupIndex], replicate: replicate)
            done.formUnion(charged)
            remaining.removeAll { done.contains($0) }
            if !end.finished.isEmpty || !end.inFlight.isEmpty { testsStarted[armIndex][groupIndex] = true }
            if end.diedBeforeAnyTestStarted, InterruptSignal.isRaised == false,
              let (culprit, alone) = try culpritOfDeathBeforeStart(
                remaining, group: group, arm: arm, pass: pass, testsStarted: &testsStarted[armIndex][groupIndex])
            {
              // Never "did not start": the test whose presence kills the process is charged the
              // crash, with its message, and the others run without it. The crash is the one its
              // process alone came to, so that the two are one outcome.
              states[armIndex][groupIndex][culprit].record(.crashed(alone.crash), pass: pass, replicate: replicate)
              states[armIndex][groupIndex][culprit].diedBeforeStarting += 1
              remaining.removeAll { $0 == culprit }
              continue
            }
            if end.inFlight.isEmpty, !end.wasTimedOut, end.wasReady, end.status & 0x7f == 0 {
              // An exit between tests, no test in flight, that left tests unrun: the binary
              // chose not to run them. Not their outcome.
              for test in remaining { states[armIndex][groupIndex][test].notRun += 1 }
              break
            }
            fruitless = done.isEmpty ? fruitless + 1 : 0
            if fruitless >= Supervisor.startFailureLimit {
              // Processes that end before any test finishes would do so every time.
              for test in remaining {
                states[armIndex][groupIndex][test].stop = .neverStarted
              }
              break
            }
          }
          // A test settled in its first passes under this arm leaves the rest there.
          for test in group.indices {
            if let settled = states[armIndex][groupIndex][test].settled { states[armIndex][groupIndex][test].stop = settled }
          }
        }
        donePasses += 1
        report(force: donePasses == passes.count * arms.count)
      }
    }
    return arms.enumerated().flatMap { armIndex, arm in
      arm.groups.enumerated().flatMap { groupIndex, group in
        group.enumerated().map { position, test in
          var result = states[armIndex][groupIndex][position].result(
            of: test, under: arm.executor, packagePath: packagePath, planned: passes.count,
            cutBy: wasInterrupted ? .interrupted : budgetStopped[armIndex] ? .budgetSpent : nil)
          result.seconds = time[armIndex].seconds
          result.ignoredEvents = ignored[armIndex]
          return result
        }
      }
    }
  }

  /// Charges a crash or a hang to the tests in flight (see the type's comment); returns the
  /// positions charged.
  private func charge(
    _ end: ProcessEnd, tests: [Int], group: [PackageTest], arm: Arm, pass: Int,
    into states: inout [TestState], replicate: Int
  ) throws -> Set<Int> {
    guard !end.inFlight.isEmpty else { return [] }
    // At a hang, those in flight for the whole timeout hung; the rest were cut short and run
    // again. A test that stops its process (SIGSTOP, a deadlocked pool) hangs every test in
    // flight beside it, so several that hung are suspects, as several in flight at a crash are.
    let suspects =
      end.wasTimedOut
      ? end.inFlight.filter { $0.ran >= timeout }.map { tests[$0.test] }.sorted()
      : end.inFlight.map { tests[$0.test] }.sorted()
    if suspects.count == 1 {
      states[suspects[0]].record(end.wasTimedOut ? .timedOut : .crashed(end.crash), pass: pass, replicate: replicate)
      return [suspects[0]]
    }
    guard !suspects.isEmpty else { return [] }
    // Which one hung or crashed? Each runs alone once.
    var culprits: [(test: Int, outcome: Outcome)] = []
    for test in suspects {
      let alone = try runProcess(arm, tests: [group[test]], pass: pass)
      // Alone, a hang is the test's, whether or not its start was read before it.
      if alone.wasTimedOut {
        culprits.append((test, .timedOut))
      } else if !alone.inFlight.isEmpty {
        culprits.append((test, .crashed(alone.crash)))
      }
    }
    func others(_ test: Int) -> [PackageTest] { suspects.filter { $0 != test }.map { group[$0] } }
    if culprits.isEmpty, end.wasTimedOut {
      // Only together: they hang one another.
      for test in suspects { states[test].record(.timedOut, pass: pass, replicate: replicate) }
      return Set(suspects)
    }
    if culprits.isEmpty {
      for test in suspects {
        states[test].record(.crashed(end.crash.beside(others(test), crashedAlone: false)), pass: pass, replicate: replicate)
      }
      return Set(suspects)
    }
    for (test, outcome) in culprits {
      let charged: Outcome =
        if case .crashed(let crash) = outcome { .crashed(crash.beside(others(test), crashedAlone: true)) } else { outcome }
      states[test].record(charged, pass: pass, replicate: replicate)
    }
    return Set(culprits.map(\.test))
  }

  /// The test among `suspects` whose presence kills a process before any test starts, with how
  /// its process alone ended: halves of the suspects run until one test is left (about log₂ n
  /// processes), which must die alone too. Nil when none does, or when no process of the group
  /// has yet run a test, so that a binary that cannot start at all is never one test's crash.
  private func culpritOfDeathBeforeStart(
    _ suspects: [Int], group: [PackageTest], arm: Arm, pass: Int, testsStarted: inout Bool
  ) throws -> (test: Int, alone: ProcessEnd)? {
    func startsATest(_ tests: [Int]) throws -> ProcessEnd {
      let end = try runProcess(arm, tests: tests.map { group[$0] }, pass: pass)
      if !end.finished.isEmpty || !end.inFlight.isEmpty { testsStarted = true }
      return end
    }
    let all = suspects
    var suspects = suspects
    while suspects.count > 1, !InterruptSignal.isRaised {
      let half = Array(suspects.prefix(suspects.count / 2))
      suspects = try startsATest(half).diedBeforeAnyTestStarted ? half : Array(suspects.dropFirst(half.count))
    }
    guard let test = suspects.first, !InterruptSignal.isRaised else { return nil }
    let alone = try startsATest([test])
    guard alone.diedBeforeAnyTestStarted else { return nil }
    if !testsStarted, let other = all.first(where: { $0 != test }) { _ = try startsATest([other]) }
    return testsStarted ? (test, alone) : nil
  }

  /// Runs `tests` as pass `pass` in one process, until it exits, hangs or is interrupted;
  /// `onTick` is told now and then which test has been in flight longest.
  private func runProcess(
    _ arm: Arm, tests: [PackageTest], pass: Int, onTick: ((test: Int, ran: Duration)?) -> Void = { _ in }
  ) throws -> ProcessEnd {
    let clock = ContinuousClock()
    let (launch, feed) = try arm.launch(tests, pass)
    let worker = try WorkerProcess(launch, indices: pass..<(pass + 1))
    let started = clock.now
    var scratch = Tally()
    var noSchedule: RunSchedule?
    var finished: [SuiteEventFeed.Finished] = []
    var status: Int32?
    var idleSince: ContinuousClock.Instant?
    while status == nil {
      usleep(Supervisor.pollInterval)
      worker.poll(into: &scratch, schedule: &noSchedule)
      finished += feed.drain()
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
      onTick(feed.inFlight.min { $0.value < $1.value }.map { ($0.key, now - $0.value) })
      // Between tests nothing is in flight, briefly; a process stopped or stuck there (its
      // next start never written) hangs as surely as a test does.
      idleSince = feed.inFlight.isEmpty && finished.count < tests.count ? idleSince ?? now : nil
      let hung =
        feed.inFlight.values.contains { now - $0 > timeout }
        || (feed.workerIsReady && idleSince.map { now - $0 > timeout } ?? false)
      if hung || (!feed.workerIsReady && now - started > Supervisor.startLimit) {
        worker.wasTimedOut = true
        worker.kill()
        status = worker.reap(waiting: true)
      }
    }
    worker.collectFinal(status: status ?? 0, into: &scratch, schedule: &noSchedule)
    finished += feed.drain()
    let now = clock.now
    return ProcessEnd(
      finished: finished, inFlight: feed.inFlight.map { ($0.key, now - $0.value) }.sorted { $0.test < $1.test },
      status: status ?? 0, wasTimedOut: worker.wasTimedOut, wasReady: feed.workerIsReady,
      output: worker.lastOutputLines(), scheduleIsUncontrolled: feed.scheduleIsUncontrolled,
      ignoredEvents: feed.ignoredEvents, lostEvents: feed.lostEvents, seconds: now - started)
  }
}

/// The decisions of suite passes over one group of tests (one framework's, in processes of their
/// own) under one executor: which tests the next process runs, what a process that ended means
/// for each test, which test a crash or a hang is charged to, when a test is settled, and how a
/// pass resumes. It is fed how each process ended and answers with the next process to start;
/// it starts none itself (``PassSupervisor`` does), so every decision is tested without one.
///
/// A crash or a hang ends a process, not a pass. A hang (a test in flight longer than the
/// timeout) is charged to the test in flight that long, a crash to the one test in flight. When
/// several were in flight, each runs alone, once, and a crash is charged to those that crash
/// alone too (a hang to those that hang alone), or, when none does, to all of them (a ``Crash``
/// that says so): never one, silently, and never a bystander. A process that dies before any test starts is bisected
/// to the test whose presence kills it. Either way the pass resumes with the tests it has not run.
///
/// A pass of tests alone (``TestReference/ProcessLayout/alone``) gives each test a process of its
/// own, one after another: the same decisions, over a process's one test.
struct SuitePassMachine {
  enum Action: Equatable {
    /// Start a process running these tests (positions in the group), in this order.
    case run([Int])
    /// The pass over the group is over.
    case passDone
  }

  let group: [PackageTest]
  let timeout: Duration
  /// Whether each process of a pass runs one test, with none beside it.
  let testsAlone: Bool
  private(set) var states: [TestState]
  /// Whether a test of the group has not passed in some pass.
  var hasAFailure: Bool { states.contains { $0.tally.notPassed > 0 } }
  /// Whether a process of the group got as far as a test: proof that a process dying before any
  /// test started was killed by one of the tests, not by the binary or the lab.
  private(set) var testsStarted = false
  /// The time of the pass processes (not of the runs alone), and the event lines they wrote
  /// that fit no test.
  private(set) var seconds = Duration.zero
  private(set) var ignoredEvents = 0
  private var pass = 0
  private var replicate = 0
  private var phase = Phase.idle

  /// Where a pass is: the tests it has yet to run, processes in a row that finished none, and
  /// processes in a row whose events the lab lost.
  private struct Progress {
    var remaining: [Int]
    var fruitless = 0
    var lostInARow = 0
  }

  /// A pass process that ended, while the runs it calls for are under way: what to resume with.
  private struct Resume {
    var progress: Progress
    /// The tests the process was given.
    let ran: [Int]
    let end: PassProcessEnd
    var done: Set<Int>
  }

  private enum Phase {
    case idle
    /// A pass process of `progress.remaining` is under way.
    case running(Progress)
    /// The suspects of a crash or a hang run alone one after another; `suspects[next]` is.
    case suspectsAlone(Resume, suspects: [Int], next: Int, culprits: [(test: Int, outcome: Outcome)])
    /// Halves of `suspects` run to find the test whose presence kills the process before any
    /// test starts; `trying` is under way.
    case bisecting(Resume, all: [Int], suspects: [Int], trying: [Int])
    /// The last suspect runs alone, to die before the start too.
    case confirmingDeath(Resume, all: [Int], test: Int)
    /// Another test runs alone, to show the binary can start one at all.
    case provingStart(Resume, test: Int, alone: PassProcessEnd)
  }

  init(group: [PackageTest], timeout: Duration, replicates: Int, schedule: RunSchedule?, testsAlone: Bool = false) {
    self.group = group
    self.timeout = timeout
    self.testsAlone = testsAlone
    states = group.map { _ in TestState(replicates: Array(repeating: Tally(), count: replicates), schedule: schedule) }
  }

  /// Starts pass `pass`, counted in `replicate`: every test not settled, in the group's order.
  mutating func startPass(_ pass: Int, replicate: Int) -> Action {
    self.pass = pass
    self.replicate = replicate
    return next(Progress(remaining: group.indices.filter { states[$0].stop == nil }))
  }

  /// The process the last action started ended as `end`.
  mutating func ended(_ end: PassProcessEnd) -> Action {
    switch phase {
    case .idle: preconditionFailure("no process of the group was under way")
    case .running(let progress): return passProcessEnded(end, progress)
    case .suspectsAlone(let resume, let suspects, let next, var culprits):
      return suspectAloneEnded(end, resume, suspects: suspects, next: next, culprits: &culprits)
    case .bisecting(let resume, let all, let suspects, let trying):
      noteStart(end)
      return bisect(
        resume, all: all, suspects: end.diedBeforeAnyTestStarted ? trying : Array(suspects.dropFirst(trying.count)))
    case .confirmingDeath(let resume, let all, let test):
      noteStart(end)
      return deathConfirmed(end, resume, all: all, test: test)
    case .provingStart(let resume, let test, let alone):
      noteStart(end)
      return end.startedATest ? culprit(test, alone: alone, resume) : afterDeathCheck(resume)
    }
  }

  /// Every test's run over passes `planned` under `executor`; the passes none of their stops
  /// explains were cut by `cut`.
  func results(
    under executor: any IterationExecutor, packagePath: String, planned: Int, cutBy cut: RunStop?
  ) -> [RunResult] {
    zip(group, states).map { test, state in
      state.result(of: test, under: executor, packagePath: packagePath, planned: planned, cutBy: cut)
    }
  }

  private mutating func next(_ progress: Progress) -> Action {
    guard !progress.remaining.isEmpty else { return passDone() }
    phase = .running(progress)
    return .run(given(progress))
  }

  /// The tests the next process of a pass runs: every one left, or the first alone.
  private func given(_ progress: Progress) -> [Int] {
    testsAlone ? Array(progress.remaining.prefix(1)) : progress.remaining
  }

  /// A test settled in its first passes leaves the rest of them.
  private mutating func passDone() -> Action {
    for index in states.indices {
      if let settled = states[index].settled { states[index].stop = settled }
    }
    phase = .idle
    return .passDone
  }

  private mutating func passProcessEnded(_ end: PassProcessEnd, _ progress: Progress) -> Action {
    var progress = progress
    seconds += end.exit.lifetime
    // The process ran `ran`: its positions map back to the group's.
    let ran = given(progress)
    if end.lostEvents {
      // The lab lost some of what the process said, so none of it is an outcome: its tests run
      // again, and a loss that keeps coming back is reported as the lab's.
      for test in ran { states[test].rerunForLostEvents += 1 }
      progress.lostInARow += 1
      guard progress.lostInARow < RunSettling.limit else {
        for test in ran { states[test].stop = .eventsLost }
        progress.remaining.removeAll { ran.contains($0) }
        progress.lostInARow = 0
        return next(progress)
      }
      return next(progress)
    }
    progress.lostInARow = 0
    ignoredEvents += end.ignoredEvents
    var done = Set<Int>()
    for finished in end.finished {
      let test = ran[finished.test]
      done.insert(test)
      let origin = finished.origin.map { group[ran[$0]] }
      let neighbours = finished.neighbours.map { group[ran[$0]] }
      states[test].note(finished, neighbours: neighbours, origin: origin, pass: pass, replicate: replicate)
    }
    if end.scheduleIsUncontrolled {
      for index in states.indices { states[index].schedule?.isControlled = false }
    }
    noteStart(end)
    return charge(Resume(progress: progress, ran: ran, end: end, done: done), ran: ran)
  }

  /// Charges a crash or a hang to the tests in flight, running them alone first when several were.
  private mutating func charge(_ resume: Resume, ran: [Int]) -> Action {
    var resume = resume
    let end = resume.end
    // At a hang, those in flight for the whole timeout hung; the rest were cut short and run
    // again. A test that stops its process (SIGSTOP, a deadlocked pool) hangs every test in
    // flight beside it, so several that hung are suspects, as several in flight at a crash are.
    let suspects = end.inFlight.filter { !end.wasTimedOut || $0.ran >= timeout }.map { ran[$0.test] }.sorted()
    if suspects.count == 1 {
      record(end.wasTimedOut ? .timedOut : .crashed(end.crash), to: suspects[0])
      resume.done.insert(suspects[0])
    }
    guard suspects.count > 1 else { return afterCharge(resume) }
    phase = .suspectsAlone(resume, suspects: suspects, next: 0, culprits: [])
    return .run([suspects[0]])
  }

  private mutating func suspectAloneEnded(
    _ alone: PassProcessEnd, _ resume: Resume, suspects: [Int], next: Int,
    culprits: inout [(test: Int, outcome: Outcome)]
  ) -> Action {
    // Alone, a hang is the test's, whether or not its start was read before it. Only the same
    // end makes a culprit: a test that hangs alone did not crash the pass's process (it hangs
    // again when the pass resumes), nor did one that crashes alone hang it.
    if alone.wasTimedOut, resume.end.wasTimedOut {
      culprits.append((suspects[next], .timedOut))
    } else if !alone.wasTimedOut, !alone.inFlight.isEmpty, !resume.end.wasTimedOut {
      culprits.append((suspects[next], .crashed(alone.crash)))
    }
    if next + 1 < suspects.count {
      phase = .suspectsAlone(resume, suspects: suspects, next: next + 1, culprits: culprits)
      return .run([suspects[next + 1]])
    }
    var resume = resume
    func others(_ test: Int) -> [PackageTest] { suspects.filter { $0 != test }.map { group[$0] } }
    if culprits.isEmpty {
      // None alone: a hang of them together, or a crash the suite's, not any one test's.
      for test in suspects {
        record(
          resume.end.wasTimedOut ? .timedOut : .crashed(resume.end.crash.beside(others(test), crashedAlone: false)),
          to: test)
      }
      resume.done.formUnion(suspects)
    }
    for (test, outcome) in culprits {
      if case .crashed(let crash) = outcome {
        record(.crashed(crash.beside(others(test), crashedAlone: true)), to: test)
      } else {
        record(outcome, to: test)
      }
      resume.done.insert(test)
    }
    return afterCharge(resume)
  }

  private mutating func afterCharge(_ resume: Resume) -> Action {
    var resume = resume
    resume.progress.remaining.removeAll { resume.done.contains($0) }
    let unrun = resume.ran.filter { !resume.done.contains($0) }
    guard resume.end.diedBeforeAnyTestStarted, !unrun.isEmpty else { return afterDeathCheck(resume) }
    return bisect(resume, all: resume.progress.remaining, suspects: unrun)
  }

  /// Halves of the suspects run until one test is left (about log₂ n processes), which must die
  /// alone too; none is charged while no process of the group has run a test, so that a binary
  /// that cannot start at all is never one test's crash.
  private mutating func bisect(_ resume: Resume, all: [Int], suspects: [Int]) -> Action {
    if suspects.count > 1 {
      let half = Array(suspects.prefix(suspects.count / 2))
      phase = .bisecting(resume, all: all, suspects: suspects, trying: half)
      return .run(half)
    }
    guard let test = suspects.first else { return afterDeathCheck(resume) }
    phase = .confirmingDeath(resume, all: all, test: test)
    return .run([test])
  }

  private mutating func deathConfirmed(_ alone: PassProcessEnd, _ resume: Resume, all: [Int], test: Int) -> Action {
    guard alone.diedBeforeAnyTestStarted else { return afterDeathCheck(resume) }
    if !testsStarted, let other = all.first(where: { $0 != test }) {
      phase = .provingStart(resume, test: test, alone: alone)
      return .run([other])
    }
    return testsStarted ? culprit(test, alone: alone, resume) : afterDeathCheck(resume)
  }

  /// Never "did not start": the test whose presence kills the process is charged the crash its
  /// process alone came to, and the pass resumes without it.
  private mutating func culprit(_ test: Int, alone: PassProcessEnd, _ resume: Resume) -> Action {
    record(.crashed(alone.crash), to: test)
    states[test].diedBeforeStarting += 1
    var progress = resume.progress
    progress.remaining.removeAll { $0 == test }
    return next(progress)
  }

  private mutating func afterDeathCheck(_ resume: Resume) -> Action {
    var progress = resume.progress
    let end = resume.end
    let unrun = resume.ran.filter { !resume.done.contains($0) && progress.remaining.contains($0) }
    if end.inFlight.isEmpty, !end.wasTimedOut, end.exit.wasReady, end.exit.status & 0x7f == 0, !unrun.isEmpty {
      // An exit between tests, none in flight, that left tests unrun: the binary chose not to
      // run them. Not their outcome.
      for test in unrun { states[test].notRun += 1 }
      progress.remaining.removeAll { unrun.contains($0) }
      return next(progress)
    }
    progress.fruitless = resume.done.isEmpty ? progress.fruitless + 1 : 0
    guard progress.fruitless < RunSettling.startFailureLimit else {
      // Processes that end before any test finishes would do so every time: alone, those of the
      // one test, unless no process of the group ever started a test (the binary cannot).
      let never = testsAlone && testsStarted ? resume.ran.filter(progress.remaining.contains) : progress.remaining
      for test in never { states[test].stop = .neverStarted }
      progress.remaining.removeAll { never.contains($0) }
      progress.fruitless = 0
      return next(progress)
    }
    return next(progress)
  }

  private mutating func record(_ outcome: Outcome, to test: Int) {
    states[test].record(outcome, pass: pass, replicate: replicate)
  }

  /// Notes whether `end`'s process got as far as a test.
  private mutating func noteStart(_ end: PassProcessEnd) {
    if end.startedATest { testsStarted = true }
  }
}

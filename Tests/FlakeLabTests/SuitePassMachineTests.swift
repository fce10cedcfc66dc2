import XCTest

@testable import FlakeLab

/// The decisions of suite passes, fed how processes ended, with no process at all: who a crash
/// or a hang is charged to, how a pass resumes, when a test settles, and the budget.
final class SuitePassMachineTests: XCTestCase {
  private let tests = ["a()", "b()", "c()"].map { PackageTest(id: "M.S/\($0)", framework: .swiftTesting) }

  private func machine() -> SuitePassMachine {
    SuitePassMachine(group: tests, timeout: .seconds(10), replicates: 1, schedule: nil)
  }

  /// A process that ran `ran` (positions in the group): `passed` finished (positions in `ran`),
  /// `inFlight` still running when it ended with `status`.
  private func end(
    passed: [Int] = [], inFlight: [(Int, Duration)] = [], status: Int32 = SIGILL, timedOut: Bool = false,
    ready: Bool = true, lost: Bool = false
  ) -> SuitePassMachine.PassProcessEnd {
    SuitePassMachine.PassProcessEnd(
      exit: ProcessExit(
        status: status, wasTimedOut: timedOut, wasReady: ready, output: "Fatal error: boom",
        lifetime: .milliseconds(50)),
      finished: passed.map { .init(test: $0, outcome: nil, example: nil, neighbours: [], duration: .milliseconds(5)) },
      inFlight: inFlight.map { (test: $0.0, ran: $0.1) }, scheduleIsUncontrolled: false, ignoredEvents: 0,
      lostEvents: lost)
  }

  private func outcomes(_ machine: SuitePassMachine) -> [[Outcome]] {
    machine.states.map { state in
      state.tally.outcomesByFrequency.map(\.outcome) + Array(repeating: .passed, count: state.tally.passed)
    }
  }

  func testACrashWithSeveralInFlightNoneOfWhichCrashesAloneIsChargedToThemAllAsTheSuites() {
    var machine = machine()
    XCTAssertEqual(machine.startPass(0, replicate: 0), .run([0, 1, 2]))
    // a() passed; b() and c() were in flight at the crash: each runs alone.
    XCTAssertEqual(machine.ended(end(passed: [0], inFlight: [(1, .seconds(1)), (2, .seconds(1))])), .run([1]))
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .run([2]))
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .passDone)
    let crash = Crash(status: SIGILL, lastLines: "Fatal error: boom")
    XCTAssertEqual(
      outcomes(machine),
      [
        [.passed], [.crashed(crash.beside([tests[2]], crashedAlone: false))],
        [.crashed(crash.beside([tests[1]], crashedAlone: false))],
      ])
    XCTAssertTrue(machine.states[1].tally.outcomesByFrequency[0].outcome.isCrashBesideOthers)
  }

  /// A test that hangs alone did not crash the pass: with none crashing alone, the crash is the
  /// suite's, charged to every test in flight (found running the CIJob fixture: a test that
  /// crashes only once was reported passing, its crash charged to nobody).
  func testATestThatHangsAloneIsNoCulpritOfACrash() {
    var machine = machine()
    _ = machine.startPass(0, replicate: 0)
    XCTAssertEqual(machine.ended(end(inFlight: [(0, .seconds(1)), (1, .seconds(1))])), .run([0]))
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .run([1]))
    XCTAssertEqual(machine.ended(end(inFlight: [(0, .seconds(11))], status: SIGKILL, timedOut: true)), .run([2]))
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .passDone)
    XCTAssertTrue(machine.states[0].tally.outcomesByFrequency.first?.outcome.isCrashBesideOthers ?? false)
    XCTAssertTrue(machine.states[1].tally.outcomesByFrequency.first?.outcome.isCrashBesideOthers ?? false)
  }

  func testACrashIsChargedToTheOneThatCrashesAloneAndThePassResumesWithTheOther() {
    var machine = machine()
    _ = machine.startPass(0, replicate: 0)
    XCTAssertEqual(machine.ended(end(inFlight: [(0, .seconds(1)), (1, .seconds(1))])), .run([0]))
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .run([1]))
    XCTAssertEqual(
      machine.ended(end(inFlight: [(0, .seconds(1))])), .run([0, 2]), "b() crashed alone; a() and c() run again")
    XCTAssertEqual(machine.ended(end(passed: [0, 1], status: 0)), .passDone)
    let crash = Crash(status: SIGILL, lastLines: "Fatal error: boom")
    XCTAssertEqual(outcomes(machine), [[.passed], [.crashed(crash.beside([tests[0]], crashedAlone: true))], [.passed]])
  }

  func testAHangIsChargedToTheTestInFlightForTheWholeTimeoutAndSettlesItAfterThree() {
    var machine = machine()
    for pass in 0..<3 {
      XCTAssertEqual(machine.startPass(pass, replicate: 0), .run([0, 1, 2]))
      // b() hung; c() had only just started: it runs again with the rest.
      XCTAssertEqual(
        machine.ended(
          end(passed: [0], inFlight: [(1, .seconds(11)), (2, .seconds(1))], status: SIGKILL, timedOut: true)),
        .run([2]))
      XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .passDone)
    }
    XCTAssertEqual(machine.states[1].stop, .everyIterationTimedOut)
    XCTAssertEqual(machine.startPass(3, replicate: 0), .run([0, 2]), "a settled test leaves the later passes")
    XCTAssertEqual(machine.ended(end(passed: [0, 1], status: 0)), .passDone)
    let results = machine.results(under: GlobalExecutor(), packagePath: ".", planned: 4, cutBy: nil)
    XCTAssertEqual(results.map(\.tally.iterations), [4, 3, 4])
    XCTAssertEqual(results[1].notRun, 1)
    XCTAssertEqual(results[1].stop, .everyIterationTimedOut)
  }

  /// A process that finished every test and then never exited (a stop that took effect after
  /// the last test ended, an exit stuck in teardown) is killed at the timeout: what its tests
  /// said stands, and nothing is charged to any of them.
  func testAProcessThatHangsAfterItsLastTestLosesNothing() {
    var machine = machine()
    _ = machine.startPass(0, replicate: 0)
    XCTAssertEqual(machine.ended(end(passed: [0, 1, 2], status: SIGKILL, timedOut: true)), .passDone)
    XCTAssertEqual(machine.states.map(\.tally.passed), [1, 1, 1])
    XCTAssertEqual(machine.states.map(\.tally.iterations), [1, 1, 1])
  }

  func testAProcessThatDiesBeforeAnyTestStartsIsBisectedToTheTestThatKillsIt() {
    var machine = machine()
    // A first process shows the binary starts tests at all.
    _ = machine.startPass(0, replicate: 0)
    XCTAssertEqual(machine.ended(end(passed: [0, 1, 2], status: 0)), .passDone)
    XCTAssertEqual(machine.startPass(1, replicate: 0), .run([0, 1, 2]))
    XCTAssertEqual(machine.ended(end(status: SIGILL)), .run([0]), "the first half")
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .run([1]), "a() starts: the killer is among b() and c()")
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .run([2]), "b() starts too: c(), alone, must die")
    XCTAssertEqual(machine.ended(end(status: SIGILL)), .run([0, 1]), "c() dies alone too; the pass resumes without it")
    XCTAssertEqual(machine.ended(end(passed: [0, 1], status: 0)), .passDone)
    guard case .crashed(let crash)? = machine.states[2].tally.outcomesByFrequency.first?.outcome else {
      return XCTFail()
    }
    XCTAssertTrue(crash.beforeTheTestStarted)
    XCTAssertEqual(machine.states[2].diedBeforeStarting, 1)
  }

  func testEventsLostThreeTimesInARowAreTheLabsAndNoOutcome() {
    var machine = machine()
    _ = machine.startPass(0, replicate: 0)
    XCTAssertEqual(machine.ended(end(passed: [0], lost: true)), .run([0, 1, 2]))
    XCTAssertEqual(machine.ended(end(passed: [0], lost: true)), .run([0, 1, 2]))
    XCTAssertEqual(machine.ended(end(passed: [0], lost: true)), .passDone)
    XCTAssertEqual(machine.states.map(\.stop), [.eventsLost, .eventsLost, .eventsLost])
    XCTAssertEqual(machine.states.map(\.tally.iterations), [0, 0, 0])
    XCTAssertEqual(machine.states.map(\.rerunForLostEvents), [3, 3, 3])
  }

  func testAnExitBetweenTestsLeavesTheRestNotRunNotFailed() {
    var machine = machine()
    _ = machine.startPass(0, replicate: 0)
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .passDone)
    XCTAssertEqual(machine.states.map(\.notRun), [0, 1, 1])
    XCTAssertEqual(machine.states.map(\.tally.notPassed), [0, 0, 0])
  }

  /// A pass of tests alone gives each a process; what a process comes to is its one test's.
  func testAPassOfTestsAloneRunsEachInAProcessAndChargesEachItsOwnEnd() {
    var machine = SuitePassMachine(group: tests, timeout: .seconds(10), replicates: 1, schedule: nil, testsAlone: true)
    XCTAssertEqual(machine.startPass(0, replicate: 0), .run([0]))
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .run([1]))
    XCTAssertEqual(machine.ended(end(inFlight: [(0, .seconds(1))])), .run([2]), "b() crashed: charged, and on")
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .passDone)
    let crash = Crash(status: SIGILL, lastLines: "Fatal error: boom")
    XCTAssertEqual(outcomes(machine), [[.passed], [.crashed(crash)], [.passed]])

    // One that dies before it starts, alone twice, is charged that; one the binary leaves unrun
    // is not run, and neither ends the pass for the others.
    XCTAssertEqual(machine.startPass(1, replicate: 0), .run([0]))
    XCTAssertEqual(machine.ended(end(status: SIGILL)), .run([0]), "a() alone again, to die before the start again")
    XCTAssertEqual(machine.ended(end(status: SIGILL)), .run([1]))
    XCTAssertEqual(machine.ended(end(status: 0)), .run([2]), "b() not run by the binary")
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .passDone)
    XCTAssertEqual(machine.states.map(\.diedBeforeStarting), [1, 0, 0])
    XCTAssertEqual(machine.states.map(\.notRun), [0, 1, 0])
    XCTAssertEqual(machine.states.map(\.tally.passed), [1, 0, 2])

    // Events lost three times in a row are the lab's, for that test only.
    XCTAssertEqual(machine.startPass(2, replicate: 0), .run([0]))
    XCTAssertEqual(machine.ended(end(passed: [0], lost: true)), .run([0]))
    XCTAssertEqual(machine.ended(end(passed: [0], lost: true)), .run([0]))
    XCTAssertEqual(machine.ended(end(passed: [0], lost: true)), .run([1]))
    XCTAssertEqual(machine.states.map(\.stop), [.eventsLost, nil, nil])
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .run([2]))
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .passDone)

    // A test whose processes die before it starts, but not every time it is tried alone, never
    // starts after three such processes; the others still run.
    XCTAssertEqual(machine.startPass(3, replicate: 0), .run([1]))
    for _ in 0..<2 {
      XCTAssertEqual(machine.ended(end(status: SIGILL)), .run([1]))
      XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .run([1]), "it started when tried again: no culprit")
    }
    XCTAssertEqual(machine.ended(end(status: SIGILL)), .run([1]))
    XCTAssertEqual(machine.ended(end(passed: [0], status: 0)), .run([2]))
    XCTAssertEqual(machine.states[1].stop, .neverStarted)
    XCTAssertNil(machine.states[2].stop)
  }

  func testTheBudgetStopsAnArmWhosePassWouldEndPastTheScreensHalf() {
    let start = ContinuousClock.now
    var budget = PassBudget(series: 2, budget: TestBudget(.seconds(20), from: start, diagnosisFollows: true))
    XCTAssertTrue(budget.allows(series: 0, isFirstPass: true, now: start + .seconds(20)), "the first pass always runs")
    budget.passTook(.seconds(6), series: 0, failed: true)
    budget.passTook(.seconds(1), series: 1, failed: false)
    XCTAssertTrue(budget.sawAFailure, "a failure stays seen")
    XCTAssertFalse(budget.allows(series: 0, isFirstPass: false, now: start + .seconds(5)))
    XCTAssertTrue(budget.allows(series: 1, isFirstPass: false, now: start + .seconds(5)))
    XCTAssertFalse(budget.stoppedEverySeries)
    XCTAssertFalse(budget.allows(series: 0, isFirstPass: false, now: start), "a stopped arm stays stopped")
    XCTAssertEqual(budget.stopped, [true, false])
    // The passes alone, which no answer needs, are bound from their first.
    var alone = PassBudget(
      series: 2, budget: TestBudget(.seconds(20), from: start, diagnosisFollows: true), boundFromTheirFirstPass: [1])
    alone.passTook(.seconds(1), series: 0, failed: true)
    XCTAssertTrue(alone.allows(series: 0, isFirstPass: true, now: start + .seconds(20)))
    XCTAssertFalse(alone.allows(series: 1, isFirstPass: true, now: start + .seconds(20)))
    XCTAssertEqual(alone.stopped, [false, true])
  }

  /// Until a test fails there is nothing to diagnose: the screen goes on past the half, to the
  /// budget's end less what the sanitizer keeps, and stops at the half once one has.
  func testTheScreenGoesOnPastTheHalfWhileNoTestHasFailed() {
    let start = ContinuousClock.now
    let twenty = TestBudget(.seconds(20), from: start, diagnosisFollows: true)
    func budget(_ whole: TestBudget = twenty, failed: Bool) -> PassBudget {
      var budget = PassBudget(series: 1, budget: whole)
      budget.passTook(.seconds(4), series: 0, failed: failed)
      return budget
    }
    var quiet = budget(failed: false)
    XCTAssertTrue(quiet.allows(series: 0, isFirstPass: false, now: start + .seconds(15)))
    XCTAssertFalse(quiet.allows(series: 0, isFirstPass: false, now: start + .seconds(17)))
    var failed = budget(failed: true)
    XCTAssertFalse(failed.allows(series: 0, isFirstPass: false, now: start + .seconds(7)))
    var kept = budget(twenty.keeping(1.0 / 4), failed: false)
    XCTAssertTrue(kept.allows(series: 0, isFirstPass: false, now: start + .seconds(11)))
    XCTAssertFalse(
      kept.allows(series: 0, isFirstPass: false, now: start + .seconds(12)), "the sanitizer's share is kept")
    // Without a diagnosis after it, the screen had the whole budget already.
    var alone = budget(TestBudget(.seconds(20), from: start, diagnosisFollows: false), failed: true)
    XCTAssertTrue(alone.allows(series: 0, isFirstPass: false, now: start + .seconds(15)))
  }
}

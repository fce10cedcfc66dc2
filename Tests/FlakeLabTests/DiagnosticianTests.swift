import XCTest

@testable import FlakeLab

/// The diagnosis rules on counts given outright: which contrast decides, and when the evidence
/// is too thin for one.
final class DiagnosticianTests: XCTestCase {
  private let test = PackageTest(id: "M.race()", framework: .swiftTesting)

  private func run(_ executor: ExecutorID, _ layout: TestReference.ProcessLayout, failed: Int, of ran: Int) -> RunResult {
    var tally = Tally()
    tally.record(.passed, count: ran - failed)
    tally.record(.failed(observation: "x"), count: failed)
    var result = RunResult(
      RunKey(scenario: "M", variant: "race()", executor: executor), tally: tally, seconds: 1,
      iterationsAreIndependent: executor != .global)
    result.test = TestReference(test: test, packagePath: ".", layout: layout)
    return result
  }

  /// A drill-down cut short (three iterations an arm): a test that failed in half the suite
  /// passes under global and never alone in six global iterations is no interference (a global
  /// rate moves between processes, and six alone are fewer than the twelve passes); nor is it
  /// called a race, which fails alone too: undetermined. Once it fails alone under global, the
  /// contrast with one queue calls it a race.
  func testFewIterationsAloneDoNotMakeARaceInterference() {
    var runs = [
      run(.global, .suite, failed: 6, of: 12), run(.serial, .suite, failed: 0, of: 12),
      run(.global, .repetitions, failed: 0, of: 3), run(.serial, .repetitions, failed: 0, of: 3),
      run(.seeded, .repetitions, failed: 0, of: 3), run(.global, .fresh, failed: 0, of: 3),
    ]
    let (verdict, diagnosis) = Diagnostician.judge(runs, confidence: 0.95)
    XCTAssertEqual(verdict, .flaky)
    XCTAssertEqual(diagnosis, .undetermined)
    runs[2] = run(.global, .repetitions, failed: 1, of: 3)
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .needsParallelism)
  }

  /// A race's first runs are mostly global (suite passes, fresh processes), its warm ones mostly
  /// on one queue, where it never fails: pooled over executors, first runs "fail more" (a
  /// default run once called FlakeKinds' race() first-run). Compared like with like, it is
  /// the race it is.
  func testFirstRunsAreComparedWithWarmRunsUnderTheSameExecutors() {
    let runs = [
      run(.global, .suite, failed: 12, of: 20), run(.serial, .suite, failed: 0, of: 20),
      run(.global, .repetitions, failed: 16, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
      run(.seeded, .repetitions, failed: 0, of: 40), run(.global, .fresh, failed: 14, of: 20),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .needsParallelism)
  }

  /// Every suite pass failed under global, and at least as many iterations alone passed under
  /// global: interference.
  func testFailingInEverySuitePassAndNeverAloneIsInterference() {
    let runs = [
      run(.global, .suite, failed: 8, of: 8), run(.serial, .suite, failed: 0, of: 8),
      run(.global, .repetitions, failed: 0, of: 6), run(.serial, .repetitions, failed: 0, of: 40),
      run(.seeded, .repetitions, failed: 0, of: 3), run(.global, .fresh, failed: 0, of: 3),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .interference)
  }

  /// Ctrl-C in the drill-down: arms of 0 of 0 say nothing, so no `timing`; Ctrl-C in the first
  /// pass: one failing iteration is no `always-fails`.
  func testAnInterruptedRunConcludesNothing() {
    var runs = [
      run(.global, .suite, failed: 3, of: 9), run(.serial, .suite, failed: 5, of: 9),
      run(.global, .repetitions, failed: 0, of: 0), run(.serial, .repetitions, failed: 0, of: 0),
    ]
    runs[2].stop = .interrupted
    runs[3].stop = .interrupted
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .undetermined)
    var first = [run(.global, .suite, failed: 1, of: 1), run(.serial, .suite, failed: 0, of: 0)]
    first[0].stop = .interrupted
    first[1].stop = .interrupted
    XCTAssertEqual(Diagnostician.judge(first, confidence: 0.95).1, .undetermined)
  }

  /// Failing under every executor is `timing` only when every arm ran: with the diagnosis cut
  /// short by `--budget`, it is `undetermined`.
  func testTimingIsNeverGuessedFromARunTheBudgetCut() {
    var runs = [
      run(.global, .suite, failed: 3, of: 9), run(.serial, .suite, failed: 5, of: 9),
      run(.global, .repetitions, failed: 1, of: 3), run(.serial, .repetitions, failed: 0, of: 3),
      run(.seeded, .repetitions, failed: 1, of: 3), run(.global, .fresh, failed: 1, of: 3),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .timing)
    runs[3].stop = .budgetSpent
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .undetermined)
  }

  /// NumberFacts' `yield()`: it fails on one queue every time and under global nearly every
  /// time. That is no blocked thread (global does not pass significantly more), and no timing
  /// flake (it never passes on one queue): no contrast says why.
  func testFailingNearlyEverywhereIsNeitherABlockedThreadNorTiming() {
    let runs = [
      run(.serial, .suite, failed: 3, of: 3), run(.global, .repetitions, failed: 3, of: 3),
      run(.serial, .repetitions, failed: 3, of: 3), run(.seeded, .repetitions, failed: 3, of: 3),
      run(.global, .fresh, failed: 2, of: 3),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).0, .flaky)
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .undetermined)
  }

  /// A crash charged to every test in flight because none crashed alone (FlyingFox's suite, in
  /// Foundation's URLSession) says nothing of each test: one diagnosis for them all, and one
  /// block in the answer, not a flaky test each.
  func testCrashesOfTheProcessBesideOthersAreOneFindingNotAFlakyTestEach() {
    func crashedRun(_ id: String) -> RunResult {
      var tally = Tally()
      tally.record(.passed, count: 17)
      tally.record(
        .crashed(Crash(how: "signal 4 (SIGILL): Fatal error: boom", beside: [PackageTest(id: id == "a()" ? "M.b()" : "M.a()", framework: .swiftTesting)], crashedAlone: false)),
        count: 3)
      var result = RunResult(RunKey(scenario: "M", variant: id, executor: .global), tally: tally, seconds: 1, iterationsAreIndependent: false)
      result.test = TestReference(test: PackageTest(id: "M.\(id)", framework: .swiftTesting), packagePath: ".", layout: .suite)
      return result
    }
    let findings = ["a()", "b()"].map { TestFinding(test: PackageTest(id: "M.\($0)", framework: .swiftTesting), runs: [crashedRun($0)], confidence: 0.95) }
    XCTAssertEqual(findings.map(\.diagnosis), [.crashBesideOthers, .crashBesideOthers])
    var report = Report(runs: findings.flatMap(\.runs))
    report.tests = findings
    XCTAssertEqual(report.unstableTests.count, 0)
    XCTAssertEqual(
      TestAnswer.crashBlock(try XCTUnwrap(SuiteAnswer(report).crash)),
      [
        "CRASHED  the test process, with 2 tests in flight: the test process crashed while it ran beside other tests, none of which crashed alone",
        "    suite, global       crashed in 3 of 20 passes",
        "    seen: signal 4 (SIGILL): Fatal error: boom",
        "    in flight: M.a(), M.b()",
        "    do: \(TestDiagnosis.crashBesideOthers.advice)",
      ])
  }

  /// Issue 24, point 6: failing under seeded and never under serial is `fifo-dependent` (the
  /// order of jobs, not of tests); a report of an earlier FlakeLab that says `order-dependent`
  /// means the same.
  func testFailingUnderSeededAndNeverUnderSerialIsFIFODependent() {
    let runs = [
      run(.global, .suite, failed: 0, of: 20), run(.serial, .suite, failed: 0, of: 20), run(.seeded, .suite, failed: 12, of: 20),
      run(.global, .repetitions, failed: 0, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
      run(.seeded, .repetitions, failed: 25, of: 40), run(.global, .fresh, failed: 0, of: 20),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .fifoDependent)
    XCTAssertEqual(TestDiagnosis.fifoDependent.rawValue, "fifo-dependent")
    XCTAssertEqual(TestDiagnosis(reading: "order-dependent"), .fifoDependent)
    XCTAssertEqual(TestDiagnosis(reading: "fifo-dependent"), .fifoDependent)
    XCTAssertNil(TestDiagnosis(reading: "no-such-diagnosis"))
  }

  /// Issue 24, point 5: an arm stopped after its first three failures reads 3 of 3 whatever its
  /// rate, so it decides no contrast of rates. A test failing 15–30% everywhere whose fresh and
  /// seeded arms happened to stop so was called `first-run` on 3 of 3 against 0 of 3.
  func testAnArmStoppedAfterThreeFailuresDecidesNoContrast() {
    var fresh = run(.global, .fresh, failed: 3, of: 3)
    fresh.stop = .everyIterationFailed
    var seeded = run(.seeded, .repetitions, failed: 3, of: 3)
    seeded.stop = .everyIterationFailed
    let runs = [
      run(.global, .suite, failed: 4, of: 9), run(.serial, .suite, failed: 1, of: 9),
      run(.global, .repetitions, failed: 0, of: 3), run(.serial, .repetitions, failed: 1, of: 3), seeded, fresh,
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .timing)
  }

  /// Stopped arms of one queue are what blocks-thread asks: every iteration there failed, and
  /// the suite passes under serial each failed after a wait of a second or more.
  func testStoppedOneQueueArmsStillShowABlockedThread() {
    var serial = run(.serial, .repetitions, failed: 3, of: 3)
    serial.stop = .everyIterationFailed
    var seeded = run(.seeded, .repetitions, failed: 3, of: 3)
    seeded.stop = .everyIterationFailed
    var suite = run(.serial, .suite, failed: 3, of: 3)
    suite.stop = .everyIterationFailedSlowly
    let runs = [
      run(.global, .suite, failed: 0, of: 20), suite,
      run(.global, .repetitions, failed: 0, of: 40), serial, seeded, run(.global, .fresh, failed: 0, of: 20),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .blocksThread)
  }

  /// Issue 24, point 2: the swift-concurrency-extras README's `isLoading` test with one yield
  /// fails every time on one queue, in microseconds, and passes now and then under global. No
  /// wait, so no blocked thread: one queue's order fails it (`serial-deterministic`), and the
  /// advice is not "never serialize this test", the opposite of that README's remedy.
  func testFailingEveryTimeOnOneQueueWithoutAWaitIsSerialDeterministic() {
    var serial = run(.serial, .repetitions, failed: 3, of: 3)
    serial.stop = .everyIterationFailed
    var seeded = run(.seeded, .repetitions, failed: 3, of: 3)
    seeded.stop = .everyIterationFailed
    var runs = [
      run(.global, .suite, failed: 3, of: 20), run(.serial, .suite, failed: 20, of: 20),
      run(.global, .repetitions, failed: 2, of: 40), serial, seeded, run(.global, .fresh, failed: 1, of: 20),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .serialDeterministic)
    // The same counts, each serial pass a second long: a wait that ran out.
    runs[1].seconds = 25
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .blocksThread)
  }

  /// Two runs of 16 fresh processes on one queue, seeded alike, as the drill-down's randomness
  /// replays are, failing in `first` and `second`.
  private func replays(_ first: Set<Int>, _ second: Set<Int>, of count: Int = 16) -> [RunResult] {
    [first, second].map { failing in
      var tally = Tally()
      tally.record(.passed, count: count - failing.count)
      tally.record(.failed(observation: "x"), count: failing.count)
      var result = RunResult(
        RunKey(scenario: "M", variant: "race()", executor: .serial), tally: tally, seconds: 1,
        iterationsAreIndependent: true)
      result.test = TestReference(test: test, packagePath: ".", layout: .fresh)
      var schedule = RunSchedule(seed: 7)
      for index in failing.sorted() { schedule.noteFailing(index: index, fingerprint: 0, outcome: .failed(observation: "x")) }
      result.schedule = schedule
      return result
    }
  }

  /// Issue 24, point 3: a test that a hash order decides (a two-key dictionary encoded to JSON)
  /// fails in the same processes when their seeds are the same, and all or nothing within one
  /// process: `randomness`, drawn per process. It was `timing` ("inject a clock") before.
  func testTheSameSeedsFailingAgainIsRandomness() {
    let arms = [
      run(.global, .suite, failed: 9, of: 20), run(.serial, .suite, failed: 11, of: 20),
      run(.global, .repetitions, failed: 40, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
      run(.seeded, .repetitions, failed: 40, of: 40), run(.global, .fresh, failed: 10, of: 20),
    ]
    let runs = arms + replays([0, 3, 4, 9, 10, 15], [0, 3, 4, 9, 10, 15])
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .randomness)
    XCTAssertEqual(Diagnostician.randomDraw(runs, confidence: 0.95), .perProcess)
    // A value drawn in every iteration: a process's iterations differ.
    var perIteration = runs
    perIteration[3] = run(.serial, .repetitions, failed: 12, of: 40)
    XCTAssertEqual(Diagnostician.randomDraw(perIteration, confidence: 0.95), .perIteration)
    // Other processes failing the second time: real time, not the seed.
    XCTAssertEqual(Diagnostician.judge(arms + replays([0, 3, 4, 9, 10, 15], [1, 3, 4, 9, 10, 15]), confidence: 0.95).1, .timing)
  }

  /// One failure in 16 agreeing twice is chance one time in 16: no randomness, however alike.
  func testAnAgreementChanceCouldMakeIsNoRandomness() {
    let arms = [
      run(.global, .suite, failed: 1, of: 20), run(.serial, .suite, failed: 1, of: 20),
      run(.global, .repetitions, failed: 1, of: 40), run(.serial, .repetitions, failed: 1, of: 40),
      run(.seeded, .repetitions, failed: 0, of: 40), run(.global, .fresh, failed: 0, of: 20),
    ]
    XCTAssertNotEqual(Diagnostician.judge(arms + replays([5], [5]), confidence: 0.95).1, .randomness)
    // Nor is it anything else: the seed may decide it, on too few failures to show it (a test
    // failing 3 runs in 10 was once called timing in make bench, two of its 16 processes failing).
    let thin = [
      run(.global, .suite, failed: 6, of: 20), run(.serial, .suite, failed: 6, of: 20),
      run(.global, .repetitions, failed: 12, of: 40), run(.serial, .repetitions, failed: 13, of: 40),
      run(.seeded, .repetitions, failed: 13, of: 40), run(.global, .fresh, failed: 6, of: 20),
    ]
    XCTAssertEqual(Diagnostician.judge(thin + replays([3, 9], [3, 9]), confidence: 0.95).1, .undetermined)
    XCTAssertEqual(Diagnostician.judge(thin + replays([3, 9], [3, 10]), confidence: 0.95).1, .timing)
    XCTAssertEqual(Diagnostician.judge(arms + replays([2, 5, 11], [2, 5, 11]), confidence: 0.95).1, .randomness)
  }

  /// Issue 24, point 1: global rates move between processes far beyond binomial noise. A test
  /// failing 15–30% under every executor gave fresh 9 of 20 against warm 9 of 40, and was called
  /// first-run; with the warm replicates' spread and six contrasts sharing the error, it is not.
  func testAGlobalSwingIsNoFirstRun() {
    func global(_ layout: TestReference.ProcessLayout, _ replicates: [(failed: Int, of: Int)]) -> RunResult {
      var tally = Tally()
      for replicate in replicates {
        tally.record(.passed, count: replicate.of - replicate.failed)
        tally.record(.failed(observation: "x"), count: replicate.failed)
      }
      var result = RunResult(
        RunKey(scenario: "M", variant: "race()", executor: .global), tally: tally, seconds: 1,
        iterationsAreIndependent: false,
        replicates: replicates.map { replicate in
          var one = Tally()
          one.record(.passed, count: replicate.of - replicate.failed)
          one.record(.failed(observation: "x"), count: replicate.failed)
          return ReplicateCounts(one)
        })
      result.test = TestReference(test: test, packagePath: ".", layout: layout)
      return result
    }
    let runs = [
      global(.suite, [(1, 4), (0, 4), (2, 4), (0, 4), (1, 4)]), run(.serial, .suite, failed: 5, of: 20),
      global(.repetitions, [(0, 4), (3, 4), (0, 4), (2, 4), (0, 4), (1, 4), (0, 4), (3, 4), (0, 4), (0, 4)]),
      run(.serial, .repetitions, failed: 16, of: 40), run(.seeded, .repetitions, failed: 10, of: 40),
      run(.global, .fresh, failed: 9, of: 20),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .timing)
  }

  /// A suite pass is a process's first run of each test too: FlakeKinds' firstRun() gave fresh
  /// 6 of 20 against warm 3 of 40 in one default run, no contrast alone, while its suite passes
  /// (first runs all) failed 19 of 40.
  func testSuitePassesCountAsFirstRuns() {
    let runs = [
      run(.global, .suite, failed: 7, of: 20), run(.serial, .suite, failed: 12, of: 20),
      run(.global, .repetitions, failed: 3, of: 40), run(.serial, .repetitions, failed: 2, of: 40),
      run(.seeded, .repetitions, failed: 0, of: 40), run(.global, .fresh, failed: 6, of: 20),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .firstRun)
  }

  /// A clean-clone `make test` under load called isLoading first-run (global failed 22 of 33).
  /// Every screen pass failed, so its one-queue arms and its fresh one settled after three
  /// failures; its suite passes, first runs all, failed 10 of 10 under global against 9 of 20
  /// warm, and one queue's 13 of 13 were too few against global's spread to show a contrast.
  /// But warm repetitions on one queue failed every time: the order decides it, not a warm-up,
  /// and advice to make the first run deterministic would point the wrong way.
  func testAFirstRunContrastIsNoCauseWhenWarmRunsOnOneQueueAlwaysFail() {
    var warm = Tally()
    var replicates: [ReplicateCounts] = []
    for failed in [3, 3, 2, 1, 0] {
      var one = Tally()
      one.record(.passed, count: 4 - failed)
      one.record(.failed(observation: "x"), count: failed)
      warm.merge(one)
      replicates.append(ReplicateCounts(one))
    }
    var globalWarm = RunResult(
      RunKey(scenario: "M", variant: "race()", executor: .global), tally: warm, seconds: 1,
      iterationsAreIndependent: false, replicates: replicates)
    globalWarm.test = TestReference(test: test, packagePath: ".", layout: .repetitions)
    func settled(_ result: RunResult) -> RunResult {
      var result = result
      result.stop = .everyIterationFailed
      return result
    }
    var runs = [
      run(.global, .suite, failed: 10, of: 10), run(.serial, .suite, failed: 10, of: 10), globalWarm,
      settled(run(.serial, .repetitions, failed: 3, of: 3)), settled(run(.seeded, .repetitions, failed: 3, of: 3)),
      settled(run(.global, .fresh, failed: 3, of: 3)),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .undetermined)
    // A warm-up decides it when warm runs on one queue pass.
    runs[3] = run(.serial, .repetitions, failed: 1, of: 20)
    runs[4] = run(.seeded, .repetitions, failed: 1, of: 20)
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).1, .firstRun)
  }

  /// A contrast against nothing measured (every warm run settled after its first failures and
  /// left out of the rates) is no contrast: once seen calling isLoading first-run under load.
  func testNothingFailsMoreThanNothingMeasured() {
    var tally = Tally()
    tally.record(.failed(observation: "x"), count: 10)
    var run = RunResult(RunKey(scenario: "M", variant: "t()", executor: .serial), tally: tally, seconds: 1, iterationsAreIndependent: true)
    run.test = TestReference(test: PackageTest(id: "M.t()", framework: .swiftTesting), packagePath: ".", layout: .suite)
    let counts = Diagnostician.Counts([run])
    XCTAssertFalse(counts.failMoreThan(Diagnostician.Counts([RunResult]()), confidence: 0.95))
    XCTAssertFalse(Diagnostician.Counts([RunResult]()).failMoreThan(counts, confidence: 0.95))
  }
}

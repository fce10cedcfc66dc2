import XCTest

@testable import FlakeLab

/// The diagnosis rules on counts given outright: which contrast decides, and when the evidence
/// is too thin for one.
final class DiagnosticianTests: XCTestCase {
  private let test = PackageTest(id: "M.race()", framework: .swiftTesting)

  private func run(
    _ executor: ExecutorID, _ layout: TestReference.ProcessLayout, failed: Int, of ran: Int, stop: RunStop? = nil
  ) -> RunResult {
    var tally = Tally()
    tally.record(.passed, count: ran - failed)
    tally.record(.failed(observation: "x"), count: failed)
    var result = RunResult(
      RunKey(scenario: "M", variant: "race()", executor: executor), tally: tally, seconds: 1,
      iterationsAreIndependent: executor != .global)
    result.test = TestReference(test: test, packagePath: ".", layout: layout)
    result.stop = stop
    return result
  }

  /// Runs of one shape and the cause they show, with why.
  private struct Shape {
    let why: String
    let runs: [RunResult]
    let diagnosis: TestDiagnosis
  }

  /// The rules on shapes of runs given outright, one row each: the runs, what they show, and why.
  func testEachShapeOfRunsShowsItsCause() {
    let shapes = [
      Shape(
        why: "stopped arms of one queue are what blocks-thread asks: every iteration there failed, and the suite "
          + "passes under serial each failed after a wait of a second or more",
        runs: [
          run(.global, .suite, failed: 0, of: 20),
          run(.serial, .suite, failed: 3, of: 3, stop: .everyIterationFailedSlowly),
          run(.global, .repetitions, failed: 0, of: 40),
          run(.serial, .repetitions, failed: 3, of: 3, stop: .everyIterationFailed),
          run(.seeded, .repetitions, failed: 3, of: 3, stop: .everyIterationFailed),
          run(.global, .fresh, failed: 0, of: 20),
        ],
        diagnosis: .blocksThread),
      Shape(
        why: "a race's first runs are mostly global, its warm ones mostly on one queue, where it never fails: pooled "
          + "over executors first runs fail more (a default run once called FlakeKinds' race() first-run); compared "
          + "like with like, it is the race it is",
        runs: [
          run(.global, .suite, failed: 12, of: 20), run(.serial, .suite, failed: 0, of: 20),
          run(.global, .repetitions, failed: 16, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
          run(.seeded, .repetitions, failed: 0, of: 40), run(.global, .fresh, failed: 14, of: 20),
        ],
        diagnosis: .needsParallelism),
      Shape(
        why: "the seeds' toggle race fails warm too and never on one queue, in any layout; its first runs fail more "
          + "(threads still being made): a race, which first runs make likelier, never first-run",
        runs: [
          run(.global, .suite, failed: 11, of: 20), run(.serial, .suite, failed: 0, of: 20),
          run(.global, .oneAtATime, failed: 12, of: 20),
          run(.global, .repetitions, failed: 3, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
          run(.seeded, .repetitions, failed: 0, of: 40), run(.global, .fresh, failed: 8, of: 20),
          run(.serial, .fresh, failed: 0, of: 20), run(.global, .stressed, failed: 5, of: 40),
        ],
        diagnosis: .needsParallelism),
      Shape(
        why: "a race a busy pool hides in parallel suite passes (0 of 20, as in swift test) fails when the tests run "
          + "one at a time, as swift test --no-parallel and Xcode run them",
        runs: [
          run(.global, .suite, failed: 0, of: 20), run(.serial, .suite, failed: 0, of: 20),
          run(.global, .oneAtATime, failed: 16, of: 20),
          run(.global, .repetitions, failed: 30, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
          run(.seeded, .repetitions, failed: 0, of: 40), run(.global, .fresh, failed: 15, of: 20),
          run(.serial, .fresh, failed: 0, of: 20),
        ],
        diagnosis: .needsParallelism),
      Shape(
        why: "a first run's failure (a coin on the first call in each process) fails suite passes, first runs all, "
          + "far more than warm repetitions; against fresh processes alone, also first runs, the neighbours change "
          + "nothing: first-run, never interference",
        runs: [
          run(.global, .suite, failed: 9, of: 20), run(.serial, .suite, failed: 11, of: 20),
          run(.global, .repetitions, failed: 2, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
          run(.seeded, .repetitions, failed: 1, of: 40), run(.global, .fresh, failed: 10, of: 20),
          run(.serial, .fresh, failed: 9, of: 20),
        ],
        diagnosis: .firstRun),
      Shape(
        why: "an arm stopped after its first three failures reads 3 of 3 whatever its rate, so it decides no contrast "
          + "of rates (a test failing 15–30% everywhere whose fresh and seeded arms stopped so was called first-run)",
        runs: [
          run(.global, .suite, failed: 4, of: 9), run(.serial, .suite, failed: 1, of: 9),
          run(.global, .repetitions, failed: 0, of: 3), run(.serial, .repetitions, failed: 1, of: 3),
          run(.seeded, .repetitions, failed: 3, of: 3, stop: .everyIterationFailed),
          run(.global, .fresh, failed: 3, of: 3, stop: .everyIterationFailed),
        ],
        diagnosis: .undetermined),
    ]
    for shape in shapes {
      XCTAssertEqual(Diagnostician.judge(shape.runs, confidence: 0.95).diagnosis, shape.diagnosis, shape.why)
    }
  }

  /// The second seed goes on while its contrast is undecided and can still decide: the
  /// toggle race's 1 of 40 under global against 0 on one queue decides nothing yet; 6 of 160
  /// against 0 of 160 shows the race again; a failure on one queue, or none under global, has
  /// answered. Its looks are an arm's iterations, then as many again, then twice as many.
  func testTheSecondSeedGoesOnWhileItsContrastIsUndecided() {
    let thin = [run(.global, .repetitions, failed: 1, of: 40), run(.fifo, .repetitions, failed: 0, of: 40)]
    XCTAssertTrue(SecondSeed.isUndecided(.needsParallelism, in: thin, confidence: 0.95))
    let shown = [run(.global, .repetitions, failed: 6, of: 160), run(.fifo, .repetitions, failed: 0, of: 160)]
    XCTAssertEqual(SecondSeed.showsAgain(.needsParallelism, in: shown, confidence: 0.95), true)
    XCTAssertFalse(SecondSeed.isUndecided(.needsParallelism, in: shown, confidence: 0.95))
    let failedOnOneQueue = [run(.global, .repetitions, failed: 3, of: 40), run(.fifo, .repetitions, failed: 1, of: 40)]
    XCTAssertFalse(SecondSeed.isUndecided(.needsParallelism, in: failedOnOneQueue, confidence: 0.95))
    let neverFailed = [run(.global, .repetitions, failed: 0, of: 40), run(.fifo, .repetitions, failed: 0, of: 40)]
    XCTAssertFalse(SecondSeed.isUndecided(.needsParallelism, in: neverFailed, confidence: 0.95))
    // Sized from the first seed's rates: 9 of 40 against none needs 32 a side for 90% power,
    // then as many again, then twice as many, within four times the arm's 40.
    let first = [run(.global, .repetitions, failed: 9, of: 40), run(.fifo, .repetitions, failed: 0, of: 40)]
    XCTAssertEqual(
      SecondSeed.lookEnds(for: .needsParallelism, firstSeed: first, iterations: 40, confidence: 0.95), [32, 64, 128])
    let clear = [run(.global, .repetitions, failed: 30, of: 40), run(.fifo, .repetitions, failed: 0, of: 40)]
    XCTAssertEqual(
      SecondSeed.lookEnds(for: .needsParallelism, firstSeed: clear, iterations: 40, confidence: 0.95), [10, 20, 40])
  }

  /// A drill-down cut short (three iterations an arm): a test that failed in half the suite
  /// passes under global and never alone in six global iterations is no interference (a global
  /// rate moves between processes, and six alone are fewer than the twelve passes); nor is it
  /// called a race, which fails alone too: undetermined. One failure alone under global is not
  /// a race either (the suite's failures have neighbours, a second factor); failing alone under
  /// global significantly more than on one queue is.
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
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .undetermined)
    runs[2] = run(.global, .repetitions, failed: 6, of: 12)
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .needsParallelism)
  }

  /// Every suite pass failed under global, and at least as many fresh processes alone passed
  /// under global: interference. Alone is compared in fresh processes, first runs as suite
  /// passes are, so that the neighbours are all that differs.
  func testFailingInEverySuitePassAndNeverAloneIsInterference() {
    var runs = [
      run(.global, .suite, failed: 8, of: 8), run(.serial, .suite, failed: 0, of: 8),
      run(.global, .repetitions, failed: 0, of: 6), run(.serial, .repetitions, failed: 0, of: 40),
      run(.seeded, .repetitions, failed: 0, of: 3), run(.global, .fresh, failed: 0, of: 8),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .interference)
    // Fewer fresh processes than passes: not enough alone to tell, and no first run either
    // (fresh processes alone never failed; the suite passes have neighbours).
    runs[5] = run(.global, .fresh, failed: 0, of: 3)
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .undetermined)
  }

  /// FlakeKinds' deadline in Swift Testing (about 25 ms of arithmetic against 30 ms), in one of
  /// two default runs: it failed more with busy threads beside it and in parallel passes than
  /// alone, and its second seed's stressed arm did not fail more. Load was shown to fail it, so
  /// its neighbours' contrast, which changes their load too, names no shared state: undetermined,
  /// never interference (whose advice, isolate the state it shares, points the wrong way).
  func testALoadSensitiveTestIsNoInterferenceWhenItsLoadIsNotConfirmed() {
    let first = [
      run(.global, .suite, failed: 9, of: 20), run(.serial, .suite, failed: 0, of: 20),
      run(.global, .repetitions, failed: 1, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
      run(.seeded, .repetitions, failed: 0, of: 40), run(.global, .fresh, failed: 0, of: 20),
      run(.serial, .fresh, failed: 0, of: 20), run(.global, .stressed, failed: 14, of: 40),
    ]
    XCTAssertEqual(Diagnostician.judge(first, confidence: 0.95).diagnosis, .timing)
    let second = [run(.global, .repetitions, failed: 1, of: 40), run(.global, .stressed, failed: 1, of: 40)].map {
      var run = $0
      run.test?.isConfirmation = true
      return run
    }
    XCTAssertEqual(Diagnostician.judge(first + second, confidence: 0.95).diagnosis, .undetermined)
  }

  /// FlakeKinds' Swift Testing deadline (25 ms of arithmetic against 30 ms): its
  /// neighbours, running beside it in parallel passes, load its cores as much as they share its
  /// state. Missed in 13 of 20 such passes, never one at a time nor alone, and 7 of 40 with busy
  /// threads against 0 of 40 calm (here 4 of 40: leaning, not significant): the load is not ruled out, so
  /// neither cause is named, and the timing contrast runs on. Decided, it is timing; with no
  /// busy-thread failure, or for XCTest, whose suite passes run one test at a time, it is
  /// interference.
  func testParallelPassesDoNotNameInterferenceWhileTheirLoadIsUndecided() {
    var runs = [
      run(.global, .suite, failed: 13, of: 20), run(.serial, .suite, failed: 0, of: 20),
      run(.global, .oneAtATime, failed: 0, of: 20), run(.global, .repetitions, failed: 0, of: 40),
      run(.serial, .repetitions, failed: 0, of: 40), run(.seeded, .repetitions, failed: 0, of: 40),
      run(.global, .fresh, failed: 0, of: 20), run(.serial, .fresh, failed: 0, of: 20),
      run(.global, .stressed, failed: 4, of: 40),
    ]
    let finding = TestFinding(test: test, runs: runs, confidence: 0.95)
    XCTAssertEqual(finding.diagnosis, .undetermined)
    XCTAssertEqual(finding.undecided, [.timing])
    XCTAssertFalse(finding.ruledOut.contains(.interference), "\(finding.ruledOut)")
    runs[3] = run(.global, .repetitions, failed: 0, of: 120)
    runs[8] = run(.global, .stressed, failed: 21, of: 120)
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .timing)
    runs[3] = run(.global, .repetitions, failed: 0, of: 40)
    runs[8] = run(.global, .stressed, failed: 0, of: 40)
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .interference)
    runs[8] = run(.global, .stressed, failed: 4, of: 40)
    let xctest = PackageTest(id: "M.CaseTests/testRace", framework: .xctest)
    let oneAtATime = runs.map { run in
      var run = run
      run.test = run.test.map { TestReference(test: xctest, packagePath: ".", layout: $0.layout) }
      return run
    }
    XCTAssertEqual(Diagnostician.judge(oneAtATime, confidence: 0.95).diagnosis, .interference)
  }

  /// FlakeKinds' XCTest handlers (two detached tasks expected in the order started): a process
  /// whose threads exist runs the second before the first is done, so the suite passes fail more
  /// than fresh processes alone, and warm repetitions alone as much as the passes. Not the
  /// neighbours, then: the order of jobs, which seeded orders fail and FIFO never does.
  func testFailingMoreInWarmProcessesIsNotInterference() {
    let xctest = PackageTest(id: "M.HandlerTests/testOrder", framework: .xctest)
    func runs(warm: Int, stressed: Int) -> [RunResult] {
      [
        run(.global, .suite, failed: 10, of: 20), run(.serial, .suite, failed: 0, of: 20),
        run(.global, .repetitions, failed: warm, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
        run(.seeded, .repetitions, failed: 15, of: 40), run(.global, .fresh, failed: 2, of: 20),
        run(.serial, .fresh, failed: 0, of: 20), run(.global, .stressed, failed: stressed, of: 40),
      ].map { run in
        var run = run
        run.test = run.test.map { TestReference(test: xctest, packagePath: ".", layout: $0.layout) }
        return run
      }
    }
    XCTAssertEqual(Diagnostician.judge(runs(warm: 22, stressed: 20), confidence: 0.95).diagnosis, .fifoDependent)
    // Warm alone passing where the passes fail: the neighbours, against both.
    XCTAssertEqual(Diagnostician.judge(runs(warm: 1, stressed: 1), confidence: 0.95).diagnosis, .interference)
  }

  /// In combine-schedulers, `testRunsOnMain` (its assertion races the main run loop once
  /// another class's test ran first): suite passes 9 of 20 under global, fresh processes alone
  /// 0 of 20, one warm failure in 40 alone. Failures beside neighbours do not make it a race
  /// (that contrast holds the neighbours still): its neighbours' experiment names the cause. And
  /// a cause is listed as tried without showing it only when its experiment did not show it.
  func testFailuresBesideNeighboursDoNotMakeARace() {
    var runs = [
      run(.global, .suite, failed: 9, of: 20), run(.global, .repetitions, failed: 1, of: 40),
      run(.serial, .repetitions, failed: 0, of: 40), run(.seeded, .repetitions, failed: 0, of: 40),
      run(.global, .fresh, failed: 0, of: 20), run(.serial, .fresh, failed: 0, of: 20),
      run(.global, .stressed, failed: 1, of: 40),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .interference)
    runs[0] = run(.global, .suite, failed: 2, of: 20)
    let finding = TestFinding(test: test, runs: runs, confidence: 0.95)
    XCTAssertEqual(finding.diagnosis, .undetermined)
    XCTAssertTrue(finding.ruledOut.contains(.interference), "\(finding.ruledOut)")
    runs[1] = run(.global, .repetitions, failed: 12, of: 40)
    let race = TestFinding(test: test, runs: runs, confidence: 0.95)
    XCTAssertEqual(race.diagnosis, .needsParallelism)
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
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .undetermined)
    var first = [run(.global, .suite, failed: 1, of: 1), run(.serial, .suite, failed: 0, of: 0)]
    first[0].stop = .interrupted
    first[1].stop = .interrupted
    XCTAssertEqual(Diagnostician.judge(first, confidence: 0.95).diagnosis, .undetermined)
  }

  /// Failing now and then under every executor is no cause by itself (it was
  /// `timing`, what was left when nothing else fit). Timing is what the stressed arm shows: the
  /// same warm repetitions fail significantly more with busy threads competing. An arm the
  /// `--budget` cut shows nothing and rules nothing out, but leaves the stress experiment's
  /// own arms what they showed.
  func testTimingIsShownByTheStressedArmAndNeverLeftOver() {
    var runs = [
      run(.global, .suite, failed: 3, of: 20), run(.serial, .suite, failed: 5, of: 20),
      run(.global, .repetitions, failed: 2, of: 40), run(.serial, .repetitions, failed: 3, of: 40),
      run(.seeded, .repetitions, failed: 2, of: 40), run(.global, .fresh, failed: 2, of: 20),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .undetermined)
    let calm = runs + [run(.global, .stressed, failed: 3, of: 40)]
    XCTAssertEqual(Diagnostician.judge(calm, confidence: 0.95).diagnosis, .undetermined)
    let finding = TestFinding(test: test, runs: calm, confidence: 0.95)
    XCTAssertTrue(finding.ruledOut.contains(.timing), "\(finding.ruledOut)")
    XCTAssertTrue(finding.ruledOut.contains(.needsParallelism), "\(finding.ruledOut)")
    XCTAssertFalse(finding.ruledOut.contains(.randomness), "no replay ran: \(finding.ruledOut)")
    runs.append(run(.global, .stressed, failed: 30, of: 40))
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .timing)
    var cut = calm
    cut[3].stop = .budgetSpent
    XCTAssertEqual(Diagnostician.judge(cut, confidence: 0.95).diagnosis, .undetermined)
    XCTAssertEqual(TestFinding(test: test, runs: cut, confidence: 0.95).ruledOut, [])
    runs[3].stop = .budgetSpent
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .timing)
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
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).verdict, .flaky)
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .undetermined)
  }

  /// A crash charged to every test in flight because none crashed alone (FlyingFox's suite, in
  /// Foundation's URLSession) says nothing of each test: one diagnosis for them all, and one
  /// block in the answer, not a flaky test each.
  func testCrashesOfTheProcessBesideOthersAreOneFindingNotAFlakyTestEach() {
    func crashedRun(_ id: String) -> RunResult {
      var tally = Tally()
      tally.record(.passed, count: 17)
      tally.record(
        .crashed(
          Crash(
            how: "signal 4 (SIGILL): Fatal error: boom",
            beside: [PackageTest(id: id == "a()" ? "M.b()" : "M.a()", framework: .swiftTesting)], crashedAlone: false)),
        count: 3)
      var result = RunResult(
        RunKey(scenario: "M", variant: id, executor: .global), tally: tally, seconds: 1, iterationsAreIndependent: false
      )
      result.test = TestReference(
        test: PackageTest(id: "M.\(id)", framework: .swiftTesting), packagePath: ".", layout: .suite)
      return result
    }
    let findings = ["a()", "b()"].map {
      TestFinding(test: PackageTest(id: "M.\($0)", framework: .swiftTesting), runs: [crashedRun($0)], confidence: 0.95)
    }
    XCTAssertEqual(findings.map(\.diagnosis), [.crashBesideOthers, .crashBesideOthers])
    var report = Report(runs: findings.flatMap(\.runs))
    report.tests = findings
    XCTAssertEqual(report.unstableTests.count, 0)
    let answer = SuiteAnswer(report)
    XCTAssertEqual(
      SuiteAnswerText.crashBlock(try XCTUnwrap(answer.crash), arms: answer.crashArms),
      [
        "CRASHED  the test process crashed with 2 tests in flight, none of which crashed alone: one of them crashes only "
          + "sometimes, and no run alone showed which; it counts against none of them",
        "    suite, global          crashed in 3 of 20 passes",
        "    seen: signal 4 (SIGILL): Fatal error: boom",
        "    in flight: M.a(), M.b()",
        "    do: \(TestDiagnosis.crashBesideOthers.advice)",
      ])
  }

  /// Failing under seeded and never under serial is `fifo-dependent` (the
  /// order of jobs, not of tests); a report of an earlier FlakeLab that says `order-dependent`
  /// means the same.
  func testFailingUnderSeededAndNeverUnderSerialIsFIFODependent() {
    let runs = [
      run(.global, .suite, failed: 0, of: 20), run(.serial, .suite, failed: 0, of: 20),
      run(.seeded, .suite, failed: 12, of: 20),
      run(.global, .repetitions, failed: 0, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
      run(.seeded, .repetitions, failed: 25, of: 40), run(.global, .fresh, failed: 0, of: 20),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .fifoDependent)
    XCTAssertEqual(TestDiagnosis.fifoDependent.rawValue, "fifo-dependent")
    XCTAssertEqual(TestDiagnosis(reading: "order-dependent"), .fifoDependent)
    XCTAssertEqual(TestDiagnosis(reading: "fifo-dependent"), .fifoDependent)
    XCTAssertNil(TestDiagnosis(reading: "no-such-diagnosis"))
  }

  /// A wait the harness cannot see (a spin on a flag for work that needs the queue)
  /// shows in the time each failure took: on one queue at least 98 ms, under global 1.6 ms an
  /// iteration. Failing every time there is then a blocked thread, not the queue's order; one
  /// failure as fast as global's iterations is the order's again (a stall of the machine can
  /// lengthen some failures, not every one).
  func testFailuresEachFarSlowerOnOneQueueAreAWaitTheHarnessCannotSee() {
    var serial = run(.serial, .repetitions, failed: 40, of: 40)
    serial.iterationTimes = IterationTimes(iterations: 40, seconds: 4.1, fastestFailure: 0.098)
    var global = run(.global, .repetitions, failed: 0, of: 40)
    global.iterationTimes = IterationTimes(iterations: 40, seconds: 0.064)
    var runs = [
      run(.global, .suite, failed: 0, of: 20), run(.serial, .suite, failed: 20, of: 20), global, serial,
      run(.seeded, .repetitions, failed: 40, of: 40),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .blocksThread)
    XCTAssertEqual(Diagnostician.unseenWait(runs)?.oneQueue, 0.098)
    let finding = TestFinding(test: test, runs: runs, confidence: 0.95)
    XCTAssertTrue(finding.advice?.hasPrefix("each failure on one queue took at least 98.0 ms, against 1.6 ms") == true)
    runs[3].iterationTimes = IterationTimes(iterations: 40, seconds: 4.1, fastestFailure: 0.001)
    XCTAssertNil(Diagnostician.unseenWait(runs))
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .serialDeterministic)
  }

  /// The randomness experiment: fresh processes on one queue, iterations `first` to `count`,
  /// listing their failing iterations (`failing`), and the replay of `replayed` of them, a process each, in which
  /// `failedAgain` failed.
  private func seeds(
    _ failing: Set<Int>, from first: Int = 0, of count: Int = 16, replayed: Set<Int>, failedAgain: Set<Int>
  ) -> [RunResult] {
    [(TestReference.ProcessLayout.fresh, Set(first..<count), failing), (.replay, replayed, failedAgain)].map {
      layout, ran, failed in
      var tally = Tally()
      tally.record(.passed, count: ran.count - failed.count)
      tally.record(.failed(observation: "x"), count: failed.count)
      var result = RunResult(
        RunKey(scenario: "M", variant: "race()", executor: .serial), tally: tally, seconds: 1,
        iterationsAreIndependent: true)
      result.test = TestReference(test: test, packagePath: ".", layout: layout)
      var schedule = RunSchedule(seed: 7)
      for index in failed.sorted() {
        schedule.noteFailing(index: index, fingerprint: 0, outcome: .failed(observation: "x"))
      }
      result.schedule = schedule
      return result
    }
  }

  /// A test that a hash order decides (a two-key dictionary
  /// encoded to JSON): the seeds that failed it fail it again, as many that passed pass, and all
  /// or nothing within one process: `randomness`, drawn per process.
  func testTheSameSeedsFailingAgainIsRandomness() {
    let arms = [
      run(.global, .suite, failed: 9, of: 20), run(.serial, .suite, failed: 11, of: 20),
      run(.global, .repetitions, failed: 40, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
      run(.seeded, .repetitions, failed: 40, of: 40), run(.global, .fresh, failed: 10, of: 20),
    ]
    let failing: Set = [0, 3, 4, 9, 10, 15]
    let replayed = failing.union([1, 2, 5, 6, 7, 8])
    let runs = arms + seeds(failing, replayed: replayed, failedAgain: failing)
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .randomness)
    XCTAssertEqual(Diagnostician.randomDraw(runs, confidence: 0.95), .perProcess)
    // A value drawn in every iteration: a process's iterations differ.
    var perIteration = runs
    perIteration[3] = run(.serial, .repetitions, failed: 12, of: 40)
    XCTAssertEqual(Diagnostician.randomDraw(perIteration, confidence: 0.95), .perIteration)
    // A passing seed failing on replay: not the seed, and no other experiment shows a cause.
    let disagreeing = arms + seeds(failing, replayed: replayed, failedAgain: failing.union([1]))
    XCTAssertEqual(Diagnostician.judge(disagreeing, confidence: 0.95).diagnosis, .undetermined)
    let finding = TestFinding(test: test, runs: disagreeing, confidence: 0.95)
    XCTAssertTrue(finding.ruledOut.contains(.randomness))
    // What a replay cannot repeat is said with it: FlakeKinds' `UUID()` test failed 25 of 40
    // replays while its bytes came from /dev/urandom, which the harness does not seed.
    let tried = SuiteAnswerText.evidence(finding).first { $0.hasPrefix("tried, and did not show their cause") }
    let qualified = "randomness (of what the harness seeds: not reads of /dev/urandom)"
    XCTAssertTrue(tried?.contains(qualified) ?? false, "\(tried ?? "-")")
  }

  /// A replay is offered only where a run showed its seed decides the failure: every iteration
  /// of the run failed, or its failing seeds failed again when replayed. A controlled run that
  /// failed some iterations (threads the scheduler does not see, an event loop's, may decide
  /// them) gets none, and the answer says why; an uncontrolled one says so too.
  func testAReplayIsOfferedOnlyWhereTheSeedWasShownToDecide() {
    let arms = [run(.global, .suite, failed: 3, of: 20), run(.serial, .suite, failed: 2, of: 20)]
    let some = seeds([2, 5], replayed: [], failedAgain: []).filter { $0.test?.layout == .fresh }
    let unproven = TestFinding(test: test, runs: arms + some, confidence: 0.95)
    XCTAssertNil(unproven.replay(program: "flakelab"))
    XCTAssertEqual(
      unproven.noReplay,
      "no run showed its seed decides it (none failed every iteration, and no failing seed was replayed to fail "
        + "again): threads the scheduler does not see, or real time, may decide it")
    var report = Report(runs: arms + some)
    report.tests = [unproven]
    let text = SuiteAnswerText.render(report, verbose: false)
    XCTAssertFalse(text.contains("    replay: "), text)
    XCTAssertTrue(text.contains("    no replay: no run showed its seed decides it"), text)

    let every = seeds(Set(0..<16), replayed: [], failedAgain: []).filter { $0.test?.layout == .fresh }
    XCTAssertNotNil(TestFinding(test: test, runs: arms + every, confidence: 0.95).replay(program: "flakelab"))
    let agreed = seeds([2, 5, 11], replayed: [0, 1, 2, 3, 5, 11], failedAgain: [2, 5, 11])
    XCTAssertNotNil(TestFinding(test: test, runs: arms + agreed, confidence: 0.95).replay(program: "flakelab"))

    var uncontrolled = some
    uncontrolled[0].schedule?.isControlled = false
    XCTAssertEqual(
      TestFinding(test: test, runs: arms + uncontrolled, confidence: 0.95).noReplay,
      "threads outside the scheduler (I/O, Dispatch, real-time sleeps) woke its tasks: a seed does not replay it")
  }

  /// One failing seed failing again and one passing seed passing is chance one time in 20 at a
  /// rate of one in 20: no randomness, however alike, and nothing else either (the seed may
  /// decide it, on too few seeds to show it). Three of each, at three in 16, are not chance.
  func testAnAgreementChanceCouldMakeIsNoRandomness() {
    let arms = [
      run(.global, .suite, failed: 1, of: 20), run(.serial, .suite, failed: 1, of: 20),
      run(.global, .repetitions, failed: 1, of: 40), run(.serial, .repetitions, failed: 1, of: 40),
      run(.seeded, .repetitions, failed: 0, of: 40), run(.global, .fresh, failed: 0, of: 20),
    ]
    XCTAssertEqual(
      Diagnostician.judge(arms + seeds([5], of: 20, replayed: [0, 5], failedAgain: [5]), confidence: 0.95).diagnosis,
      .undetermined)
    XCTAssertEqual(
      Diagnostician.judge(arms + seeds([3, 9], replayed: [0, 1, 3, 9], failedAgain: [3, 9]), confidence: 0.95)
        .diagnosis,
      .undetermined)
    XCTAssertEqual(
      Diagnostician.judge(
        arms + seeds([2, 5, 11], replayed: [0, 1, 2, 3, 5, 11], failedAgain: [2, 5, 11]), confidence: 0.95
      ).diagnosis,
      .randomness)
  }

  /// A run lists its lowest ``RunSchedule/failingLimit`` failing iterations. FlakeKinds' `UUID()`
  /// test failed 30 of 60 fresh processes: past the 20th listed failure, two failing seeds were
  /// taken as passing, failed their replays, and randomness was ruled out. Passing seeds now come
  /// from below the last listed failure, and the seeds' and replays' runs are compared by each
  /// run's own list, which merging would cut to the lowest 20 again.
  func testSeedsPastTheListedFailuresAreNeitherPassingNorLost() {
    let failingFirst = Set(stride(from: 0, to: 60, by: 2))
    var schedule = RunSchedule(seed: 7)
    for index in failingFirst.sorted() {
      schedule.noteFailing(index: index, fingerprint: 0, outcome: .failed(observation: "x"))
    }
    XCTAssertEqual(schedule.failingIterations.map(\.index), Array(stride(from: 0, to: 40, by: 2)))
    XCTAssertEqual(schedule.indicesWithoutFailure(in: 0..<60), Array(stride(from: 1, to: 38, by: 2)))
    XCTAssertEqual(RunSchedule(seed: 7).indicesWithoutFailure(in: 3..<6), [3, 4, 5])

    let arms = [
      run(.global, .suite, failed: 9, of: 20), run(.serial, .suite, failed: 11, of: 20),
      run(.global, .repetitions, failed: 20, of: 40), run(.serial, .repetitions, failed: 19, of: 40),
      run(.seeded, .repetitions, failed: 21, of: 40), run(.global, .fresh, failed: 10, of: 20),
    ]
    // Two rounds: 24 of 40 seeds failing (20 listed), then 10 of 20 more; each round's listed
    // failures and as many passing seeds replayed, agreeing.
    let firstRound = seeds(Set(0..<24), of: 40, replayed: Set(0..<20).union(24..<40), failedAgain: Set(0..<20))
    let grown = seeds(Set(40..<50), from: 40, of: 60, replayed: Set(40..<60), failedAgain: Set(40..<50))
    XCTAssertNotNil(Diagnostician.replayAgreement(arms + firstRound + grown))
    XCTAssertEqual(Diagnostician.judge(arms + firstRound + grown, confidence: 0.95).diagnosis, .randomness)
  }

  /// Global rates move between processes far beyond binomial noise. A test
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
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .undetermined)
  }

  /// First runs are compared alone, in fresh processes: a suite pass is a first run too, but
  /// beside neighbours, a second factor. FlakeKinds' firstRun() gave fresh 6 of 20 against warm
  /// 3 of 40 under global in one default run, no contrast, while its suite passes failed 19 of
  /// 40; fresh processes on one queue, 12 of 20 against 2 of 80, show it.
  func testFirstRunsAreFreshProcessesAlone() {
    var runs = [
      run(.global, .suite, failed: 7, of: 20), run(.serial, .suite, failed: 12, of: 20),
      run(.global, .repetitions, failed: 3, of: 40), run(.serial, .repetitions, failed: 2, of: 40),
      run(.seeded, .repetitions, failed: 0, of: 40), run(.global, .fresh, failed: 6, of: 20),
    ]
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .undetermined)
    runs.append(run(.serial, .fresh, failed: 12, of: 20))
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .firstRun)
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
    // Every iteration in FIFO order failed, ten suite passes and three warm ones, and global
    // passed now and then: one queue's order fails it.
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .serialDeterministic)
    // A warm-up decides it when warm runs on one queue pass and first runs there fail.
    runs[3] = run(.serial, .repetitions, failed: 1, of: 20)
    runs[4] = run(.seeded, .repetitions, failed: 1, of: 20)
    runs.append(run(.serial, .fresh, failed: 10, of: 10))
    XCTAssertEqual(Diagnostician.judge(runs, confidence: 0.95).diagnosis, .firstRun)
  }

  /// A contrast against nothing measured (every warm run settled after its first failures and
  /// left out of the rates) is no contrast: once seen calling isLoading first-run under load.
  func testNothingFailsMoreThanNothingMeasured() {
    var tally = Tally()
    tally.record(.failed(observation: "x"), count: 10)
    var run = RunResult(
      RunKey(scenario: "M", variant: "t()", executor: .serial), tally: tally, seconds: 1, iterationsAreIndependent: true
    )
    run.test = TestReference(test: PackageTest(id: "M.t()", framework: .swiftTesting), packagePath: ".", layout: .suite)
    let counts = Diagnostician.Counts([run])
    XCTAssertFalse(counts.failMoreThan(Diagnostician.Counts([RunResult]()), confidence: 0.95))
    XCTAssertFalse(Diagnostician.Counts([RunResult]()).failMoreThan(counts, confidence: 0.95))
  }
}

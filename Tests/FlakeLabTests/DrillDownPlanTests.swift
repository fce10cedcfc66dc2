import XCTest

@testable import FlakeLab

/// The drill-down's decisions, fed made-up results and no process: what settles an arm, which
/// undecided contrasts run on, how far the second seed goes, what an interrupt or the deadline
/// leaves.
final class DrillDownPlanTests: XCTestCase {
  private let race = PackageTest(id: "M.race()", framework: .swiftTesting)
  private let blocks = PackageTest(id: "M.blocks()", framework: .swiftTesting)
  private let settings = TestSettings(
    seed: 7, timeout: .seconds(60), executors: [], workerExecutable: "/bin/false", program: "flakelab")
  private let now = ContinuousClock.now

  /// The standard arms after a screen of 20 passes.
  private var arms: [DiagnosisArm] {
    let executor = { (id: ExecutorID) in ExecutorCatalog.standard.first { $0.id == id }! }
    return [ExecutorID.global, .serial, .seeded].map {
      DiagnosisArm(executor: executor($0), layout: .repetitions, iterations: 40)
    }
      + [ExecutorID.global, .serial].map { DiagnosisArm(executor: executor($0), layout: .fresh, iterations: 20) }
      + [DiagnosisArm(executor: executor(.global), layout: .stressed, iterations: 40)]
  }

  /// What `launch` came to: `failed` of its iterations failed, the queue's thread blocked in each
  /// where `blocked`; or each timed out.
  private func result(
    _ launch: DrillDownPlan.Request, failed: Int, blocked: Bool = false, timedOut: Bool = false
  ) -> DrillDownPlan.Finished {
    let ran = launch.indices.count
    var tally = Tally()
    tally.record(.passed, count: timedOut ? 0 : ran - failed)
    tally.record(.failed(observation: "x"), count: timedOut ? 0 : failed)
    tally.record(.timedOut, count: timedOut ? ran : 0)
    var run = RunResult(
      RunKey(test: launch.test, executor: launch.arm.executor.id), tally: tally, seconds: 0.01 * Double(ran),
      iterationsAreIndependent: launch.arm.executor.iterationsAreIndependent)
    run.test = TestReference(
      test: launch.test, packagePath: ".", layout: launch.layout, isConfirmation: launch.isSecondSeed)
    run.blockedIterations = blocked ? failed : 0
    return DrillDownPlan.Finished(launch, run)
  }

  /// The screen's 20 passes under `executor`, `failed` of them failing; or the first three timed
  /// out and the rest not run.
  private func suite(_ test: PackageTest, _ executor: ExecutorID, failed: Int, timedOut: Bool = false) -> RunResult {
    var tally = Tally()
    tally.record(.passed, count: timedOut ? 0 : 20 - failed)
    tally.record(.failed(observation: "x"), count: timedOut ? 0 : failed)
    tally.record(.timedOut, count: timedOut ? RunSettling.limit : 0)
    var run = RunResult(
      RunKey(test: test, executor: executor), tally: tally, seconds: 1, iterationsAreIndependent: false)
    run.test = TestReference(test: test, packagePath: ".", layout: .suite)
    if timedOut {
      run.notRun = 20 - RunSettling.limit
      run.stop = .everyIterationTimedOut
    }
    return run
  }

  private func launches(_ action: DrillDownPlan.Action?) -> [DrillDownPlan.Request] {
    guard case .launch(let launches) = action else { return [] }
    return launches
  }

  /// Each arm's first three iterations; an arm of one queue whose three failures each blocked the
  /// queue's thread is settled there (seeded orders run on), the others run the rest.
  func testArmsThatBlockTheQueueSettleAfterTheirFirstIterations() {
    var plan = DrillDownPlan(
      arms: arms, tests: [blocks], screen: [suite(blocks, .global, failed: 0), suite(blocks, .serial, failed: 20)],
      settings: settings)
    let first = launches(plan.start(at: now))
    XCTAssertEqual(first.map(\.indices), Array(repeating: 0..<3, count: 6))
    let runs = first.map { launch in
      launch.arm.order == .parallel ? result(launch, failed: 0) : result(launch, failed: 3, blocked: true)
    }
    let rest = launches(plan.ran(runs, interrupted: false, at: now))
    XCTAssertEqual(rest.map(\.arm.executor.id), [.global, .seeded, .global, .global])
    XCTAssertEqual(rest.map(\.indices), [3..<40, 3..<40, 3..<20, 3..<40])
    XCTAssertEqual(plan.results.filter { $0.stop == .everyIterationFailed }.map(\.executor), [.serial, .serial])
  }

  /// A race the arms leave undecided (2 of 60 alone under global, none of 160 on one
  /// queue) runs its contrast's arms as many iterations again; once it shows, the second seed
  /// asks it again, sized from the first seed's rates, the arms of that contrast only.
  func testAnUndecidedContrastRunsOnThenTheSecondSeedIsSizedFromItsRates() throws {
    var plan = DrillDownPlan(
      arms: arms, tests: [race], screen: [suite(race, .global, failed: 1), suite(race, .serial, failed: 0)],
      settings: settings, budget: TestBudget(.seconds(600), from: now, diagnosisFollows: true))
    // Under global alone, 2 of the first 40 warm repetitions fail, none on one queue.
    let failed = { (launch: DrillDownPlan.Request, count: Int) in
      launch.arm.order == .parallel && launch.arm.layout == .repetitions ? count : 0
    }
    var action = plan.ran(launches(plan.start(at: now)).map { result($0, failed: 0) }, interrupted: false, at: now)
    action = plan.ran(launches(action).map { result($0, failed: failed($0, 2)) }, interrupted: false, at: now)
    let more = launches(action)
    XCTAssertEqual(
      Set(more.map { "\($0.arm.executor.id.name) \($0.arm.layout)" }), ["global repetitions", "serial repetitions"])
    XCTAssertEqual(Set(more.map(\.indices)), [40..<80])
    action = plan.ran(
      more.map { result($0, failed: failed($0, 8)) }, interrupted: false, at: now)
    let second = launches(action)
    XCTAssertTrue(second.allSatisfy(\.isSecondSeed))
    XCTAssertEqual(second.map(\.arm.executor.id), [.global, .serial])
    let size = try XCTUnwrap(second.first?.indices.upperBound)
    XCTAssertEqual(second.first?.indices.lowerBound, 0)
    XCTAssertTrue((SecondSeed.fewest..<(SecondSeed.cap * 40)).contains(size), "\(size)")
    // 1 of the size under global decides nothing: the next look runs as many again, within
    // four times the arm's iterations.
    action = plan.ran(
      second.map { result($0, failed: $0.arm.order == .parallel ? 1 : 0) }, interrupted: false, at: now)
    let next = try XCTUnwrap(launches(action).first?.indices)
    XCTAssertEqual(next, size..<min(2 * size, SecondSeed.cap * 40))
    // Past the budget, no later stage starts, nor the polluter search: the plan is done.
    action = plan.ran(
      launches(action).map { result($0, failed: 0) }, interrupted: false, at: now + .seconds(601))
    XCTAssertNil(action)
    XCTAssertFalse(plan.interrupted)
    XCTAssertEqual(
      plan.results.filter { $0.test?.isConfirmation == true }.map(\.tally.ran), [next.upperBound, next.upperBound])
  }

  /// A contrast that stays undecided (a race failing about 1 in 70 under global alone,
  /// never on one queue: 5 of 340 against none is p = 0.03, short of its share of the error)
  /// runs its arms on in rounds, each doubling them, up to eight times their iterations; with a
  /// share of the budget, only as far as the test's share pays for.
  func testAnUndecidedContrastRunsInDoublingRoundsWithinItsCapAndItsShare() {
    let failed = { (launch: DrillDownPlan.Request) in
      launch.arm.order == .parallel && launch.arm.layout == .repetitions ? max(1, launch.indices.count / 80) : 0
    }
    let screen = [suite(race, .global, failed: 1), suite(race, .serial, failed: 0)]
    func rounds(budget: TestBudget) -> [[Range<Int>]] {
      var plan = DrillDownPlan(arms: arms, tests: [race], screen: screen, settings: settings, budget: budget)
      var action = plan.ran(launches(plan.start(at: now)).map { result($0, failed: 0) }, interrupted: false, at: now)
      action = plan.ran(launches(action).map { result($0, failed: failed($0)) }, interrupted: false, at: now)
      var seen: [[Range<Int>]] = []
      while case let more = launches(action), more.contains(where: { !$0.isSecondSeed && $0.layout == .repetitions }) {
        XCTAssertEqual(Set(more.map { "\($0.arm.executor.id.name)" }), ["global", "serial"])
        seen.append(more.map(\.indices))
        action = plan.ran(more.map { result($0, failed: failed($0)) }, interrupted: false, at: now)
      }
      return seen
    }
    XCTAssertEqual(rounds(budget: .unbounded), [[40..<80, 40..<80], [80..<160, 80..<160], [160..<320, 160..<320]])
    // The arms' first 200 iterations took 2 s at 10 ms each: of a 3.25 s budget, 1.25 s is left
    // for the two arms, 62 iterations each (a round doubles them, to 80); then 22; then none.
    XCTAssertEqual(
      rounds(budget: TestBudget(.milliseconds(3250), from: now, diagnosisFollows: true)),
      [[40..<80, 40..<80], [80..<102, 80..<102]])
  }

  /// Ctrl-C during the first iterations ends the plan: each arm keeps what ran and says the rest
  /// was cut.
  func testAnInterruptEndsThePlanWithTheRestCut() {
    var plan = DrillDownPlan(arms: arms, tests: [race], settings: settings)
    let runs = launches(plan.start(at: now)).map { result($0, failed: 0) }
    XCTAssertNil(plan.ran(runs, interrupted: true, at: now))
    XCTAssertTrue(plan.interrupted)
    XCTAssertEqual(plan.results.map(\.stop), Array(repeating: .interrupted, count: 6))
    XCTAssertEqual(plan.results.map(\.notRun), [37, 37, 37, 17, 17, 37])
  }

  /// A test that timed out in every pass of the screen runs its lead arm first, fresh processes
  /// under global: timed out in its first three there too, it hangs, and its five other arms,
  /// three timeouts each, do not run. One that finishes there is no hang alone: its arms run
  /// as any test's, the lead arm's first iterations counted once.
  func testATestThatHangsEverywhereRunsOneArmThenStops() {
    let screen = [ExecutorID.global, .serial].map { suite(race, $0, failed: 0, timedOut: true) }
    var plan = DrillDownPlan(
      arms: arms, tests: [race], failingEverywhere: [race], screen: screen, settings: settings)
    let lead = launches(plan.start(at: now))
    XCTAssertEqual(lead.map(\.arm.executor.id), [.global])
    XCTAssertEqual(lead.map(\.layout), [.fresh])
    XCTAssertEqual(lead.map(\.indices), [0..<3])
    let hung = lead.map { result($0, failed: 0, timedOut: true) }
    let others = launches(plan.ran(hung, interrupted: false, at: now))
    XCTAssertEqual(others.map(\.indices), Array(repeating: 0..<0, count: 6))
    let next = plan.ran(others.map { result($0, failed: 0) }, interrupted: false, at: now)
    XCTAssertTrue(launches(next).isEmpty)
    XCTAssertEqual(
      plan.results.map(\.stop),
      [.hangsAlone, .hangsAlone, .hangsAlone, .everyIterationTimedOut, .hangsAlone, .hangsAlone])
    XCTAssertEqual(plan.results.map(\.notRun), [40, 40, 40, 17, 20, 40])
    XCTAssertEqual(Diagnostician.judge(screen + plan.results, confidence: 0.95).verdict, .failing)
    // The answer says the unrun arms once, not a line of "0 of 0" each.
    let finding = TestFinding(test: race, runs: screen + plan.results, confidence: 0.95)
    let block = SuiteAnswerText.block(finding, program: "f")
    XCTAssertFalse(block.contains { $0.contains("0 of 0 failed") }, "\(block)")
    XCTAssertEqual(
      block.filter { $0.hasPrefix("    not run: ") },
      [
        "    not run: repetitions, global; repetitions, serial; repetitions, seeded; fresh, serial; stressed, global "
          + "(it timed out in every pass and in its first 3 processes alone, so each further arm would only wait again)"
      ])

    var finishes = DrillDownPlan(
      arms: arms, tests: [race], failingEverywhere: [race], screen: screen, settings: settings)
    let first = launches(finishes.start(at: now))
    let rest = launches(finishes.ran(first.map { result($0, failed: 1) }, interrupted: false, at: now))
    XCTAssertEqual(rest.map(\.indices), [0..<3, 0..<3, 0..<3, 0..<0, 0..<3, 0..<3])
    let after = launches(finishes.ran(rest.map { result($0, failed: 0) }, interrupted: false, at: now))
    XCTAssertEqual(after.map(\.indices), [3..<40, 3..<40, 3..<40, 3..<20, 3..<20, 3..<40])
    XCTAssertEqual(finishes.results[3].tally.iterations, 3)
  }

  /// Fresh processes on one queue that failed some seeds and passed others are replayed: each
  /// failing seed and as many passing ones, a process each; replays that agree too thinly get as
  /// many fresh processes again, after the seeds already run.
  func testFailingSeedsAreReplayedWithAsManyPassingOnes() {
    let draw = PackageTest(id: "M.draw()", framework: .swiftTesting)
    let serial = ExecutorCatalog.standard.first { $0.id == .serial }!
    let seeds = DiagnosisArm(executor: serial, layout: .fresh, iterations: 20)
    XCTAssertTrue(seeds.listsFailingSeeds)
    var plan = DrillDownPlan(
      arms: [seeds], tests: [draw], screen: [suite(draw, .global, failed: 5), suite(draw, .serial, failed: 6)],
      settings: settings)
    let failing: Set<Int> = [9]
    /// What `request` came to: its iterations in `failing` failed, each listed with its seed.
    func ran(_ request: DrillDownPlan.Request) -> DrillDownPlan.Finished {
      let failed = request.indices.filter(failing.contains)
      var tally = Tally()
      tally.record(.passed, count: request.indices.count - failed.count)
      tally.record(.failed(observation: "x"), count: failed.count)
      var schedule = RunSchedule(seed: 7)
      for index in failed { schedule.noteFailing(index: index, fingerprint: 0, outcome: .failed(observation: "x")) }
      var run = RunResult(
        RunKey(test: request.test, executor: .serial), tally: tally, seconds: 0.01 * Double(request.indices.count),
        iterationsAreIndependent: true, schedule: schedule)
      run.test = TestReference(test: request.test, packagePath: ".", layout: request.layout)
      return DrillDownPlan.Finished(request, run)
    }
    let first = launches(plan.start(at: now))
    XCTAssertEqual(first.map(\.indices), [0..<3])
    let rest = launches(plan.ran(first.map(ran), interrupted: false, at: now))
    XCTAssertEqual(rest.map(\.indices), [3..<20])
    let replays = launches(plan.ran(rest.map(ran), interrupted: false, at: now))
    XCTAssertEqual(replays.map(\.layout), [.replay, .replay])
    XCTAssertEqual(replays.map(\.indices.lowerBound), [0, 9])
    XCTAssertTrue(replays.allSatisfy { $0.indices.count == 1 && $0.isScheduled && !$0.isSecondSeed })
    // One seed each way agrees too thinly to tell a seed from chance: twenty more, after the
    // twenty already run, so that no seed comes twice.
    let more = launches(plan.ran(replays.map(ran), interrupted: false, at: now))
    XCTAssertEqual(more.map(\.layout), [.fresh])
    XCTAssertEqual(more.map(\.indices), [20..<40])
    XCTAssertEqual(plan.results.filter { $0.test?.layout == .replay }.map(\.tally.notPassed), [1])
  }

  /// An `interference` victim is searched under the executor whose suite passes failed it
  /// most, among the tests of its framework that ran beside it, the victim itself left out.
  func testTheVictimIsSearchedUnderTheExecutorThatFailedItAmongItsFrameworksTests() {
    let reads = PackageTest(id: "M.reads()", framework: .swiftTesting)
    let changes = PackageTest(id: "M.changes()", framework: .swiftTesting)
    let other = PackageTest(id: "M.other()", framework: .swiftTesting)
    let xctest = PackageTest(id: "M.Tests/testOld", framework: .xctest)
    var plan = DrillDownPlan(
      arms: arms, tests: [reads], screen: [suite(reads, .global, failed: 20), suite(reads, .serial, failed: 0)],
      suite: [changes, reads, xctest, other], settings: settings)
    var action = plan.ran(launches(plan.start(at: now)).map { result($0, failed: 0) }, interrupted: false, at: now)
    action = plan.ran(launches(action).map { result($0, failed: 0) }, interrupted: false, at: now)
    guard case .pass(let pass) = action else { return XCTFail("\(String(describing: action))") }
    XCTAssertEqual(pass.victim.test, reads)
    XCTAssertEqual(pass.victim.executor.id, .global)
    XCTAssertEqual(pass.victim.neighbours, [changes, other])
    XCTAssertEqual(pass.tests, [changes, other, reads])
    // Each pass the victim fails with `changes` and passes without it: `changes` is named.
    var next: DrillDownPlan.Action? = action
    while case .pass(let pass) = next {
      let fails = pass.neighbours.contains(changes)
      next = plan.passRan(.init(failed: fails ? 1 : 0, ran: 1), interrupted: false, at: now)
    }
    XCTAssertNil(next)
    XCTAssertEqual(plan.polluters[reads]?.tests, [changes])
    XCTAssertEqual(plan.polluters[reads]?.placement, .beside)
  }

  /// The tests diagnosed are those that failed in the screen, but one whose only failures were
  /// crashes of a process it shared with others, none of which crashed alone: a run alone has
  /// nothing to explain there. Those that failed every pass settle an arm on three failures.
  func testTheTestsThatFailedInTheScreenAreDiagnosedButACrashBesideOthers() {
    let crashed = PackageTest(id: "M.beside()", framework: .swiftTesting)
    var beside = Tally()
    beside.record(.passed, count: 19)
    beside.record(.crashed(Crash(how: "signal 11", beside: [race], crashedAlone: false)), count: 1)
    var besideRun = RunResult(
      RunKey(test: crashed, executor: .global), tally: beside, seconds: 1, iterationsAreIndependent: false)
    besideRun.test = TestReference(test: crashed, packagePath: ".", layout: .suite)
    let screen = [
      suite(race, .global, failed: 3), suite(race, .serial, failed: 0), suite(blocks, .global, failed: 20),
      suite(blocks, .serial, failed: 20), besideRun,
    ]
    let plan = DrillDownPlan(
      afterScreen: screen, of: [crashed, race, blocks, PackageTest(id: "M.stable()", framework: .swiftTesting)],
      arms: arms, settings: settings)
    XCTAssertEqual(plan.tests, [race, blocks])
    var first = plan
    let launched = launches(first.start(at: now))
    XCTAssertEqual(Set(launched.map(\.test)), [race, blocks])
    // blocks() failed every pass: three failures alone settle each of its arms.
    _ = first.ran(launched.map { result($0, failed: 3) }, interrupted: false, at: now)
    XCTAssertTrue(
      first.results.filter { $0.test?.test == blocks }.allSatisfy { $0.stop == .everyIterationFailed },
      "\(first.results.map { "\($0.key) \(String(describing: $0.stop))" })")
  }

  /// The screen's series: the suite under each executor; with a diagnosis to follow, Swift
  /// Testing's tests one at a time and each test alone under the first executor that runs tests
  /// side by side, the passes alone in half the passes; without one, the suite only.
  func testTheScreenRunsTheSuiteUnderEachExecutorThenOneAtATimeAndAlone() {
    let executors = [ExecutorID.global, .serial].map { id in ExecutorCatalog.standard.first { $0.id == id }! }
    let xctest = PackageTest(id: "M.Tests/testOld", framework: .xctest)
    XCTAssertEqual(
      ScreenSeries.chosen(for: [race, xctest], under: executors, passes: 20, diagnosisFollows: true),
      [
        ScreenSeries(executor: .global, layout: .suite, passes: nil),
        ScreenSeries(executor: .serial, layout: .suite, passes: nil),
        ScreenSeries(executor: .global, layout: .oneAtATime, passes: nil),
        ScreenSeries(executor: .global, layout: .alone, passes: 10),
      ])
    XCTAssertEqual(
      ScreenSeries.chosen(for: [xctest], under: executors, passes: 20, diagnosisFollows: true).map(\.layout),
      [.suite, .suite], "one XCTest test: no passes one at a time, nor alone")
    XCTAssertEqual(
      ScreenSeries.chosen(for: [race, xctest], under: executors, passes: 20, diagnosisFollows: false).map(\.layout),
      [.suite, .suite], "replaying one iteration: the suite only")
    XCTAssertEqual(
      ScreenSeries.chosen(for: [race, xctest], under: Array(executors.suffix(1)), passes: 1, diagnosisFollows: true),
      [ScreenSeries(executor: .serial, layout: .suite, passes: nil)], "on one queue nothing runs side by side")
  }
}

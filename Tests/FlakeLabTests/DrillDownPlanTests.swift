import XCTest

@testable import FlakeLab

/// The drill-down's decisions, fed made-up results and no process: what settles an arm, which
/// undecided contrasts run on, how far the second seed goes, what an interrupt or the deadline
/// leaves.
final class DrillDownPlanTests: XCTestCase {
  private let race = PackageTest(id: "M.race()", framework: .swiftTesting)
  private let blocks = PackageTest(id: "M.blocks()", framework: .swiftTesting)
  private let measurement = RateMeasurement(
    timeout: .seconds(60), seed: 7, workerExecutable: "/bin/false", program: "flakelab")

  /// The standard arms after a screen of 20 passes.
  private var arms: [DrillDown.Arm] {
    let executor = { (id: ExecutorID) in ExecutorCatalog.standard.first { $0.id == id }! }
    return [ExecutorID.global, .serial, .seeded].map {
      DrillDown.Arm(executor: executor($0), layout: .repetitions, iterations: 40)
    }
      + [ExecutorID.global, .serial].map { DrillDown.Arm(executor: executor($0), layout: .fresh, iterations: 20) }
      + [DrillDown.Arm(executor: executor(.global), layout: .stressed, iterations: 40)]
  }

  /// What `launch` came to: `failed` of its iterations failed, the queue's thread blocked in each
  /// where `blocked`; or each timed out.
  private func result(
    _ launch: DrillDownPlan.Launch, failed: Int, blocked: Bool = false, timedOut: Bool = false
  ) -> RunResult {
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
    return run
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

  private func launches(_ action: DrillDownPlan.Action?) -> [DrillDownPlan.Launch] {
    guard case .launch(let launches) = action else { return [] }
    return launches
  }

  /// Each arm's first three iterations; an arm of one queue whose three failures each blocked the
  /// queue's thread is settled there (seeded orders run on), the others run the rest.
  func testArmsThatBlockTheQueueSettleAfterTheirFirstIterations() {
    var plan = DrillDownPlan(
      arms: arms, tests: [blocks], screen: [suite(blocks, .global, failed: 0), suite(blocks, .serial, failed: 20)],
      measurement: measurement)
    let first = launches(plan.start())
    XCTAssertEqual(first.map(\.indices), Array(repeating: 0..<3, count: 6))
    let runs = first.map { launch in
      launch.arm.order == .parallel ? result(launch, failed: 0) : result(launch, failed: 3, blocked: true)
    }
    let rest = launches(plan.ran(runs, interrupted: false, inTime: true))
    XCTAssertEqual(rest.map(\.arm.executor.id), [.global, .seeded, .global, .global])
    XCTAssertEqual(rest.map(\.indices), [3..<40, 3..<40, 3..<20, 3..<40])
    XCTAssertEqual(plan.results.filter { $0.stop == .everyIterationFailed }.map(\.executor), [.serial, .serial])
  }

  /// Issue 44: a race the arms leave undecided (2 of 60 alone under global, none of 160 on one
  /// queue) runs its contrast's arms as many iterations again; once it shows, the second seed
  /// asks it again, sized from the first seed's rates, the arms of that contrast only.
  func testAnUndecidedContrastRunsOnThenTheSecondSeedIsSizedFromItsRates() throws {
    var plan = DrillDownPlan(
      arms: arms, tests: [race], screen: [suite(race, .global, failed: 1), suite(race, .serial, failed: 0)],
      measurement: measurement)
    // Under global alone, 2 of the first 40 warm repetitions fail, none on one queue.
    let failed = { (launch: DrillDownPlan.Launch, count: Int) in
      launch.arm.order == .parallel && launch.arm.layout == .repetitions ? count : 0
    }
    var action = plan.ran(launches(plan.start()).map { result($0, failed: 0) }, interrupted: false, inTime: true)
    action = plan.ran(launches(action).map { result($0, failed: failed($0, 2)) }, interrupted: false, inTime: true)
    let more = launches(action)
    XCTAssertEqual(
      Set(more.map { "\($0.arm.executor.id.name) \($0.arm.layout)" }), ["global repetitions", "serial repetitions"])
    XCTAssertEqual(Set(more.map(\.indices)), [40..<80])
    action = plan.ran(
      more.map { result($0, failed: failed($0, 8)) }, interrupted: false, inTime: true)
    let second = launches(action)
    XCTAssertTrue(second.allSatisfy(\.isSecondSeed))
    XCTAssertEqual(second.map(\.arm.executor.id), [.global, .serial])
    let size = try XCTUnwrap(second.first?.indices.upperBound)
    XCTAssertEqual(second.first?.indices.lowerBound, 0)
    XCTAssertTrue((SecondSeed.fewest..<(SecondSeed.cap * 40)).contains(size), "\(size)")
    // 1 of the size under global decides nothing: the next stage runs as many again, within
    // four times the arm's iterations.
    action = plan.ran(
      second.map { result($0, failed: $0.arm.order == .parallel ? 1 : 0) }, interrupted: false, inTime: true)
    let next = try XCTUnwrap(launches(action).first?.indices)
    XCTAssertEqual(next, size..<min(2 * size, SecondSeed.cap * 40))
    // Past the deadline, no later stage starts: the polluter search's turn, with no victim.
    action = plan.ran(launches(action).map { result($0, failed: 0) }, interrupted: false, inTime: false)
    guard case .searchPolluters(let victims) = action else { return XCTFail("\(String(describing: action))") }
    XCTAssertTrue(victims.isEmpty)
    XCTAssertEqual(
      plan.results.filter { $0.test?.isConfirmation == true }.map(\.tally.ran), [next.upperBound, next.upperBound])
  }

  /// Issue 44: a contrast that stays undecided (a race failing about 1 in 70 under global alone,
  /// never on one queue: 5 of 340 against none is p = 0.03, short of its share of the error)
  /// runs its arms on in rounds, each doubling them, up to eight times their iterations; with a
  /// share of the budget, only as far as the test's share pays for.
  func testAnUndecidedContrastRunsInDoublingRoundsWithinItsCapAndItsShare() {
    let failed = { (launch: DrillDownPlan.Launch) in
      launch.arm.order == .parallel && launch.arm.layout == .repetitions ? max(1, launch.indices.count / 80) : 0
    }
    let screen = [suite(race, .global, failed: 1), suite(race, .serial, failed: 0)]
    func rounds(share: Double?) -> [[Range<Int>]] {
      var plan = DrillDownPlan(arms: arms, tests: [race], screen: screen, measurement: measurement, share: share)
      var action = plan.ran(launches(plan.start()).map { result($0, failed: 0) }, interrupted: false, inTime: true)
      action = plan.ran(launches(action).map { result($0, failed: failed($0)) }, interrupted: false, inTime: true)
      var seen: [[Range<Int>]] = []
      while case let more = launches(action), more.contains(where: { !$0.isSecondSeed && $0.layout == .repetitions }) {
        XCTAssertEqual(Set(more.map { "\($0.arm.executor.id.name)" }), ["global", "serial"])
        seen.append(more.map(\.indices))
        action = plan.ran(more.map { result($0, failed: failed($0)) }, interrupted: false, inTime: true)
      }
      return seen
    }
    XCTAssertEqual(rounds(share: nil), [[40..<80, 40..<80], [80..<160, 80..<160], [160..<320, 160..<320]])
    // The arms' first 200 iterations took 2 s at 10 ms each: of a 3.25 s share, 1.25 s is left
    // for the two arms, 62 iterations each (a round doubles them, to 80); then 22; then none.
    XCTAssertEqual(rounds(share: 3.25), [[40..<80, 40..<80], [80..<102, 80..<102]])
  }

  /// Ctrl-C during the first iterations ends the plan: each arm keeps what ran and says the rest
  /// was cut.
  func testAnInterruptEndsThePlanWithTheRestCut() {
    var plan = DrillDownPlan(arms: arms, tests: [race], measurement: measurement)
    let runs = launches(plan.start()).map { result($0, failed: 0) }
    XCTAssertNil(plan.ran(runs, interrupted: true, inTime: true))
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
      arms: arms, tests: [race], failingEverywhere: [race], screen: screen, measurement: measurement)
    let lead = launches(plan.start())
    XCTAssertEqual(lead.map(\.arm.executor.id), [.global])
    XCTAssertEqual(lead.map(\.layout), [.fresh])
    XCTAssertEqual(lead.map(\.indices), [0..<3])
    let hung = lead.map { result($0, failed: 0, timedOut: true) }
    let others = launches(plan.ran(hung, interrupted: false, inTime: true))
    XCTAssertEqual(others.map(\.indices), Array(repeating: 0..<0, count: 6))
    let next = plan.ran(others.map { result($0, failed: 0) }, interrupted: false, inTime: true)
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
      ["    not run: repetitions, global; repetitions, serial; repetitions, seeded; fresh, serial; stressed, global "
        + "(it timed out in every pass and in its first 3 processes alone, so each further arm would only wait again)"])

    var finishes = DrillDownPlan(
      arms: arms, tests: [race], failingEverywhere: [race], screen: screen, measurement: measurement)
    let first = launches(finishes.start())
    let rest = launches(finishes.ran(first.map { result($0, failed: 1) }, interrupted: false, inTime: true))
    XCTAssertEqual(rest.map(\.indices), [0..<3, 0..<3, 0..<3, 0..<0, 0..<3, 0..<3])
    let after = launches(finishes.ran(rest.map { result($0, failed: 0) }, interrupted: false, inTime: true))
    XCTAssertEqual(after.map(\.indices), [3..<40, 3..<40, 3..<40, 3..<20, 3..<20, 3..<40])
    XCTAssertEqual(finishes.results[3].tally.iterations, 3)
  }
}

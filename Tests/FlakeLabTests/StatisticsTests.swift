import XCTest

@testable import FlakeLab

final class StatisticsTests: XCTestCase {
  func testNormalQuantile() {
    XCTAssertEqual(Normal.twoSidedZ(confidence: 0.95), 1.959963984540054, accuracy: 1e-9)
    XCTAssertEqual(Normal.twoSidedZ(confidence: 0.99), 2.5758293035489, accuracy: 1e-9)
    XCTAssertEqual(Normal.cdf(0), 0.5, accuracy: 1e-15)
  }

  func testWilsonBoundsAgainstKnownValues() {
    let cases: [(failures: Int, n: Int, low: Double, high: Double)] = [
      (0, 100, 0, 0.03699349820698568),
      (5, 100, 0.02154367915436796, 0.11175046923191913),
      (50, 100, 0.4038315303659956, 0.5961684696340044),
      (1000, 1000, 0.996173241514445, 1),
    ]
    for (failures, n, low, high) in cases {
      let interval = WilsonInterval(failures: failures, iterations: n, confidence: 0.95)
      XCTAssertEqual(interval.low, low, accuracy: 1e-9, "\(failures)/\(n)")
      XCTAssertEqual(interval.high, high, accuracy: 1e-9, "\(failures)/\(n)")
    }
    XCTAssertEqual(WilsonInterval(failures: 0, iterations: 0, confidence: 0.95).high, 1)
  }

  private func result(failures: Int, of iterations: Int) -> RunResult {
    var tally = Tally()
    tally.record(.passed, count: iterations - failures)
    if failures > 0 { tally.record(.failed(observation: "x"), count: failures) }
    return RunResult(
      RunKey(scenario: "s", variant: "v", executor: .global), tally: tally, seconds: 1,
      iterationsAreIndependent: false)
  }

  func testMaxGateDecidesOnTheHighEnd() {
    let gate = FailureRateGate(.atMost(0.01))
    // 0 failures prove "at most 1%" from 381 iterations on (z²(1−R)/R = 380.3), not before.
    XCTAssertNil(gate.violation(by: result(failures: 0, of: 381)).map(ProblemText.describe))
    let short = gate.violation(by: result(failures: 0, of: 380)).map(ProblemText.describe)
    XCTAssertNotNil(short)
    XCTAssertTrue(short?.contains("about 381 iterations") == true, short ?? "")
    // A rate above the bound is not a matter of iterations.
    let high = gate.violation(by: result(failures: 30, of: 1000)).map(ProblemText.describe)
    XCTAssertFalse(high?.contains("iterations") == true, high ?? "")
  }

  /// A run in which nothing counted passes no gate: never started, or turned its executor off
  /// in every iteration. A test its framework skipped is the user's choice and fails none.
  func testAGateIsNeverPassedOnARunThatMeasuredNothing() {
    func judged(_ tally: Tally, notRun: Int = 0, stop: RunStop? = nil) -> [String] {
      var run = RunResult(
        RunKey(scenario: "s", variant: "v", executor: .serial), tally: tally, seconds: 1, iterationsAreIndependent: true
      )
      run.notRun = notRun
      run.stop = stop
      var report = Report(runs: [run])
      report.judge(gates: [FailureRateGate(.atMost(0.01))], baseline: nil)
      return report.runs[0].problems.map(ProblemText.describe)
    }
    var changed = Tally()
    changed.record(.executorChanged, count: 40)
    XCTAssertEqual(
      judged(changed),
      [
        "s.v under serial: no iteration was measured (the executor was off when each of its 40 iterations ended), so no gate is shown to hold"
      ])
    XCTAssertEqual(
      judged(Tally(), notRun: 20, stop: .neverStarted),
      [
        "s.v under serial: no iteration was measured (3 processes in a row ended before the test started), so no gate is shown to hold"
      ])
    var skipped = Tally()
    skipped.record(.skipped(reason: "not today"), count: 20)
    XCTAssertEqual(judged(skipped), [])
  }

  func testMinGateDecidesOnTheLowEnd() {
    let gate = FailureRateGate(.atLeast(0.05))
    // 50 of 100 has a low end of 40.4%: shown to be at least 5%.
    XCTAssertNil(gate.violation(by: result(failures: 50, of: 100)).map(ProblemText.describe))
    // 5 of 100 has a low end of 2.2%: not shown, though the point estimate is exactly 5%.
    XCTAssertNotNil(gate.violation(by: result(failures: 5, of: 100)).map(ProblemText.describe))
    // 10 of 100 is above 5%, but 10 iterations' worth of data would not show it.
    let message = gate.violation(by: result(failures: 1, of: 10)).map(ProblemText.describe)
    XCTAssertTrue(message?.contains("would pass with about") == true, message ?? "")
  }

  func testPlanFigures() {
    XCTAssertEqual(IterationPlanner.iterationsToSeeAFailure(rate: 0.01, confidence: 0.95), 299)
    XCTAssertEqual(IterationPlanner.iterationsToSeeAFailure(rate: 0.5, confidence: 0.95), 5)
    XCTAssertEqual(IterationPlanner.failureFreeIterationsToProve(rate: 0.01, confidence: 0.95), 381)
  }

  func testTwoProportionTestAgainstKnownValues() {
    let test = TwoProportionTest(
      baselineFailures: 10, baselineIterations: 1000, failures: 30, iterations: 1000)
    XCTAssertEqual(test.z, 3.1943828249996993, accuracy: 1e-9)
    XCTAssertEqual(test.pValue, 0.0007006507904800952, accuracy: 1e-9)
    XCTAssertTrue(test.roseSignificantly(confidence: 0.95))
    let same = TwoProportionTest(
      baselineFailures: 20, baselineIterations: 1000, failures: 20, iterations: 1000)
    XCTAssertEqual(same.pValue, 0.5, accuracy: 1e-12)
    XCTAssertFalse(same.roseSignificantly(confidence: 0.95))
    let lower = TwoProportionTest(
      baselineFailures: 30, baselineIterations: 1000, failures: 10, iterations: 1000)
    XCTAssertFalse(lower.roseSignificantly(confidence: 0.95))
  }

  func testVerdicts() {
    let never = Verdict(judging: .neverFails, on: result(failures: 0, of: 1000), cores: 2)
    XCTAssertEqual(never.status, .holds)
    XCTAssertEqual(
      Verdict(judging: .neverFails, on: result(failures: 1, of: 1000), cores: 2).status,
      .violated)
    XCTAssertEqual(
      Verdict(judging: .alwaysFails, on: result(failures: 999, of: 1000), cores: 2).status,
      .violated)
    XCTAssertEqual(
      Verdict(judging: .alwaysFails, on: result(failures: 1000, of: 1000), cores: 2).status,
      .holds)
    let unshown = Verdict(judging: .canFail, on: result(failures: 0, of: 1000), cores: 2)
    XCTAssertEqual(unshown.status, .notShown)
    // 1 − 0.05^(1/1000) = 0.2991%: a rarer flake can go unseen in 1,000 iterations.
    XCTAssertTrue(unshown.reason.contains("0.30%"), unshown.reason)
    XCTAssertEqual(
      Verdict(judging: .canPass, on: result(failures: 999, of: 1000), cores: 2).status,
      .holds)
    XCTAssertEqual(
      Verdict(judging: .canPass, on: result(failures: 1000, of: 1000), cores: 2).status,
      .notShown)
  }

  func testCSVQuoting() {
    XCTAssertEqual(ReportCSV.quote("plain"), "plain")
    XCTAssertEqual(ReportCSV.quote("fact was '', then \"x\""), "\"fact was '', then \"\"x\"\"\"")
  }

  func testATextHistogramListsTenOutcomesAndCountsTheRest() {
    var tally = Tally()
    tally.record(.passed, count: 5)
    // Fifteen failures that differ in words: messages that differ only in numbers are one row.
    for failure in "abcdefghijklmno" { tally.record(.failed(observation: "failure \(failure)"), count: 1) }
    let lines = ReportText.histogramLines(tally)
    guard lines.count == 11 else { return XCTFail("\(lines)") }
    XCTAssertTrue(lines[0].contains("passed"))
    XCTAssertTrue(lines[10].contains("6 more distinct outcomes"), lines[10])
    XCTAssertTrue(lines[10].hasPrefix("    6  30.00%"), lines[10])
  }

  func testAClaimCheckCouldNotShowIsASkippedTestCase() {
    var tally = Tally()
    tally.record(.passed, count: 20)
    var result = RunResult(
      RunKey(scenario: "isLoading", variant: "stream", executor: .global), tally: tally, seconds: 0.1,
      iterationsAreIndependent: false)
    result.verdict = Verdict(judging: .canFail, on: result, cores: 2)
    XCTAssertEqual(result.verdict?.status, .notShown)
    let junit = ReportJUnit.render(Report(runs: [result]))
    XCTAssertTrue(junit.contains("<skipped message=\"can fail? not shown: "), junit)
    XCTAssertTrue(junit.contains("skipped=\"1\""), junit)
    XCTAssertFalse(junit.contains("<failure"), junit)
  }

  /// What a stable answer can miss. n passes catch a rate p with 95% probability when
  /// 1 − (1 − p)^n ≥ 0.95: 13.91% in 20 passes, 20.6% in 13 (swift-async-algorithms' hang that
  /// `swift test --no-parallel` met once in 15 runs passed 13 passes unseen).
  func testTheRateAStableAnswerWouldCatch() {
    XCTAssertEqual(SuiteSummary.detectableRate(passes: 20), 0.1391, accuracy: 0.0001)
    XCTAssertEqual(SuiteSummary.detectableRate(passes: 13), 0.2058, accuracy: 0.0001)
    for passes in [1, 5, 20, 100] {
      let rate = SuiteSummary.detectableRate(passes: passes)
      XCTAssertEqual(1 - pow(1 - rate, Double(passes)), 0.95, accuracy: 1e-9)
    }
  }

  /// Fisher's exact test where a polluter's confirmation has few passes: 1 failure in 4 passes
  /// against none in 60 alone is 4 chances in 64 (the normal approximation said 0.00005), no
  /// confirmation; 3 of 3 is one in 39,711.
  func testFishersExactTestAtAFewPasses() {
    let one = FisherExactTest(baselineFailures: 0, baselineIterations: 60, failures: 1, iterations: 4)
    XCTAssertEqual(one.pValueOfARise, 4.0 / 64, accuracy: 1e-12)
    XCTAssertFalse(one.roseSignificantly(confidence: 0.95))
    XCTAssertTrue(
      TwoProportionTest(baselineFailures: 0, baselineIterations: 60, failures: 1, iterations: 4)
        .roseSignificantly(confidence: 0.95), "the approximation this replaces")
    let three = FisherExactTest(baselineFailures: 0, baselineIterations: 60, failures: 3, iterations: 3)
    XCTAssertEqual(three.pValueOfARise, 1.0 / 39_711, accuracy: 1e-12)
    XCTAssertTrue(three.roseSignificantly(confidence: 0.95))
    XCTAssertFalse(
      FisherExactTest(baselineFailures: 3, baselineIterations: 60, failures: 0, iterations: 4)
        .roseSignificantly(confidence: 0.95), "fewer failures is no rise")
    // Two-sided, as the bench's figures use it: a table and its mirror agree.
    let table = FisherExactTest(baselineFailures: 2, baselineIterations: 20, failures: 9, iterations: 20)
    let mirror = FisherExactTest(baselineFailures: 9, baselineIterations: 20, failures: 2, iterations: 20)
    XCTAssertEqual(table.twoSidedPValue, mirror.twoSidedPValue, accuracy: 1e-12)
    XCTAssertLessThan(table.twoSidedPValue, 0.05)
  }
}

import Foundation
import XCTest

@testable import FlakeLab

/// A saved `flakelab test` report keeps its answer: every field of every finding reads back as
/// it was written, every format renders the same from the file as from the run, and `merge`
/// derives the findings again from the runs, to the same answer.
final class SavedAnswerTests: XCTestCase {
  private let victim = PackageTest(id: "M.Shared/readsDefault()", framework: .swiftTesting)
  private let polluter = PackageTest(id: "M.Shared/setsDefault()", framework: .swiftTesting)
  private let crashA = PackageTest(id: "M.Net/a()", framework: .swiftTesting)
  private let crashB = PackageTest(id: "M.Net/b()", framework: .swiftTesting)
  private let random = PackageTest(id: "M.Random/draw()", framework: .swiftTesting)
  private let stable = PackageTest(id: "M.Stable/fine()", framework: .swiftTesting)

  private func run(
    _ test: PackageTest, _ layout: TestReference.ProcessLayout, _ executor: ExecutorID, passed: Int,
    _ others: [(Outcome, Int)] = [], scheduled: Bool = false
  ) -> RunResult {
    var tally = Tally()
    tally.record(.passed, count: passed)
    var schedule = scheduled ? RunSchedule(seed: 7) : nil
    var index = passed
    for (outcome, count) in others {
      tally.record(outcome, count: count, example: "example of \(OutcomeCoding.kind(of: outcome))")
      for _ in 0..<count {
        schedule?.noteFailing(index: index, fingerprint: 0, outcome: outcome)
        index += 1
      }
    }
    var result = RunResult(
      RunKey(scenario: test.suite, variant: test.function, executor: executor), tally: tally, seconds: 2.5,
      iterationsAreIndependent: executor != .global, schedule: schedule)
    result.test = TestReference(test: test, packagePath: "/tmp/pkg", layout: layout)
    result.testSeconds = 0.25
    return result
  }

  /// Screen runs for every test, drill-down runs for the victim; the findings derived as a run
  /// derives them, with the search's polluters and the tests' source locations.
  private func derivedReport() -> Report {
    var victimScreen = run(victim, .suite, .global, passed: 14, [(.failed(observation: "expected 1, got 2"), 6)])
    victimScreen.failedBeside = [polluter: 6, stable: 2]
    let crash = Crash(how: "signal 4 (SIGILL): Fatal error: boom")
    let screen =
      [victimScreen, run(victim, .suite, .serial, passed: 20)]
      + [(crashA, crashB), (crashB, crashA)].map { test, other in
        run(test, .suite, .global, passed: 18, [(.crashed(crash.beside([other], crashedAlone: false)), 2)])
      } + [run(polluter, .suite, .global, passed: 20), run(stable, .suite, .global, passed: 20)]
    let drilled = [
      run(victim, .repetitions, .global, passed: 40), run(victim, .repetitions, .serial, passed: 40),
      run(victim, .fresh, .global, passed: 20),
    ]
    let polluters = Polluters(
      tests: [polluter], isComplete: true, placement: .beside, failed: 5, passes: 5, candidates: 4, processes: 9)
    var report = Report(runs: screen, seed: 7, timeout: .seconds(60))
    report.budget = .seconds(600)
    report.tests = TestFinding.findings(
      of: [victim, crashA, crashB, polluter, stable], runs: screen + drilled, polluters: [victim: polluters],
      locations: [victim: SourceLocation(path: "/tmp/pkg/Tests/M/Shared.swift", line: 12)], confidence: 0.95)
    return report
  }

  private func readBack(_ report: Report) throws -> Report {
    try ReportJSON.read(Array(ReportJSON.render(report).utf8), name: "report.json")
  }

  private func renderings(_ report: Report) -> [String] {
    [
      SuiteAnswerText.render(report, verbose: true), ReportMarkdown.render(report), ReportHTML.render(report),
      ReportAnnotations.lines(report, workspace: "/tmp/pkg").joined(separator: "\n"), ReportJSON.render(report),
    ]
  }

  /// With more than one test not stable, the text answer leads with what a maintainer
  /// triages from: how many, by verdict and by cause, then each cause, the most harmful first,
  /// with what to do in a phrase and a line per test with the line to open; the blocks follow.
  func testTheTextAnswerLeadsWithTheTestsNotStableByCause() throws {
    var report = derivedReport()
    let draws = [
      run(random, .suite, .global, passed: 15, [(.failed(observation: "drew 6"), 5)]),
      run(random, .suite, .serial, passed: 16, [(.failed(observation: "drew 6"), 4)]),
    ]
    report.tests += TestFinding.findings(
      of: [random], runs: draws, polluters: [:],
      locations: [random: SourceLocation(path: "/tmp/pkg/Tests/M/Random.swift", line: 7)], confidence: 0.95)
    let lines = SuiteAnswerText.render(report, verbose: false).split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("2 of 6 tests") }, "\(lines)")
    XCTAssertEqual(
      Array(lines[start..<min(lines.count, start + 8)]),
      [
        "2 of 6 tests not stable: 2 flaky; by cause, the most harmful first: crash-beside-others (the suite's, no test's), "
          + "interference 1, undetermined 1.",
        "  crash-beside-others: the test process crashed with 2 tests in flight, none of which crashed alone; "
          + "find the test in flight that brings on the crash",
        "  interference (1): isolate the state it shares with its neighbours",
        "    M.Shared/readsDefault()  open Tests/M/Shared.swift:12",
        "  undetermined (1): more iterations",
        "    M.Random/draw()  open Tests/M/Random.swift:7",
        "",
        "CRASHED  the test process crashed with 2 tests in flight, none of which crashed alone: one of them crashes only "
          + "sometimes, and no run alone showed which; it counts against none of them",
      ])
  }

  /// The markdown's line of runs alone names a layout only where it is not the line's own.
  func testTheMarkdownNamesNoLayoutTwice() {
    let runs = [
      run(victim, .suite, .global, passed: 14, [(.failed(observation: "x"), 6)]),
      run(victim, .alone, .global, passed: 7, [(.failed(observation: "x"), 3)]),
      run(victim, .fresh, .serial, passed: 10),
    ]
    var report = Report(runs: runs)
    report.tests = TestFinding.findings(of: [victim], runs: runs, polluters: [:], locations: [:], confidence: 0.95)
    let markdown = ReportMarkdown.render(report)
    XCTAssertTrue(markdown.contains("alone: global 3/10, fresh serial 0/10"), markdown)
    XCTAssertFalse(markdown.contains("alone: alone"), markdown)
  }

  /// The page says what the text says of a test beyond its arms (here, the polluter
  /// search's evidence), and each plot's row its counts, as the text's arm lines do.
  func testThePageGivesThePolluterSearchAndEachRowsCounts() throws {
    let report = derivedReport()
    let page = ReportHTML.render(report)
    let finding = try XCTUnwrap(report.tests.first { $0.test == victim })
    let evidence = SuiteAnswerText.evidence(finding)
    XCTAssertTrue(evidence.contains { $0.hasPrefix("polluter search: failed in 5 of 5 passes") }, "\(evidence)")
    for line in evidence { XCTAssertTrue(page.contains(ReportHTML.escaped(line)), line) }
    XCTAssertTrue(page.contains(">6 of 20</text>"), "the victim's suite pass under global")
    XCTAssertTrue(page.contains(">0 of 40</text>"), "its repetitions")
  }

  /// What the passes can miss is said from the tests measured under each executor: one that
  /// turned serial off in every pass (swift-concurrency-extras' own test of its serial executor)
  /// has none there and rests on global, which the sentence says, rather than "100% under serial
  /// (0 passes)".
  func testWhatThePassesCanMissLeavesOutATestWithNoPassThere() {
    let screen = [
      run(polluter, .suite, .global, passed: 3), run(polluter, .suite, .serial, passed: 3),
      run(stable, .suite, .global, passed: 3), run(stable, .suite, .serial, passed: 0, [(.executorChanged, 3)]),
    ]
    var report = Report(runs: screen, seed: 7, timeout: .seconds(60))
    report.tests = TestFinding.findings(
      of: [polluter, stable], runs: screen, polluters: [:], locations: [:], confidence: 0.95)
    let sentences = SuiteSummary(report).sentences { $0 }.joined(separator: "\n")
    XCTAssertTrue(
      sentences.contains(
        "fails in 63.16% of passes or more under global (3 passes) and serial (3 passes) "
          + "(a test with no pass under serial rests on the others)"), sentences)
  }

  /// Each mode of the screen says what its passes can miss, every mode alike.
  func testWhatThePassesCanMissIsSaidForEachModeOfTheScreen() {
    let screen = [
      run(stable, .suite, .global, passed: 20), run(stable, .suite, .serial, passed: 20),
      run(stable, .oneAtATime, .global, passed: 20), run(stable, .alone, .global, passed: 5),
    ]
    var report = Report(runs: Array(screen.prefix(2)), seed: 7, timeout: .seconds(60))
    report.tests = TestFinding.findings(of: [stable], runs: screen, polluters: [:], locations: [:], confidence: 0.95)
    let sentences = SuiteSummary(report).sentences { $0 }.joined(separator: "\n")
    XCTAssertTrue(
      sentences.contains(
        "fails in 13.91% of passes or more under global (20 passes) and serial (20 passes); "
          + "13.91% one at a time (20 passes under global) and 45.07% alone (5 passes under global); "
          + "a rarer failure"), sentences)
  }

  /// A screen the budget cut says why it stopped where it did: at half once a test has failed,
  /// past it while none has.
  func testAScreenTheBudgetCutSaysWhyItStoppedThere() {
    func cut(_ result: RunResult) -> RunResult {
      var result = result
      result.stop = .budgetSpent
      result.notRun = 20 - result.tally.iterations
      return result
    }
    func note(_ screen: [RunResult]) -> String {
      var report = Report(runs: screen, seed: 7, timeout: .seconds(60))
      report.budget = .seconds(600)
      report.tests = TestFinding.findings(
        of: [stable, victim], runs: screen, polluters: [:], locations: [:], confidence: 0.95)
      return SuiteSummary(report).notes { $0 }.joined(separator: "\n")
    }
    let quiet = note([cut(run(stable, .suite, .global, passed: 6)), cut(run(victim, .suite, .global, passed: 6))])
    XCTAssertTrue(
      quiet.contains(
        "No test failed, so the screen went on past half of --budget (300 s of 600 s), toward its end: it ran 6 of 20 "
          + "passes under global."), quiet)
    let failing = note([
      cut(run(stable, .suite, .global, passed: 3)),
      cut(run(victim, .suite, .global, passed: 2, [(.failed(observation: "expected 1, got 2"), 1)])),
    ])
    XCTAssertTrue(
      failing.contains(
        "The screen stops at half of --budget (300 s of 600 s) once a test has failed, "
          + "to leave the diagnosis the rest: it ran 3 of 20 passes under global."), failing)
  }

  func testEveryFieldOfEveryFindingReadsBack() throws {
    var report = derivedReport()
    // A randomness finding, set by hand: the reader reads what was written, not a diagnosis again.
    var randomFinding = TestFinding(
      test: random, verdict: .flaky, diagnosis: .randomness,
      runs: [run(random, .fresh, .serial, passed: 13, [(.failed(observation: "drew 3"), 3)], scheduled: true)])
    randomFinding.randomDraw = .perIteration
    report.tests.append(randomFinding)
    let read = try readBack(report)
    XCTAssertEqual(read.tests.count, report.tests.count)
    for (original, copy) in zip(report.tests, read.tests) {
      XCTAssertEqual(copy.test, original.test)
      XCTAssertEqual(copy.verdict, original.verdict, original.test.id)
      XCTAssertEqual(copy.diagnosis, original.diagnosis, original.test.id)
      XCTAssertEqual(copy.randomDraw, original.randomDraw, original.test.id)
      XCTAssertEqual(copy.polluters, original.polluters, original.test.id)
      XCTAssertEqual(copy.location, original.location, original.test.id)
      XCTAssertEqual(copy.runs.map(\.key), original.runs.map(\.key), original.test.id)
      XCTAssertEqual(copy.runs.map(\.test), original.runs.map(\.test), original.test.id)
      XCTAssertEqual(copy.runs.map(\.tally), original.runs.map(\.tally), original.test.id)
      XCTAssertEqual(copy.runs.map(\.failedBeside), original.runs.map(\.failedBeside), original.test.id)
      XCTAssertEqual(copy.runs.map(\.schedule), original.runs.map(\.schedule), original.test.id)
    }
    XCTAssertEqual(read.tests[0].polluters?.tests, [polluter])
    XCTAssertEqual(read.tests[0].runs[0].failedBeside, [polluter: 6, stable: 2])
    // The crash beside others is values, not words.
    XCTAssertEqual(read.testsInFlightAtCrashes.map(\.test), [crashA, crashB])
    guard case .crashed(let crash)? = read.tests[1].runs[0].tally.outcomesByFrequency.first?.outcome else {
      return XCTFail("no crash read back")
    }
    XCTAssertEqual(crash, Crash(how: "signal 4 (SIGILL): Fatal error: boom", beside: [crashB], crashedAlone: false))
    XCTAssertEqual(read.budget, .seconds(600))
    XCTAssertEqual(renderings(read), renderings(report))
  }

  func testMergeDerivesTheSameAnswerFromTheRuns() throws {
    let report = derivedReport()
    XCTAssertEqual(report.tests.map(\.diagnosis), [.interference, .crashBesideOthers, .crashBesideOthers, nil, nil])
    var merged = try ReportMerger.merge([("report.json", try readBack(report))])
    merged.program = report.program
    XCTAssertEqual(renderings(merged), renderings(report))
  }

  /// Two shards of one measurement: the screen's counts add up, and so do the drill-downs',
  /// arm by arm; the verdicts are those of the sums.
  func testMergedShardsAddTheirDrillDownsArmByArm() throws {
    var first = derivedReport()
    first.shard = try Shard(index: 0, count: 2)
    var second = derivedReport()
    second.shard = try Shard(index: 1, count: 2)
    let merged = try ReportMerger.merge([("0.json", try readBack(first)), ("1.json", try readBack(second))])
    let victimFinding = try XCTUnwrap(merged.tests.first { $0.test == victim })
    XCTAssertEqual(victimFinding.runs.map(\.tally.ran), [40, 40, 80, 80, 40])
    XCTAssertEqual(victimFinding.runs[0].failedBeside, [polluter: 12, stable: 4])
    XCTAssertEqual(victimFinding.diagnosis, .interference)
    XCTAssertEqual(victimFinding.polluters?.tests, [polluter])
  }

  /// A report from before crashes were values says, in words, that none crashed alone.
  func testAnOldReportsCrashBesideOthersIsReadFromItsWords() {
    let entry = JSONValue.object([
      ("outcome", .string("crashed")),
      ("observation", .string("signal 4 (SIGILL): boom (while M.a(), M.b() were in flight; none crashed alone)")),
    ])
    guard case .crashed(let crash)? = OutcomeCoding.outcome(entry, framework: .xctest) else { return XCTFail() }
    XCTAssertTrue(crash.isBesideOthers)
    XCTAssertEqual(crash.how, "signal 4 (SIGILL): boom")
  }

  /// `--baseline` compares tests: fixed only where the fall is significant, and a test whose
  /// verdict did not change and whose rate did not move is not mentioned.
  func testABaselineComparesTestsAndSaysFixedOnlyWhenTheCountsShowIt() throws {
    let baseline = try readBack(derivedReport())
    func report(victimPasses passes: Int) -> Report {
      let screen =
        [run(victim, .suite, .global, passed: passes), run(victim, .suite, .serial, passed: passes)]
        + [polluter, stable].map { run($0, .suite, .global, passed: 20) }
      var report = Report(runs: screen)
      report.tests = TestFinding.findings(
        of: [victim, polluter, stable], runs: screen, polluters: [:], locations: [:], confidence: 0.95)
      return report
    }
    let fixed = report(victimPasses: 40).comparedTests(with: baseline)
    XCTAssertEqual(fixed.map(\.test), [victim])
    XCTAssertEqual(fixed.first?.change, .fixed)
    XCTAssertTrue(
      fixed[0].summary.hasPrefix(
        "M.Shared/readsDefault() was flaky (6 of 40 passes failed), now stable over 80 passes: fixed (one-sided p"),
      fixed[0].summary)
    let short = report(victimPasses: 3).comparedTests(with: baseline)
    XCTAssertEqual(short.first?.change, .notShown, short.first?.summary ?? "")
  }
}

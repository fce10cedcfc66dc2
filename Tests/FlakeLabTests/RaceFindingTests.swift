import Foundation
import XCTest

@testable import FlakeLab

/// What a finding makes of the thread sanitizer's evidence, without a process: the racing line
/// to open, advice that fits a data race, a race with a thread no executor orders, or no data
/// race at all; and the races read back from JSON exactly.
final class RaceFindingTests: XCTestCase {
  private let test = PackageTest(id: "RacesTests.DataRaceTests/testCounterFromTasks", framework: .xctest)
  /// The saved logs' package (`Tests/Reports/ThreadSanitizer`): its paths are `/package`.
  private let package = "/package"

  private func run(_ executor: ExecutorID, _ layout: TestReference.ProcessLayout, failed: Int, of ran: Int) -> RunResult
  {
    var tally = Tally()
    tally.record(.passed, count: ran - failed)
    tally.record(.failed(observation: "XCTAssertEqual failed"), count: failed)
    var result = RunResult(
      RunKey(scenario: test.suite, variant: test.function, executor: executor), tally: tally, seconds: 1,
      iterationsAreIndependent: executor != .global)
    result.test = TestReference(test: test, packagePath: package, layout: layout)
    return result
  }

  /// A race's runs: global fails, one queue never does, warm and fresh.
  private var raceRuns: [RunResult] {
    [
      run(.global, .suite, failed: 12, of: 20), run(.serial, .suite, failed: 0, of: 20),
      run(.global, .repetitions, failed: 16, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
      run(.seeded, .repetitions, failed: 0, of: 40), run(.global, .fresh, failed: 14, of: 20),
    ]
  }

  /// A first-run shape: fresh processes fail, warm ones do not, under global and on one queue.
  private var firstRunRuns: [RunResult] {
    [
      run(.global, .suite, failed: 15, of: 20), run(.serial, .suite, failed: 14, of: 20),
      run(.global, .repetitions, failed: 0, of: 40), run(.serial, .repetitions, failed: 0, of: 40),
      run(.seeded, .repetitions, failed: 0, of: 40), run(.global, .fresh, failed: 18, of: 20),
      run(.serial, .fresh, failed: 17, of: 20),
    ]
  }

  private func evidence(_ log: String, failedRuns: Int = 3) throws -> RaceEvidence {
    let path = ReadmeExamplesTests.root.appendingPathComponent("Tests/Reports/ThreadSanitizer/\(log).log").path
    let races = ThreadSanitizerLog.races(
      in: try String(contentsOfFile: path, encoding: .utf8), packagePath: package, declaration: { _, _ in nil })
    var evidence = RaceEvidence()
    for index in 0..<5 {
      evidence.add(failed: index < failedRuns, races: index < 4 ? races : [], packagePath: package)
    }
    return evidence
  }

  private func finding(_ runs: [RunResult], _ evidence: RaceEvidence) -> TestFinding {
    TestFinding.findings(
      of: [test], runs: runs, polluters: [:], races: [test: evidence], locations: [:], confidence: 0.95)[0]
  }

  func testADataRaceBetweenTasksKeepsItsCauseAndOpensAtTheRacingLine() throws {
    let finding = finding(raceRuns, try evidence("testCounterFromTasks"))
    XCTAssertEqual(finding.diagnosis, .needsParallelism)
    XCTAssertEqual(finding.lead?.reason, .race)
    XCTAssertEqual(finding.lead?.location, SourceLocation(path: "/package/Sources/Races/Counter.swift", line: 5))
    XCTAssertEqual(
      finding.lead?.detail?.hasPrefix(
        "data race: a write at Sources/Races/Counter.swift:5 (`Counter.bump()`, a task) against a write at the same "
          + "line (`Counter.bump()`, a task); in 4 of 5 sanitized runs"), true, finding.lead?.detail ?? "")
    XCTAssertTrue(
      finding.advice?.hasPrefix("fix the race at Sources/Races/Counter.swift:5") == true, finding.advice ?? "")
  }

  func testARaceWithDispatchIsACauseOfItsOwnNeverFirstRun() throws {
    XCTAssertEqual(finding(firstRunRuns, RaceEvidence()).diagnosis, .firstRun)
    let finding = finding(firstRunRuns, try evidence("testConcurrentPerform"))
    XCTAssertEqual(finding.diagnosis, .outsideExecutors)
    XCTAssertTrue(finding.ruledOut.isEmpty)
    XCTAssertTrue(finding.advice?.contains("a Dispatch queue, which no executor orders") == true, finding.advice ?? "")
    XCTAssertNil(finding.replay(program: "flakelab"))
  }

  func testARaceAmongTasksDoesNotOverruleACauseThatIsNotAboutOrder() throws {
    // A test that fails every time keeps its diagnosis: the race is told beside it.
    let failing = [run(.global, .suite, failed: 20, of: 20), run(.serial, .suite, failed: 20, of: 20)]
    let finding = finding(failing, try evidence("testConcurrentPerform"))
    XCTAssertEqual(finding.diagnosis, .alwaysFails)
    XCTAssertEqual(finding.advice, TestDiagnosis.alwaysFails.advice)
  }

  func testNoDataRaceIsALogicalRaceAndNeverThreadSafetyAdvice() {
    var evidence = RaceEvidence()
    for index in 0..<5 { evidence.add(failed: index < 4, races: [], packagePath: package) }
    let finding = finding(raceRuns, evidence)
    XCTAssertEqual(finding.diagnosis, .needsParallelism)
    let advice = finding.advice ?? ""
    XCTAssertTrue(advice.hasPrefix("no data race"), advice)
    XCTAssertFalse(advice.contains("protect both accesses"), advice)
    XCTAssertNotEqual(finding.lead?.reason, .race)
    XCTAssertEqual(
      SuiteAnswerText.raceLines(finding),
      ["thread sanitizer: no data race in 5 sanitized runs, 4 of which failed it: a logical race, not a missing lock"])
  }

  func testRacesReadBackFromJSONExactly() throws {
    var report = Report(runs: raceRuns.filter { $0.test?.layout == .suite }, seed: 7, timeout: .seconds(60))
    report.tests = [finding(raceRuns, try evidence("testTaskAgainstThread"))]
    report.sanitizer = SanitizerSummary(build: .milliseconds(15_300), runs: .milliseconds(38_700), processes: 35)
    let read = try ReportJSON.read(Array(ReportJSON.render(report).utf8), name: "report.json")
    XCTAssertEqual(read.tests.first?.races, report.tests[0].races)
    XCTAssertEqual(read.sanitizer, report.sanitizer)
    // Its contrast showed needs-parallelism: a race with a Thread beside it does not overrule that.
    XCTAssertEqual(read.tests.first?.diagnosis, .needsParallelism)
    // Each access carries its line to open for scripts, or null where it has none of its own.
    let document = try XCTUnwrap(JSONParser.parse(Array(ReportJSON.render(report).utf8)))
    let accesses = document["tests"]?.array?.first?["races"]?["races"]?.array?.first?["accesses"]?.array ?? []
    XCTAssertEqual(accesses.map { $0["line"]?.int }, [nil, 5])
    XCTAssertEqual(accesses.map { $0["runner"]?.string }, ["task", "thread"])
  }

  func testAnnotationsLandOnTheRacingLineOnce() throws {
    var report = Report(runs: raceRuns.filter { $0.test?.layout == .suite }, seed: 7, timeout: .seconds(60))
    report.tests = [finding(raceRuns, try evidence("testCounterFromTasks"))]
    let lines = ReportAnnotations.lines(report, workspace: package)
    // Both accesses are at one line, the test's line to open: one annotation says it all.
    XCTAssertEqual(lines.count, 1)
    XCTAssertTrue(lines[0].hasPrefix("::warning file=Sources/Races/Counter.swift,line=5,"), lines[0])
    XCTAssertTrue(lines[0].contains("Do: fix the race at Sources/Races/Counter.swift:5"), lines[0])
    XCTAssertTrue(ReportJUnit.render(report).contains("race=race: data race: a write at Sources/Races/Counter.swift:5"))
  }

  func testACIRunKeepsItsRacesThroughJSONAndNoStatusChanges() throws {
    var test = CITest(test: test, attempts: [CITest.Attempt(outcome: .passed, seconds: 0.2)])
    test.races = try evidence("testUncheckedStatic", failedRuns: 0)
    var run = CIRun(packagePath: package, retries: 2, timeout: .seconds(60), failOnFlaky: false, seed: 7, tests: [test])
    run.sanitizer = SanitizerSummary(build: .seconds(12), runs: .seconds(9), processes: 10, unattributedRaces: 1)
    XCTAssertFalse(run.failsTheJob)
    let read = try CIJSONReader.read(try XCTUnwrap(JSONParser.parse(Array(CIJSON.render(run).utf8))))
    XCTAssertEqual(read.tests, run.tests)
    XCTAssertEqual(read.sanitizer, run.sanitizer)
    let text = CIText.render(run)
    XCTAssertTrue(text.contains("RACED  \(test.test.id)  passed, but the thread sanitizer saw it race"), text)
    XCTAssertTrue(text.contains("race on `Registry.registered`"), text)
  }

  func testACauseNoRaceShowedKeepsItsAdviceTheRacesBesideIt() throws {
    // Too few failures to show a cause: the sanitizer's slowdown failing it with no race says
    // nothing of a logical race, and a race it saw is evidence, not the answer.
    let thin = [run(.global, .suite, failed: 1, of: 20), run(.serial, .suite, failed: 0, of: 20)]
    var failing = RaceEvidence()
    for index in 0..<5 { failing.add(failed: index < 3, races: [], packagePath: package) }
    let slowed = finding(thin, failing)
    XCTAssertEqual(slowed.diagnosis, .undetermined)
    XCTAssertEqual(slowed.advice, TestDiagnosis.undetermined.advice)
    let raced = finding(thin, try evidence("testCounterFromTasks"))
    XCTAssertEqual(raced.advice, TestDiagnosis.undetermined.advice)
    XCTAssertNotEqual(raced.lead?.reason, .race)
    XCTAssertTrue(SuiteAnswerText.raceLines(raced).first?.hasPrefix("race: data race: a write at") == true)
  }
}

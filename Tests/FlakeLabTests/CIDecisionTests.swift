import XCTest

@testable import FlakeLab

/// `flakelab ci`'s decisions with no process: a test's status from its attempts, which tests run
/// again, and what fails the job.
final class CIDecisionTests: XCTestCase {
  private func test(_ name: String, _ outcomes: [Outcome], quarantined: Bool = false) -> CITest {
    CITest(
      test: PackageTest(id: "M.\(name)()", framework: .swiftTesting),
      attempts: outcomes.enumerated().map { CITest.Attempt(outcome: $1, seconds: 0.01, index: $0) },
      quarantine: quarantined ? .init(test: "M.\(name)()", reason: "known", added: "2026-11-24") : nil)
  }

  func testAStatusIsReadFromThePassAndTheRetries() {
    let failed = Outcome.failed(observation: "x")
    XCTAssertEqual(test("a", [.passed]).status, .passed)
    XCTAssertEqual(test("b", [failed, failed, .passed]).status, .flaky)
    XCTAssertEqual(test("c", [.timedOut, .timedOut, .timedOut]).status, .failed)
    XCTAssertEqual(test("d", [.skipped(reason: "disabled")]).status, .skipped)
    XCTAssertEqual(test("e", []).status, .notRun)
  }

  func testOnlyATestStillFailingRunsAgainAndNoMoreThanItsRetries() {
    let failed = Outcome.failed(observation: "x")
    let tests = [
      test("passed", [.passed]), test("flaky", [failed, .passed]), test("once", [failed]),
      test("spent", [failed, failed, failed]), test("crashed", [.crashed(Crash(how: "signal 4 (SIGILL)"))]),
    ]
    XCTAssertEqual(RetryPlan.next(tests, retries: 2).map(\.id), ["M.once()", "M.crashed()"])
    XCTAssertEqual(RetryPlan.next(tests, retries: 0), [])
  }

  func testTheJobFailsForAFailureNotForAQuarantinedOneAndForFlakyOnlyWhenAsked() {
    let failed = Outcome.failed(observation: "x")
    var run = CIRun(
      packagePath: ".", retries: 2, timeout: .seconds(60), failOnFlaky: false, seed: 7,
      tests: [test("flaky", [failed, .passed]), test("known", [failed, failed, failed], quarantined: true)])
    XCTAssertFalse(run.failsTheJob)
    run.failOnFlaky = true
    XCTAssertEqual(run.failingTheJob.map(\.test.id), ["M.flaky()"])
    run.tests.append(test("broken", [failed, failed, failed]))
    run.failOnFlaky = false
    XCTAssertEqual(run.failingTheJob.map(\.test.id), ["M.broken()"])
  }

  /// A crash of the pass's process with four tests in flight, none of which crashed alone: the
  /// three that passed alone are one block, not three flaky tests (one of them crashes
  /// sometimes, which the runs cannot tell); the one that failed alone keeps its own, saying
  /// its own failure.
  func testTestsFlakyOnlyBesideACrashAreOneBlockAndTheirOwnFailuresStand() {
    let names = ["a", "b", "c", "d"]
    func crash(_ name: String) -> Outcome {
      .crashed(
        Crash(
          how: "signal 4 (SIGILL): Fatal error", beside: names.filter { $0 != name }.map { PackageTest(id: "M.\($0)()", framework: .swiftTesting) },
          crashedAlone: false))
    }
    let run = CIRun(
      packagePath: ".", retries: 2, timeout: .seconds(60), failOnFlaky: false, seed: 7,
      tests: [
        test("a", [crash("a"), .passed]), test("b", [crash("b"), .passed]), test("c", [crash("c"), .passed]),
        test("d", [crash("d"), .failed(observation: "its own"), .failed(observation: "its own")]),
        test("e", [.failed(observation: "x"), .passed]),
      ])
    XCTAssertEqual(run.tests.map(\.isFlakyBesideACrash), [true, true, true, false, false])
    let text = CIText.render(run)
    XCTAssertTrue(
      text.contains(
        """
        CRASHED  the test process crashed with 4 tests in flight, none of which crashed alone: \(CrashBesideOthers.meaning). Flaky, each passed alone:
            M.a(), M.b() and M.c()
            seen: signal 4 (SIGILL): Fatal error
            do: \(CrashBesideOthers.advice)
        """), text)
    // Each failure with the command that runs it again with its draws: the retry alone, else the pass.
    XCTAssertTrue(
      text.contains(
        "FAILED  M.d()  in flight when the pass crashed, failed in 2 retries alone\n    seen: its own\n"
          + "    replay: flakelab test --package-path . --layout fresh --filter '^M\\.d\\(\\)$' --executor global --seed 7 --index 1\n"),
      text)
    XCTAssertTrue(text.contains("    replay: flakelab ci --package-path . --retries 0 --seed 7\n"), text)
    XCTAssertTrue(text.contains("FLAKY  M.e()  failed in the pass, passed in retry 1 alone"), text)
    XCTAssertFalse(text.contains("FLAKY  M.a()"), text)

    // The other forms show the crash once too.
    let markdown = CIMarkdown.render(run)
    XCTAssertTrue(markdown.contains("| `M.d()` | failed | in flight when the pass crashed, failed in 2 retries alone | its own |"), markdown)
    XCTAssertTrue(
      markdown.contains(
        "| `M.a()`, `M.b()`, `M.c()` | flaky beside a crash | the test process crashed with 4 tests in flight, none of which "
          + "crashed alone: \(CrashBesideOthers.meaning) | signal 4 (SIGILL): Fatal error |"), markdown)
    XCTAssertEqual(markdown.components(separatedBy: "\n| `").count - 1, 3, markdown)
    let annotations = CIAnnotations.lines(run, workspace: ".")
    XCTAssertEqual(annotations.map { $0.prefix(while: { $0 != " " }) }, ["::error", "::warning", "::warning"], "\(annotations)")
    XCTAssertEqual(
      annotations.last,
      "::warning title=crash of the pass's process::" + CrashBesideOthers(inFlight: names.map { "M.\($0)()" }, how: nil).sentence
        + " Flaky, each passed alone: M.a(), M.b() and M.c(). Seen: signal 4 (SIGILL): Fatal error")
  }
}

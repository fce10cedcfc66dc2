import XCTest

@testable import FlakeLab

/// `flakelab ci`'s decisions with no process: a test's status from its attempts, which tests run
/// again, and what fails the job.
final class CIDecisionTests: XCTestCase {
  private func test(_ name: String, _ outcomes: [Outcome], quarantined: Bool = false) -> CITest {
    CITest(
      test: PackageTest(id: "M.\(name)()", framework: .swiftTesting),
      attempts: outcomes.map { CITest.Attempt(outcome: $0, seconds: 0.01) },
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
      packagePath: ".", retries: 2, timeout: .seconds(60), failOnFlaky: false,
      tests: [test("flaky", [failed, .passed]), test("known", [failed, failed, failed], quarantined: true)])
    XCTAssertFalse(run.failsTheJob)
    run.failOnFlaky = true
    XCTAssertEqual(run.failingTheJob.map(\.test.id), ["M.flaky()"])
    run.tests.append(test("broken", [failed, failed, failed]))
    run.failOnFlaky = false
    XCTAssertEqual(run.failingTheJob.map(\.test.id), ["M.broken()"])
  }
}

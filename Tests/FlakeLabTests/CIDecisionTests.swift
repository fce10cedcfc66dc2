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

  private func run(_ tests: [CITest]) -> CIRun {
    CIRun(packagePath: ".", retries: 2, timeout: .seconds(60), failOnFlaky: false, seed: 7, tests: tests)
  }

  private func attempt(_ outcome: Outcome, _ placement: CITest.Placement, round: Int) -> CITest.Attempt {
    CITest.Attempt(outcome: outcome, seconds: 0.01, index: round, placement: placement)
  }

  func testOnlyATestStillFailingRunsAgainAloneAndNoMoreThanItsRetries() {
    let failed = Outcome.failed(observation: "x")
    let tests = [
      test("passed", [.passed]), test("flakyAlone", [failed, failed, .passed]), test("once", [failed]),
      test("spent", [failed, failed, failed]), test("crashed", [.crashed(Crash(how: "signal 4 (SIGILL)"))]),
    ]
    XCTAssertEqual(RetryPlan.next(run(tests), retries: 2), [.alone(tests[2].test), .alone(tests[4].test)])
    XCTAssertEqual(RetryPlan.next(run(tests), retries: 0), [])
  }

  /// A test that passed alone runs again after the tests before it, then alone, in turn, until
  /// it passes in the suite or fails alone (flaky) or fails there `retries` times while passing
  /// alone each time (fails in the suite). XCTest's run again up to the last test checked, Swift
  /// Testing's whole.
  func testATestThatPassedAloneRunsAfterTheTestsBeforeItUntilItsStatusIsDecided() {
    let failed = Outcome.failed(observation: "x")
    let passed = [CITest.Attempt(outcome: .passed, seconds: 0)]
    let first = CITest(test: PackageTest(id: "M.T/testA", framework: .xctest), attempts: passed)
    var victim = CITest(
      test: PackageTest(id: "M.T/testB", framework: .xctest),
      attempts: [attempt(failed, .pass, round: 0), attempt(.passed, .alone, round: 1)])
    let last = CITest(test: PackageTest(id: "M.T/testC", framework: .xctest), attempts: passed)
    let swift = CITest(
      test: PackageTest(id: "M.s()", framework: .swiftTesting),
      attempts: [attempt(failed, .pass, round: 0), attempt(.passed, .alone, round: 1)])
    let group = [first.test, victim.test]
    XCTAssertEqual(
      RetryPlan.next(run([first, victim, last, swift]), retries: 2),
      [.suiteAgain(group: group, checking: [victim.test]), .suiteAgain(group: [swift.test], checking: [swift.test])])
    XCTAssertEqual(victim.status, .flaky, "passed alone, nothing run in the suite yet")

    victim.attempts.append(attempt(failed, .suiteAgain, round: 2))
    XCTAssertEqual(RetryPlan.next(run([victim]), retries: 2), [.alone(victim.test)])
    victim.attempts.append(attempt(.passed, .alone, round: 3))
    XCTAssertEqual(
      RetryPlan.next(run([victim]), retries: 2), [.suiteAgain(group: [victim.test], checking: [victim.test])])
    var passesInTheSuite = victim
    victim.attempts.append(attempt(failed, .suiteAgain, round: 4))
    XCTAssertEqual(RetryPlan.next(run([victim]), retries: 2), [])
    XCTAssertEqual(victim.status, .failsInSuite)
    XCTAssertTrue(victim.failsTheJob(failOnFlaky: false), "it fails every time the suite runs as CI runs it")
    XCTAssertFalse(victim.status.passedOnce, "a pass alone is not a pass where CI runs it")

    passesInTheSuite.attempts.append(attempt(.passed, .suiteAgain, round: 4))
    XCTAssertEqual(passesInTheSuite.status, .flaky)
    XCTAssertEqual(RetryPlan.next(run([passesInTheSuite]), retries: 2), [])
    var failsAlone = victim
    failsAlone.attempts[3] = attempt(failed, .alone, round: 3)
    XCTAssertEqual(failsAlone.status, .flaky, "failed alone once: flaky, not the suite's")

    // Interrupted in the middle: what finished says flaky, never failed in the suite.
    var cut = victim
    cut.retriesCut = true
    XCTAssertEqual(cut.status, .flaky)
  }

  /// A failure whose line lies in another test's body stays with the test that ran; once that
  /// test passed alone, the other runs alone, and the failure moves only if it fails there with
  /// the same failure at the same line.
  func testAFailureMovesToItsOriginOnlyWhenTheOriginAloneFailsTheSameWay() {
    let failure = Outcome.failed(observation: "XCTAssertFalse failed")
    let line = SourceLocation(path: "/p/T.swift", line: 14)
    let owner = CITest(
      test: PackageTest(id: "M.T/testA", framework: .xctest), attempts: [.init(outcome: .passed, seconds: 0.01)])
    var pass = CITest.Attempt(outcome: failure, seconds: 0.01, place: line, index: 0, placement: .pass)
    pass.origin = FailureOrigin(test: owner.test.id)
    let bystander = CITest(test: PackageTest(id: "M.T/testB", framework: .xctest), attempts: [pass])
    var ci = run([owner, bystander])
    XCTAssertEqual(bystander.status, .failed, "the reading of the sources takes nothing away")
    XCTAssertEqual(RetryPlan.next(ci, retries: 2), [.alone(bystander.test)])
    ci.record([.alone(bystander.test)], alone: [attempt(.passed, .alone, round: 1)], again: [:], retries: 2)
    XCTAssertEqual(RetryPlan.next(ci, retries: 2), [.ownerAlone(owner.test, checking: bystander.test)])

    // Alone, the owner fails the same way: once is not yet enough, twice is.
    let same = CITest.Attempt(outcome: failure, seconds: 0.01, place: line, index: 2, placement: .alone)
    var shown = ci
    shown.record([.ownerAlone(owner.test, checking: bystander.test)], alone: [same], again: [:], retries: 2)
    XCTAssertNil(shown.tests[1].attempts.first?.origin?.shown)
    XCTAssertEqual(RetryPlan.next(shown, retries: 2), [.ownerAlone(owner.test, checking: bystander.test)])
    shown.record([.ownerAlone(owner.test, checking: bystander.test)], alone: [same], again: [:], retries: 2)
    XCTAssertEqual(shown.tests[1].status, .passed)
    XCTAssertEqual(shown.tests[1].attempts.first?.origin, FailureOrigin(test: owner.test.id, shown: true))
    XCTAssertEqual(shown.tests[0].attempts.first?.recordedWhile, bystander.test.id)
    XCTAssertEqual(shown.tests[0].attempts.map(\.outcome), [failure, failure, failure])
    XCTAssertEqual(shown.tests[0].status, .failed)
    XCTAssertTrue(shown.failsTheJob, "the failure still fails the job, now as its owner's, every time")
    XCTAssertEqual(RetryPlan.next(shown, retries: 2), [])

    // Once passed alone (a process that ended before the late assertion landed), or failed
    // elsewhere: the failure stays, and the test runs after the tests before it.
    for second in [
      CITest.Attempt(outcome: .passed, seconds: 0.01, index: 3, placement: .alone),
      CITest.Attempt(
        outcome: failure, seconds: 0.01, place: SourceLocation(path: "/p/T.swift", line: 20), index: 3,
        placement: .alone),
    ] {
      var stays = ci
      stays.record([.ownerAlone(owner.test, checking: bystander.test)], alone: [same], again: [:], retries: 2)
      stays.record([.ownerAlone(owner.test, checking: bystander.test)], alone: [second], again: [:], retries: 2)
      XCTAssertEqual(stays.tests[1].attempts.first?.origin?.shown, false)
      XCTAssertEqual(stays.tests[0].status, .passed, "its run alone is its own, and it passed in the pass")
      XCTAssertEqual(
        RetryPlan.next(stays, retries: 2),
        [.suiteAgain(group: [owner.test, bystander.test], checking: [bystander.test])])
    }
  }

  /// An owner whose runs alone fail the same way moves nothing while the test that was running
  /// has not passed alone: its failure is its own until then.
  func testNoFailureMovesWhileTheTestThatRanHasNotPassedAlone() {
    let failure = Outcome.failed(observation: "XCTAssertFalse failed")
    let line = SourceLocation(path: "/p/T.swift", line: 14)
    let same = { (round: Int) in
      CITest.Attempt(outcome: failure, seconds: 0.01, place: line, index: round, placement: .alone)
    }
    let owner = CITest(
      test: PackageTest(id: "M.T/testA", framework: .xctest),
      attempts: [CITest.Attempt(outcome: failure, seconds: 0.01, place: line, placement: .pass)])
    var pass = CITest.Attempt(outcome: failure, seconds: 0.01, place: line, index: 0, placement: .pass)
    pass.origin = FailureOrigin(test: owner.test.id)
    var ci = run([owner, CITest(test: PackageTest(id: "M.T/testB", framework: .xctest), attempts: [pass])])
    ci.record([.alone(owner.test), .alone(ci.tests[1].test)], alone: [same(1), same(1)], again: [:], retries: 2)
    ci.record([.alone(owner.test), .alone(ci.tests[1].test)], alone: [same(2), same(2)], again: [:], retries: 2)
    XCTAssertNil(ci.tests[1].attempts.first?.origin?.shown)
    XCTAssertEqual(ci.tests[1].status, .failed, "it failed alone too: its failure is its own")
  }

  /// A run alone that came to nothing (a process that never ran its test) is no attempt; the
  /// runner's rounds are bounded all the same.
  func testARunAloneThatCameToNothingIsNoAttempt() {
    XCTAssertEqual(RetryPlan.rounds(retries: 2), 7)
    var ci = run([test("once", [.failed(observation: "x")])])
    for _ in 0..<10 { ci.record(RetryPlan.next(ci, retries: 2), alone: [nil], again: [:], retries: 2) }
    XCTAssertEqual(ci.tests[0].attempts.count, 1)
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
          how: "signal 4 (SIGILL): Fatal error",
          beside: names.filter { $0 != name }.map { PackageTest(id: "M.\($0)()", framework: .swiftTesting) },
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
          + "    replay: flakelab test --package-path . --layout fresh --filter '^M\\.d\\(\\)$' --executor global --seed 7 --index 1\n"
      ),
      text)
    XCTAssertTrue(text.contains("    replay: flakelab ci --package-path . --retries 0 --seed 7\n"), text)
    XCTAssertTrue(text.contains("FLAKY  M.e()  failed in the pass, passed in retry 1 alone"), text)
    XCTAssertFalse(text.contains("FLAKY  M.a()"), text)

    // The other forms show the crash once too.
    let markdown = CIMarkdown.render(run)
    XCTAssertTrue(
      markdown.contains("| `M.d()` | failed | in flight when the pass crashed, failed in 2 retries alone | its own |"),
      markdown)
    XCTAssertTrue(
      markdown.contains(
        "| `M.a()`, `M.b()`, `M.c()` | flaky beside a crash | the test process crashed with 4 tests in flight, none of which "
          + "crashed alone: \(CrashBesideOthers.meaning) | signal 4 (SIGILL): Fatal error |"), markdown)
    XCTAssertEqual(markdown.components(separatedBy: "\n| `").count - 1, 3, markdown)
    let annotations = CIAnnotations.lines(run, workspace: ".")
    XCTAssertEqual(
      annotations.map { $0.prefix(while: { $0 != " " }) }, ["::error", "::warning", "::warning"], "\(annotations)")
    XCTAssertEqual(
      annotations.last,
      "::warning title=crash of the pass's process::"
        + CrashBesideOthers(inFlight: names.map { "M.\($0)()" }, how: nil).sentence
        + " Flaky, each passed alone: M.a(), M.b() and M.c(). Seen: signal 4 (SIGILL): Fatal error")
  }
}

import Foundation
import XCTest

@testable import FlakeLab

/// A failure keeps the line it was recorded at, and stays with the test that was running when it
/// was recorded, as `swift test` counts it; where the line lies in another test's body that ran
/// before (combine-schedulers' `testRunsOnMain`, whose background assertion XCTest charged to
/// `testVoidsThreadHop`), that test is named as where it probably came from. Events written by
/// hand, no process.
final class FailureLineTests: XCTestCase {
  private var directory: URL!
  private var source: String!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-lines-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    source = directory.appendingPathComponent("UISchedulerTests.swift").path
    // Braces in a string, a comment and a multi-line string do not end a body.
    let text = """
      final class UISchedulerTests: XCTestCase {
        func testVoidsThreadHop() {
          var worked = false
          UIScheduler.shared.schedule { worked = true }
          XCTAssert(worked, "{ not a brace")
        }

        func testRunsOnMain() {
          let queue = DispatchQueue(label: "queue") // {
          let text = \"\"\"
            }
            \"\"\"
          queue.async {
            XCTAssertFalse(worked.value)
          }
        }
      }
      """
    try text.write(toFile: source, atomically: true, encoding: .utf8)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private var bodies: TestBodies {
    let tests = ["M.UISchedulerTests/testVoidsThreadHop", "M.UISchedulerTests/testRunsOnMain"]
    return TestBodies(XCTestDeclaration.find(tests, under: directory.path), listed: tests)
  }

  func testEachLineBelongsToTheTestWhoseBodyHoldsIt() {
    let bodies = bodies
    XCTAssertEqual(bodies.owner(of: SourceLocation(path: source, line: 5)), "M.UISchedulerTests/testVoidsThreadHop")
    XCTAssertEqual(bodies.owner(of: SourceLocation(path: source, line: 6)), "M.UISchedulerTests/testVoidsThreadHop")
    XCTAssertNil(bodies.owner(of: SourceLocation(path: source, line: 7)))
    XCTAssertEqual(bodies.owner(of: SourceLocation(path: source, line: 14)), "M.UISchedulerTests/testRunsOnMain")
    XCTAssertEqual(bodies.owner(of: SourceLocation(path: source, line: 16)), "M.UISchedulerTests/testRunsOnMain")
    XCTAssertNil(bodies.owner(of: SourceLocation(path: source, line: 17)))
    XCTAssertNil(bodies.owner(of: SourceLocation(path: source + ".other", line: 14)))
  }

  /// XCTest runs `testRunsOnMain` first here; its assertion lands while `testVoidsThreadHop` runs.
  /// A reading of the sources never takes the failure away: the bystander fails, and the owner
  /// is named as its probable origin.
  func testAFailureOnAnEndedTestsLineStaysWithTheRunningTestAndNamesTheOwner() throws {
    let owner = "M.UISchedulerTests/testRunsOnMain"
    let bystander = "M.UISchedulerTests/testVoidsThreadHop"
    let feed = try SuiteEventFeed(testIDs: [owner, bystander], bodies: bodies)
    let late = TestEvent.issueRecorded(
      testID: bystander, message: "XCTAssertFalse failed", isFailure: true,
      location: SourceLocation(path: source, line: 14))
    let lines = [
      TestEvent.runStarted, .testStarted(testID: owner), .testEnded(testID: owner), .testStarted(testID: bystander),
      late,
      .testEnded(testID: bystander),
    ].map(\.line)
    XCTAssertTrue(SystemCalls.writeAll(Array(lines.joined().utf8), to: feed.descriptor))
    _ = feed.poll()
    let finished = feed.drain()
    XCTAssertEqual(finished.map(\.test), [0, 1])
    XCTAssertNil(finished[0].outcome, "the owner passed: no reading of sources fails it")
    XCTAssertEqual(finished[1].outcome, .failed(observation: "XCTAssertFalse failed"))
    XCTAssertEqual(finished[1].place, SourceLocation(path: source, line: 14))
    XCTAssertEqual(finished[1].origin, 0, "the owner is named as where it probably came from")
    XCTAssertEqual(feed.ignoredEvents, 0)
  }

  /// A failure recorded while no test runs, on a passed test's line, fails that test: nothing
  /// else would count it.
  func testAFailureRecordedWhileNoTestRanFailsTheTestWhoseLineItIs() throws {
    let owner = "M.UISchedulerTests/testRunsOnMain"
    let feed = try SuiteEventFeed(testIDs: [owner], bodies: bodies)
    let lines = [
      TestEvent.runStarted, .testStarted(testID: owner), .testEnded(testID: owner),
      .issueRecorded(
        testID: nil, message: "XCTAssertFalse failed", isFailure: true,
        location: SourceLocation(path: source, line: 14)),
    ].map(\.line)
    XCTAssertTrue(SystemCalls.writeAll(Array(lines.joined().utf8), to: feed.descriptor))
    _ = feed.poll()
    XCTAssertEqual(
      feed.drain().first?.outcome,
      .failed(observation: "XCTAssertFalse failed (recorded after the test ended, while no test ran)"))
  }

  /// A test's end says how many issues its process recorded; fewer read means the test cut the
  /// lab's channel, and it is never taken to have passed.
  func testAnEndWithIssuesTheLabNeverReadIsNotAPass() throws {
    let test = "M.UISchedulerTests/testVoidsThreadHop"
    let feed = try SuiteEventFeed(testIDs: [test], bodies: bodies)
    let lines = [TestEvent.runStarted, .testStarted(testID: test), .testEnded(testID: test, issues: 1)].map(\.line)
    XCTAssertTrue(SystemCalls.writeAll(Array(lines.joined().utf8), to: feed.descriptor))
    _ = feed.poll()
    XCTAssertEqual(feed.drain().first?.outcome, .failed(observation: TestEventFeed.unreceived(1)))
    // Every issue read: the count agrees, and the outcome is what the issues say.
    let agreeing = try SuiteEventFeed(testIDs: [test], bodies: bodies)
    let said = [
      TestEvent.runStarted, .testStarted(testID: test),
      .issueRecorded(testID: test, message: "known", isFailure: false), .testEnded(testID: test, issues: 1),
    ].map(\.line)
    XCTAssertTrue(SystemCalls.writeAll(Array(said.joined().utf8), to: agreeing.descriptor))
    _ = agreeing.poll()
    XCTAssertEqual(agreeing.drain().first.map { $0.outcome == nil }, true, "a known issue read, nothing lost: passed")
  }

  /// A failure at a line of no test's body (a helper's, a file of its own) is the running test's.
  func testAFailureInAHelperIsTheRunningTests() throws {
    let test = "M.UISchedulerTests/testVoidsThreadHop"
    let feed = try SuiteEventFeed(testIDs: [test], bodies: bodies)
    let helper = SourceLocation(path: directory.appendingPathComponent("Asserts.swift").path, line: 3)
    let lines = [
      TestEvent.runStarted, .testStarted(testID: test),
      .issueRecorded(testID: test, message: "timed out", isFailure: true, location: helper), .testEnded(testID: test),
    ].map(\.line)
    XCTAssertTrue(SystemCalls.writeAll(Array(lines.joined().utf8), to: feed.descriptor))
    _ = feed.poll()
    let finished = feed.drain()
    XCTAssertEqual(finished.first?.outcome, .failed(observation: "timed out"))
    XCTAssertEqual(finished.first?.place, helper)
  }

  /// The line travels in the event as Swift Testing writes it, and is read back.
  func testAnIssuesLineIsReadBackFromTheEventStream() {
    let event = TestEvent.issueRecorded(
      testID: "M.t()/F.swift:1:1", message: "Expectation failed", isFailure: true,
      location: SourceLocation(path: "/p/F.swift", line: 12))
    XCTAssertEqual(TestEvent.parse(Array(event.line.utf8).dropLast()), event)
    let swiftTesting =
      #"{"kind":"event","version":0,"payload":{"kind":"issueRecorded","testID":"M.t()","#
      + #""issue":{"isKnown":false,"sourceLocation":{"_filePath":"/p/F.swift","line":7,"column":5}},"#
      + #""messages":[{"symbol":"fail","text":"Expectation failed"}]}}"#
    guard case .issueRecorded(_, _, _, let location) = TestEvent.parse(Array(swiftTesting.utf8)) else {
      return XCTFail("not an issue")
    }
    XCTAssertEqual(location, SourceLocation(path: "/p/F.swift", line: 7))
  }

  /// The blocking frame the harness names becomes a line in the package.
  func testABlockingFramesPlaceIsALine() throws {
    let place = ThreadBlocks.place(
      call: "dispatch_semaphore_wait", frame: "XCTestCase.fulfillment(of:timeout:) at Tests/Support/Asserts.swift:40")
    XCTAssertEqual(
      ThreadBlocks.location(of: place, from: "/pkg"), SourceLocation(path: "/pkg/Tests/Support/Asserts.swift", line: 40)
    )
    XCTAssertNil(ThreadBlocks.location(of: ThreadBlocks.place(call: "usleep", frame: "T.test()"), from: "/pkg"))
    // The frame's path is the package's as given (`--package-path`), so that a report names it
    // as the run did, wherever `merge` reads it.
    let relative = try XCTUnwrap(ThreadBlocks.location(of: place, from: "Fixtures/P"))
    XCTAssertEqual(relative.path, "Fixtures/P/Tests/Support/Asserts.swift")
    XCTAssertEqual(relative.place(relativeTo: "Fixtures/P"), "Tests/Support/Asserts.swift:40")
  }

  /// A wait that blocked the queue's thread is counted in passing iterations too: one that every
  /// iteration makes, passing or failing, is no cause of the failures, and the arm's line says
  /// which it was.
  func testABlockInPassingIterationsIsCountedApart() throws {
    let test = "M.T/testWaits"
    let feed = try TestEventFeed(testID: test, firstIndex: 0, iterations: 3)
    let blocked = TestEvent.threadBlocked(call: "usleep", frame: "T.testWaits() at Tests/M/T.swift:4")
    let lines = [
      TestEvent.runStarted, .testStarted(testID: test), blocked,
      .issueRecorded(testID: test, message: "late", isFailure: true), .testEnded(testID: test),
      .testStarted(testID: test), blocked, .testEnded(testID: test),
      .testStarted(testID: test), .testEnded(testID: test),
    ].map(\.line)
    XCTAssertTrue(SystemCalls.writeAll(Array(lines.joined().utf8), to: feed.descriptor))
    _ = feed.poll()
    XCTAssertEqual(feed.blocks.failingIterations, 1)
    XCTAssertEqual(feed.blocks.passingIterations, 1)
    var run = RunResult(
      RunKey(test: PackageTest(id: test, framework: .xctest), executor: .serial), tally: Tally(), seconds: 1,
      iterationsAreIndependent: true)
    run.blockedIterations = 1
    run.blockedPassingIterations = 1
    run.blockedAt = "T.testWaits() at Tests/M/T.swift:4, in usleep"
    let line = SuiteAnswerText.armLine(run)
    XCTAssertTrue(
      line.hasSuffix(
        "1 blocked the queue's thread at T.testWaits() at Tests/M/T.swift:4, in usleep (and 1 that passed blocked it too)"
      ),
      line)
  }

  /// In `flakelab test`'s answer, a failure whose line is another test's that ran before it stays
  /// the failing test's, with that test named as where it probably came from, through JSON too.
  func testTheAnswerNamesWhereAFailureProbablyCameFrom() throws {
    let bystander = PackageTest(id: "M.UISchedulerTests/testVoidsThreadHop", framework: .xctest)
    let owner = PackageTest(id: "M.UISchedulerTests/testRunsOnMain", framework: .xctest)
    let place = SourceLocation(path: source, line: 14)
    var run = suiteRun(of: bystander, passed: 16, failed: 1, at: place)
    run.origins = [place: owner]
    var report = Report(runs: [run])
    report.tests = TestFinding.findings(of: [bystander], runs: [run], polluters: [:], locations: [:], confidence: 0.95)
    let read = try ReportJSON.read(Data(ReportJSON.render(report).utf8), name: "r.json")
    XCTAssertEqual(read.runs.first?.origins, [place: owner])
    let text = SuiteAnswerText.render(read, verbose: false)
    let named = "its failure's line, UISchedulerTests.swift:14, is in the body of M.UISchedulerTests/testRunsOnMain"
    XCTAssertTrue(text.contains(named), text)
    XCTAssertNotEqual(read.tests.first?.verdict, .stable, "the failure is still this test's")
  }

  /// Suite passes of `test` under global: `failed` of them with XCTAssertFalse at `place`.
  private func suiteRun(of test: PackageTest, passed: Int, failed: Int, at place: SourceLocation) -> RunResult {
    var tally = Tally()
    tally.record(.passed, count: passed)
    tally.record(.failed(observation: "XCTAssertFalse failed"), count: failed, place: place)
    var run = RunResult(
      RunKey(test: test, executor: .global), tally: tally, seconds: 1, iterationsAreIndependent: false)
    run.test = TestReference(test: test, packagePath: directory.path, layout: .suite)
    return run
  }

  /// The line every format leads with is the failure's, kept through JSON and `merge`.
  func testTheFailuresLineLeadsTheAnswerAndSurvivesJSON() throws {
    let test = PackageTest(id: "M.UISchedulerTests/testRunsOnMain", framework: .xctest)
    let place = SourceLocation(path: source, line: 14)
    let run = suiteRun(of: test, passed: 12, failed: 8, at: place)
    var report = Report(runs: [run])
    report.tests = TestFinding.findings(
      of: [test], runs: [run], polluters: [:], locations: [test: SourceLocation(path: source, line: 8)],
      confidence: 0.95)
    let finding = try XCTUnwrap(report.tests.first)
    XCTAssertNotEqual(finding.verdict, .stable)
    XCTAssertEqual(finding.lead, LeadLine(location: place, reason: .failure, detail: "XCTAssertFalse failed"))
    let text = SuiteAnswerText.render(report, verbose: false)
    XCTAssertTrue(text.contains("    open: UISchedulerTests.swift:14: XCTAssertFalse failed\n"), text)

    let read = try ReportJSON.read(Data(ReportJSON.render(report).utf8), name: "r.json")
    XCTAssertEqual(read.runs.first?.tally.places, run.tally.places)
    XCTAssertEqual(read.tests.first?.lead, finding.lead)
    let annotations = ReportAnnotations.lines(read, workspace: directory.path)
    XCTAssertTrue(
      annotations.contains { $0.hasPrefix("::warning file=UISchedulerTests.swift,line=14,") }, "\(annotations)")
  }

  /// A crash has no recorded issue; the runtime names its line by `#fileID`, found in the
  /// package's test sources.
  func testACrashLeadsWithTheLineTheRuntimeNamed() throws {
    let tests = directory.appendingPathComponent("Tests/M/Deep")
    try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
    try "".write(to: tests.appendingPathComponent("Crashes.swift"), atomically: true, encoding: .utf8)
    let how = "signal 4 (SIGILL): M/Crashes.swift:43: Fatal error: run 100 crashed on purpose"
    XCTAssertEqual(
      LeadLine.crashSite(how, in: directory.path),
      SourceLocation(path: directory.path + "/Tests/M/Deep/Crashes.swift", line: 43))
    XCTAssertNil(
      LeadLine.crashSite(
        "signal 4 (SIGILL): Swift/ContiguousArrayBuffer.swift:691: Fatal error: Index out of range", in: directory.path)
    )
    XCTAssertNil(LeadLine.crashSite("signal 11 (SIGSEGV)", in: directory.path))
  }

  /// `flakelab ci` keeps each attempt's line: in its JSON (read back), its text, its JUnit
  /// message, and the annotation lands on the failure's line, not the declaration's.
  func testCIAttemptsKeepTheirLine() throws {
    let place = SourceLocation(path: source, line: 14)
    var test = CITest(
      test: PackageTest(id: "M.UISchedulerTests/testRunsOnMain", framework: .xctest),
      attempts: [
        .init(outcome: .failed(observation: "XCTAssertFalse failed"), seconds: 0.1, place: place),
        .init(outcome: .passed, seconds: 0.1),
      ])
    test.location = SourceLocation(path: source, line: 8)
    let run = CIRun(
      packagePath: directory.path, retries: 1, timeout: .seconds(60), failOnFlaky: true, seed: 7, tests: [test])
    let read = try CIJSONReader.read(try XCTUnwrap(JSONParser.parse(Array(CIJSON.render(run).utf8))))
    XCTAssertEqual(read.tests.first?.attempts.first?.place, place)
    // One path style in every format: from the package.
    XCTAssertTrue(
      CIText.render(read).contains("seen: XCTAssertFalse failed at UISchedulerTests.swift:14"), CIText.render(read))
    XCTAssertTrue(CIText.render(read).contains("declared at: UISchedulerTests.swift:8"), CIText.render(read))
    XCTAssertTrue(CIJUnit.render(read).contains("XCTAssertFalse failed at UISchedulerTests.swift:14"))
    XCTAssertTrue(
      CIMarkdown.render(read).contains("XCTAssertFalse failed<br>at `UISchedulerTests.swift:14`"),
      CIMarkdown.render(read))
    let annotations = CIAnnotations.lines(read, workspace: directory.path)
    XCTAssertTrue(annotations.contains { $0.contains(" file=UISchedulerTests.swift,line=14,") }, "\(annotations)")
  }
}

/// A failure whose line is a test's that has not run in this process stays with the test that
/// was running: re-charged, it would be dropped, and a failing test would pass.
final class UnrunOwnerTests: XCTestCase {
  func testAFailureOnTheLineOfATestNotRunHereStaysWithTheRunningTest() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-unrun-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = directory.appendingPathComponent("T.swift").path
    try "class T: XCTestCase {\n  func testA() {\n    XCTFail()\n  }\n  func testB() {}\n}\n"
      .write(toFile: source, atomically: true, encoding: .utf8)
    let tests = ["M.T/testA", "M.T/testB"]
    let bodies = TestBodies(XCTestDeclaration.find(tests, under: directory.path), listed: tests)
    // Only testB is in this pass; a line of testA's body is recorded while it runs.
    let feed = try SuiteEventFeed(testIDs: tests, bodies: bodies)
    let lines = [
      TestEvent.runStarted, .testStarted(testID: "M.T/testB"),
      .issueRecorded(
        testID: "M.T/testB", message: "failed", isFailure: true, location: SourceLocation(path: source, line: 3)),
      .testEnded(testID: "M.T/testB"),
    ].map(\.line)
    XCTAssertTrue(SystemCalls.writeAll(Array(lines.joined().utf8), to: feed.descriptor))
    _ = feed.poll()
    let finished = feed.drain()
    XCTAssertEqual(finished.map(\.test), [1])
    XCTAssertEqual(finished.first?.outcome, .failed(observation: "failed"))
  }
}

import Foundation
import XCTest

@testable import FlakeLab

/// The daily job is never less strict than `swift test`: on the StrictJob fixture, whose every
/// failing test fails every time under `swift test`, `flakelab ci` fails each of them, whatever a
/// reading of the sources makes of the failure's line, whether the test cut the lab's channel,
/// and whether it fails only after the tests before it. One run, read back through the typed
/// reader, serves every check; its history keeps the tests a predecessor fails apart from flaky
/// ones.
final class DailyJobStrictnessTests: XCTestCase {
  private struct Job {
    let status: Int32
    let run: CIRun
    let history: String
  }

  private static let job = Result { () throws -> Job in
    let listing = try Fixtures.strictJobBuild.get()
    guard listing.status == 0 else { throw CocoaError(.featureUnsupported, userInfo: ["listing": listing.stderr]) }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strict-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let history = directory.appendingPathComponent("history.sqlite").path
    let result = try Flakelab.run([
      "ci", "--package-path", Fixtures.strictJob, "--skip-build", "--no-progress", "--format", "json",
      "--record", history,
    ])
    let document = try CIJSONReader.read(
      JSONParser.parse(Array(result.stdout.utf8)) ?? .null)
    return Job(status: result.status, run: document, history: history)
  }

  private var job: Job { get throws { try Self.job.get() } }

  private func test(_ name: String) throws -> CITest {
    try XCTUnwrap(try job.run.tests.first { $0.test.id == "StrictJobTests." + name }, name)
  }

  func testEveryTestSwiftTestFailsFailsTheJob() throws {
    let job = try job
    XCTAssertEqual(job.status, 1)
    let failing = Set(job.run.failingTheJob.map(\.test.id))
    let expected: Set<String> = [
      "ShapeTests/testBAfterTheRegexBuilder", "ShapeTests/testDAfterTheDirective",
      "ShapeTests/testFAfterTheEscapedLineBreak",
      "SharedCheckTests/testBReusesTheCheck", "DerivedCheckTests/testCompare", "PollutionTests/testBVictim",
      "LateAssertionTests/testBBystander", "closesDescriptorsThenFails()",
    ]
    XCTAssertEqual(failing, Set(expected.map { "StrictJobTests." + $0 }))
    for passing in [
      "SharedCheckTests/testAChecksTheValue", "BaseCheckTests/testCompare", "LateAssertionTests/testAOwner",
    ] {
      XCTAssertEqual(try test(passing).status, .passed, "no reading of the sources charges \(passing)")
    }
  }

  /// A failure recorded on another test's line stays where `swift test` counts it, with a word
  /// on where it probably came from when the test passes alone.
  func testAFailureOnAnotherTestsLineStaysWithTheTestThatRan() throws {
    XCTAssertEqual(try test("SharedCheckTests/testBReusesTheCheck").status, .failed)
    XCTAssertEqual(try test("DerivedCheckTests/testCompare").status, .failed)
    let bystander = try test("LateAssertionTests/testBBystander")
    XCTAssertEqual(bystander.status, .failsInSuite)
    XCTAssertEqual(
      bystander.attempts.first?.origin,
      FailureOrigin(test: "StrictJobTests.LateAssertionTests/testAOwner", shown: false),
      "the owner ran alone and did not fail so: the failure stays")
    let text = CIText.render(try job.run)
    XCTAssertTrue(
      text.contains(
        "    whose: probably StrictJobTests.LateAssertionTests/testAOwner's (a task that outlived it?)"), text)
  }

  /// Fails every time after the tests before it, passes alone: named so, with those tests, and
  /// kept apart from flaky tests in the history.
  func testATestAPredecessorFailsIsNamedSoAndFailsTheJob() throws {
    let victim = try test("PollutionTests/testBVictim")
    XCTAssertEqual(victim.status, .failsInSuite)
    XCTAssertEqual(victim.attempts.map(\.placement), [.pass, .alone, .suiteAgain, .alone, .suiteAgain])
    let text = CIText.render(try job.run)
    XCTAssertTrue(
      text.contains(
        "FAILS IN SUITE  StrictJobTests.PollutionTests/testBVictim  failed in the pass, passed in 2 retries alone, "
          + "failed in 2 retries after the 5 tests before it"), text)
    XCTAssertTrue(
      text.contains("StrictJobTests.PollutionTests/testAPolluter; one of them probably leaves what fails it"), text)
    XCTAssertTrue(text.contains("2 failed in the suite (passed alone)"), text)

    let history = try Flakelab.run(["history", "--history", try job.history, "--package-path", Fixtures.strictJob])
    XCTAssertEqual(history.status, 0, history.stderr)
    let section = history.stdout.components(separatedBy: "\n\n").first {
      $0.hasPrefix("Failed in the suite every time")
    }
    XCTAssertTrue(section?.contains("StrictJobTests.PollutionTests/testBVictim") ?? false, history.stdout)
    XCTAssertFalse(history.stdout.contains("Flaky:"), history.stdout)
  }

  /// The shapes a lexer misread: each failing test after one is declared where it is.
  func testTheDeclaredLineIsRightAfterEachShape() throws {
    for (name, line) in [
      ("ShapeTests/testBAfterTheRegexBuilder", 15), ("ShapeTests/testDAfterTheDirective", 26),
      ("ShapeTests/testFAfterTheEscapedLineBreak", 38),
    ] {
      let found = try test(name)
      XCTAssertEqual(found.location?.line, line, name)
      XCTAssertNil(found.locationDoubt, name)
      XCTAssertEqual(found.status, .failed, name)
    }
  }

  /// A test that closed the lab's channel and then failed is never passed: its end says an issue
  /// was recorded that never arrived.
  func testATestThatCutTheChannelIsNotPassed() throws {
    let cut = try test("closesDescriptorsThenFails()")
    XCTAssertEqual(cut.status, .failed)
    XCTAssertEqual(cut.seen?.outcome, .failed(observation: TestEventFeed.unreceived(1)))
  }
}

import Foundation
import XCTest

@testable import FlakeLab

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `flakelab ci` on the CIJob fixture, as a CI job runs it: a test that fails once is flaky, a
/// broken one failed, a quarantined broken one does not fail the job, a crash and a hang are
/// results; JUnit marks reruns as Surefire does; `flakelab quarantine` edits the file.
final class CIJobTests: XCTestCase {
  private var state: URL!

  override func setUp() async throws {
    let listing = try Fixtures.ciJobBuild.get()
    XCTAssertEqual(listing.status, 0, listing.stderr)
    state = FileManager.default.temporaryDirectory.appendingPathComponent("cijob-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
  }

  override func tearDown() async throws {
    try? FileManager.default.removeItem(at: state)
  }

  private func ci(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let result = try Flakelab.run(
      ["ci", "--package-path", Fixtures.ciJob, "--skip-build", "--no-progress", "--timeout", "1s"] + arguments,
      environment: ["CIJOB_STATE": state.path])
    return (result.status, result.stdout, result.stderr)
  }

  /// Each test's status and its attempts' outcomes, from `--format json` read back as the run.
  private func statuses(_ json: String) throws -> [String: (status: String, outcomes: [String])] {
    let run = try CIJSONReader.read(XCTUnwrap(JSONParser.parse(Array(json.utf8))))
    return Dictionary(
      uniqueKeysWithValues: run.tests.map { test in
        (test.test.id, (test.status.rawValue, test.attempts.map { OutcomeCoding.kind(of: $0.outcome) }))
      })
  }

  func testATestThatFailsOnceIsFlakyAndPassesTheJobUnlessFlakyFailsIt() throws {
    let filter = ["--filter", "failsOnce|testFailsOnce|adds"]
    let run = try ci(filter + ["--format", "json"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let tests = try statuses(run.stdout)
    XCTAssertEqual(tests["CIJobTests.failsOnce()"]?.status, "flaky")
    // Passed alone, then in the suite again: flaky, not failing after the tests before it.
    XCTAssertEqual(tests["CIJobTests.failsOnce()"]?.outcomes, ["failed", "passed", "passed"])
    XCTAssertEqual(tests["CIJobTests.JobXCTests/testFailsOnce"]?.status, "flaky")
    XCTAssertEqual(tests["CIJobTests.adds()"]?.outcomes, ["passed"])
    // The markers are left: the same tests now pass the first time, so flakiness fails it only once more.
    try FileManager.default.removeItem(at: state)
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    let strict = try ci(filter + ["--fail-on-flaky"])
    XCTAssertEqual(strict.status, 1, strict.stdout)
    XCTAssertTrue(
      strict.stdout.contains("FLAKY  CIJobTests.failsOnce()  failed in the pass, passed in retry 1 alone"),
      strict.stdout)
  }

  func testABrokenTestFailsTheJobAndAQuarantinedOneDoesNot() throws {
    let quarantine = state.appendingPathComponent("quarantine.json").path
    try Quarantine([.init(test: "CIJobTests.brokenButQuarantined()", reason: "issue 12", added: "2026-11-20")]).text
      .write(toFile: quarantine, atomically: true, encoding: .utf8)
    let both = try ci(["--filter", "broken", "--quarantine", quarantine, "--format", "junit"])
    XCTAssertEqual(both.status, 1, both.stderr)
    let root = try XCTUnwrap(try XMLDocument(xmlString: both.stdout).rootElement())
    JUnitSchema.check(root, rules: JUnitSchema.reruns)
    // The broken one: its failure, then a rerun failure per retry; the quarantined one skipped, saying why.
    XCTAssertEqual(try root.nodes(forXPath: "//testcase[@name='broken()']/failure").count, 1)
    XCTAssertEqual(try root.nodes(forXPath: "//testcase[@name='broken()']/rerunFailure").count, 2)
    let skipped = try root.nodes(forXPath: "//testcase[@name='brokenButQuarantined()']/skipped").first as? XMLElement
    XCTAssertTrue(
      skipped?.attribute(forName: "message")?.stringValue?.hasPrefix("quarantined since 2026-11-20 (issue 12); failed")
        ?? false)
    let alone = try ci(["--filter", "brokenButQuarantined", "--quarantine", quarantine])
    XCTAssertEqual(alone.status, 0, alone.stdout)
    XCTAssertTrue(alone.stdout.contains("QUARANTINED  CIJobTests.brokenButQuarantined()"), alone.stdout)
    XCTAssertEqual(
      try root.nodes(forXPath: "//testcase[@name='brokenButQuarantined()']/@status").first?.stringValue, "failed",
      "what the run made of it, for a history")
    // An empty file quarantines nothing: --quarantine /dev/null runs with none.
    let none = try ci(["--filter", "brokenButQuarantined", "--quarantine", "/dev/null"])
    XCTAssertEqual(none.status, 1, none.stdout + none.stderr)
    XCTAssertTrue(none.stdout.contains("FAILED  CIJobTests.brokenButQuarantined()"), none.stdout)
  }

  func testACrashAndAHangAreResultsAndTheFlakyOneIsASurefireFlakyFailure() throws {
    let run = try ci(["--filter", "crashesOnce|hangs|testFailsOnce", "--format", "junit"])
    XCTAssertEqual(run.status, 1, run.stderr)
    let root = try XCTUnwrap(try XMLDocument(xmlString: run.stdout).rootElement())
    JUnitSchema.check(root, rules: JUnitSchema.reruns)
    XCTAssertEqual(try root.nodes(forXPath: "//testcase[@name='testFailsOnce']/flakyFailure").count, 1)
    XCTAssertEqual(try root.nodes(forXPath: "//testcase[@name='testFailsOnce']/failure").count, 0)
    // The hang: an error in the pass (the crash beside it, or its own timeout), then a timeout per retry.
    XCTAssertEqual(try root.nodes(forXPath: "//testcase[@name='hangs()']/error").count, 1)
    XCTAssertEqual(try root.nodes(forXPath: "//testcase[@name='hangs()']/rerunError[@type='timedOut']").count, 2)
    // The crash came in the pass and the retry alone passed: flaky, as an error. With the hang in
    // flight beside it (as it mostly is), neither test repeated the crash alone; under load the
    // crash may come before the hang starts, and is the crash's own.
    XCTAssertEqual(
      try root.nodes(
        forXPath: "//testcase[@name='crashesOnce()']/flakyError[@type='crashBesideOthers' or @type='crashed']"
      ).count, 1,
      run.stdout)
  }

  /// `--record`: the run in the history, read with the sqlite3 shell; a file that is no history
  /// is refused before anything runs, and left as it was.
  func testARunIsRecordedAndABadHistoryIsRefusedUntouched() throws {
    let history = state.appendingPathComponent("history.sqlite").path
    let run = try ci(["--filter", "failsOnce|adds", "--record", history])
    XCTAssertEqual(run.status, 0, run.stderr)
    let shell = Process()
    let output = Pipe()
    shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    shell.arguments = [
      "sqlite3", history,
      "SELECT command, count(*) FROM runs; SELECT test, status, attempts, failures FROM results ORDER BY test;",
    ]
    shell.standardOutput = output
    try shell.run()
    shell.waitUntilExit()
    let rows = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
    XCTAssertEqual(
      rows,
      ["ci|1", "CIJobTests.adds()|passed|1|0", "CIJobTests.failsOnce()|flaky|3|1"],
      "the pass, a run alone, and one after the tests before it")
    let notes = state.appendingPathComponent("notes.txt").path
    try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: notes))
    let refused = try ci(["--filter", "adds", "--record", notes])
    XCTAssertEqual(refused.status, 2)
    XCTAssertEqual(refused.stdout, "", "nothing ran")
    XCTAssertEqual(
      refused.stderr,
      "flakelab: \(notes) is not a FlakeLab history (an SQLite file FlakeLab made); it was left as it was\n")
    XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes\n")
  }

  func testTheQuarantineCommandKeepsTheFileSortedAndRefusesWhatItCannotDo() throws {
    let file = state.appendingPathComponent("q.json").path
    func quarantine(_ arguments: [String]) throws -> Flakelab.Result {
      try Flakelab.run(
        ["quarantine"] + arguments + ["--package-path", Fixtures.ciJob, "--quarantine", file, "--skip-build"])
    }
    let unknown = try quarantine(["add", "CIJobTests.brokn()", "--reason", "x"])
    XCTAssertEqual(unknown.status, 2)
    XCTAssertEqual(unknown.stderr.split(separator: "\n").count, 1, unknown.stderr)
    XCTAssertTrue(unknown.stderr.contains("did you mean 'CIJobTests.broken()'"), unknown.stderr)
    XCTAssertEqual(try quarantine(["add", "CIJobTests.hangs()", "--reason", "waits for ever"]).status, 0)
    XCTAssertEqual(try quarantine(["add", "CIJobTests.broken()", "--reason", "issue 3"]).status, 0)
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let lines = text.split(separator: "\n")
    XCTAssertEqual(lines.count, 4, text)
    XCTAssertTrue(lines[1].contains("\"test\": \"CIJobTests.broken()\""), text)
    XCTAssertTrue(lines[2].contains("\"test\": \"CIJobTests.hangs()\""), text)
    XCTAssertEqual(try quarantine(["remove", "CIJobTests.broken()"]).status, 0)
    XCTAssertEqual(try quarantine(["remove", "CIJobTests.broken()"]).status, 2)
    let list = try quarantine(["list"])
    XCTAssertTrue(list.stdout.hasPrefix("CIJobTests.hangs()  "), list.stdout)
  }
}

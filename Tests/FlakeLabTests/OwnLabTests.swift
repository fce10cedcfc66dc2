import Foundation
import XCTest

@testable import FlakeLab

/// A lab of one's own: the OwnLab fixture depends on FlakeLab by path, declares a scenario and
/// an executor of its own, and is `LabCommandLine.main(catalog:)`. Its executable gets every
/// command, supervised, with replay commands that name it. Built once per test run.
final class OwnLabTests: XCTestCase {
  static let package = Fixtures.directory.appendingPathComponent("OwnLab")
  static let executable = package.appendingPathComponent(".build/debug/own-lab").path

  /// Built where the fixture's earlier builds are, which FlakeLab's own sources change under:
  /// SwiftPM's incremental build of a path dependency whose file was renamed or removed stops at
  /// "missing inputs" naming the old file, and a build from nothing is then the only one.
  static let build = Result {
    OwnProcesses.takeCharge
    let arguments = ["build", "--package-path", package.path]
    let first = try CapturedProcess.run("swift", arguments)
    let stale = (first.output + first.errorOutput).contains("because of missing inputs")
    guard first.status != 0, stale else { return first }
    try FileManager.default.removeItem(at: package.appendingPathComponent(".build"))
    return try CapturedProcess.run("swift", arguments)
  }

  override func setUp() async throws {
    let build = try Self.build.get()
    XCTAssertEqual(build.status, 0, build.output + build.errorOutput)
  }

  private func ownLab(_ arguments: [String]) throws -> CapturedProcess {
    try CapturedProcess.run(Self.executable, arguments + (arguments.first == "replay" ? [] : ["--no-progress"]))
  }

  /// The runs of a JSON report, by `scenario.variant executor`.
  private func runs(_ result: CapturedProcess) throws -> [String: RunResult] {
    XCTAssertFalse(result.output.isEmpty, result.errorOutput)
    let report = try ReportJSON.read(Array(result.output.utf8), name: "stdout")
    return Dictionary(uniqueKeysWithValues: report.runs.map { ("\($0.selector) \($0.executor)", $0) })
  }

  func testListShowsTheLabsOwnScenarioAndExecutor() throws {
    let result = try CapturedProcess.run(Self.executable, ["list"])
    XCTAssertEqual(result.status, 0, result.errorOutput)
    XCTAssertTrue(result.output.hasPrefix("counter: a tap counts once its increment has loaded\n"), result.output)
    XCTAssertTrue(
      result.output.contains("\n  detached  the body in a detached task, off the main actor\n"), result.output)
    XCTAssertFalse(result.output.contains("isLoading"), result.output)
  }

  /// A lab of one's own links FlakeLabCommand, which keeps no history: it never loads
  /// SQLite (nor do its workers, which are it), and it says so when asked to record a run.
  func testALabOfOnesOwnLinksNoSQLiteAndRecordsNothing() throws {
    var environment = ProcessInfo.processInfo.environment
    environment["LD_TRACE_LOADED_OBJECTS"] = "1"
    let loaded = try CapturedProcess.run(Self.executable, ["list"], environment: environment)
    XCTAssertTrue(loaded.output.contains("libc.so"), loaded.output)
    XCTAssertFalse(loaded.output.contains("libsqlite3"), loaded.output)
    let recorded = try ownLab(["ci", "--package-path", Self.package.path, "--record", "h.sqlite"])
    XCTAssertEqual(recorded.status, 2)
    XCTAssertEqual(
      recorded.errorOutput, "own-lab: --record needs a history, which own-lab does not keep (flakelab does)\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: "h.sqlite"))
  }

  func testItsOwnExecutorRunsSupervisedWithJobs() throws {
    let detached = try ownLab([
      "run", "counter", "--executor", "detached", "--jobs", "2", "--iterations", "200", "--format", "json",
    ])
    XCTAssertEqual(detached.status, 0, detached.errorOutput)
    let measured = try runs(detached)
    XCTAssertEqual(measured["counter.awaited detached"]?.tally.passed, 200)
    XCTAssertEqual(measured["counter.naive detached"]?.tally.iterations, 200)
    // Not an executor that fixes the order: measured as replicates.
    XCTAssertEqual(measured["counter.naive detached"]?.replicates.count, 10)
    XCTAssertEqual(measured["counter.naive detached"]?.iterationsAreIndependent, false)
    let serial = try runs(
      ownLab(["run", "counter.naive", "--executor", "serial", "--jobs", "2", "--iterations", "200", "--format", "json"])
    )
    XCTAssertEqual(serial["counter.naive serial"]?.tally.passed, 200)
  }

  func testCheckJudgesItsOwnClaims() throws {
    let result = try ownLab(["check", "--iterations", "200"])
    XCTAssertEqual(result.status, 0, result.output + result.errorOutput)
    XCTAssertTrue(result.output.hasSuffix("\n10 hold, 0 violated, 0 not shown\n"), result.output)
    XCTAssertTrue(
      result.output.split(separator: "\n").contains { $0.hasPrefix("counter.naive    detached  can fail     holds") },
      result.output)
  }

  func testReplayCommandsNameItsExecutableAndReplay() throws {
    let run = try ownLab(["run", "counter.naive", "--executor", "seeded", "--seed", "5", "--iterations", "50"])
    XCTAssertEqual(run.status, 0, run.errorOutput)
    let replay = try XCTUnwrap(
      run.output.split(separator: "\n").first { $0.hasPrefix("    replay: ") }, run.output)
    let words = replay.dropFirst("    replay: ".count).split(separator: " ").map(String.init)
    XCTAssertEqual(words.first, "own-lab")
    let replayed = try ownLab(Array(words.dropFirst()))
    XCTAssertEqual(replayed.status, 0, replayed.errorOutput)
    XCTAssertTrue(replayed.output.contains("\noutcome: the count was 0 right after the tap\n"), replayed.output)
  }

  func testItsErrorsNameIt() throws {
    let result = try ownLab(["run", "counter", "--executor", "tracing"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(
      result.errorOutput,
      "own-lab: unknown executor 'tracing' (executors: global, serial, seeded, fifo, detached)\n")
  }

  func testItsOwnExecutorIsRefusedInsideATestProcessWithTheReason() throws {
    let result = try ownLab(["test", "--package-path", Self.package.path, "--executors", "serial,detached"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(
      result.errorOutput,
      "own-lab: the detached executor cannot run inside a package's test process: it runs a scenario's body, "
        + "and a test binary runs its own tests, which only a harness mechanism can put under an executor "
        + "(test runs under global, serial, seeded, fifo)\n")
  }
}

import Foundation
import XCTest

@testable import FlakeLab

/// Crashes and hangs inside a scenario are outcomes, counted exactly, and a run goes on;
/// replicates, through the real executable.
final class CrashAndHangIsolationTests: XCTestCase {
  func testCrashesAreCountedExactlyAndTheRunCompletes() throws {
    for jobs in ["1", "2"] {
      let (status, report) = try Flakelab.runReport(["run", "lab.crash", "--iterations", "1000", "--jobs", jobs])
      XCTAssertEqual(status, 0)
      XCTAssertEqual(
        Flakelab.counts(report.runs.first),
        ["iterations": 1000, "passed": 990, "failed": 0, "crashed": 10, "timedOut": 0], "jobs \(jobs)")
      XCTAssertEqual(
        report.runs.first?.tally.histogram.map(\.outcome),
        [.passed, .crashed(Crash(how: "signal 4 (SIGILL): Fatal error: lab.crash traps on purpose"))])
    }
  }

  func testHangsAreTimedOutExactly() throws {
    for jobs in ["1", "2"] {
      let (status, report) = try Flakelab.runReport([
        "run", "lab.hang", "--iterations", "200", "--timeout", "200ms", "--jobs", jobs,
      ])
      XCTAssertEqual(status, 0)
      XCTAssertEqual(
        Flakelab.counts(report.runs.first),
        ["iterations": 200, "passed": 196, "failed": 0, "crashed": 0, "timedOut": 4], "jobs \(jobs)")
    }
  }

  func testAWorkerWhoseEveryIterationFailsIsNotTakenForHung() throws {
    // Every iteration fails, so every step of progress arrives as a failure record; the run
    // lasts many times the timeout, and not one iteration may count as timed out.
    let (status, report) = try Flakelab.runReport([
      "run", "isLoading.naive", "--executor", "serial", "--iterations", "200000", "--timeout", "100ms",
    ])
    XCTAssertEqual(status, 0)
    XCTAssertEqual(
      Flakelab.counts(report.runs.first),
      ["iterations": 200_000, "passed": 0, "failed": 200_000, "crashed": 0, "timedOut": 0])
  }

  func testGlobalRunsAreMeasuredAsReplicatesAndIndependentOnesNeedNone() throws {
    // Global: ten replicates by default, each a block of its own, adding up to the run.
    let (status, global) = try Flakelab.runReport(["run", "lab.crash", "--iterations", "1000"])
    XCTAssertEqual(status, 0)
    let run = try XCTUnwrap(global.runs.first)
    XCTAssertEqual(
      run.replicates, Array(repeating: ReplicateCounts(iterations: 100, passed: 99, crashed: 1), count: 10))
    XCTAssertEqual(run.estimate.method, .quasiBinomialWilson)
    XCTAssertEqual(run.estimate.dispersion, 1)
    // Serial: one per job, and the binomial interval.
    let (_, serial) = try Flakelab.runReport(
      ["run", "isLoading.naive", "--executor", "serial", "--iterations", "30", "--jobs", "2"])
    XCTAssertEqual(serial.runs.first?.replicates.map(\.iterations), [15, 15])
    XCTAssertEqual(serial.runs.first?.estimate.method, .wilson)
    XCTAssertNil(serial.runs.first?.estimate.dispersion)
    // --replicates for every run of a command; more than the iterations gives one each.
    let (_, compared) = try Flakelab.runReport([
      "compare", "isLoading.naive", "--executors", "global,serial", "--iterations", "3", "--replicates", "5",
    ])
    XCTAssertEqual(compared.runs.map(\.replicates.count), [3, 3])
    for bad in ["0", "10001", "x"] {
      let result = try Flakelab.run(["run", "isLoading.naive", "--replicates", bad])
      XCTAssertEqual(result.status, 2, bad)
      XCTAssertTrue(result.stderr.hasPrefix("flakelab: --replicates takes"), result.stderr)
    }
  }
}

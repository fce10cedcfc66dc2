import Foundation
import XCTest

@testable import FlakeLab

/// Crashes and hangs inside a scenario are outcomes, counted exactly, and a run goes on;
/// replicates, through the real executable.
final class CrashAndHangIsolationTests: XCTestCase {
  func testCrashesAreCountedExactlyAndTheRunCompletes() throws {
    for jobs in ["1", "2"] {
      let (status, runs) = try Flakelab.runJSON(["run", "lab.crash", "--iterations", "1000", "--jobs", jobs])
      XCTAssertEqual(status, 0)
      XCTAssertEqual(
        Flakelab.counts(runs[0]),
        ["iterations": 1000, "passed": 990, "failed": 0, "crashed": 10, "timedOut": 0], "jobs \(jobs)")
      let outcomes = try XCTUnwrap(runs[0]["outcomes"] as? [[String: Any]])
      let crash = try XCTUnwrap(outcomes.first { $0["outcome"] as? String == "crashed" })
      XCTAssertEqual(
        crash["observation"] as? String, "signal 4 (SIGILL): Fatal error: lab.crash traps on purpose")
    }
  }

  func testHangsAreTimedOutExactly() throws {
    for jobs in ["1", "2"] {
      let (status, runs) = try Flakelab.runJSON([
        "run", "lab.hang", "--iterations", "200", "--timeout", "200ms", "--jobs", jobs,
      ])
      XCTAssertEqual(status, 0)
      XCTAssertEqual(
        Flakelab.counts(runs[0]),
        ["iterations": 200, "passed": 196, "failed": 0, "crashed": 0, "timedOut": 4], "jobs \(jobs)")
    }
  }

  func testAWorkerWhoseEveryIterationFailsIsNotTakenForHung() throws {
    // Every iteration fails, so every step of progress arrives as a failure record; the run
    // lasts many times the timeout, and not one iteration may count as timed out.
    let (status, runs) = try Flakelab.runJSON([
      "run", "isLoading.naive", "--executor", "serial", "--iterations", "200000", "--timeout", "100ms",
    ])
    XCTAssertEqual(status, 0)
    XCTAssertEqual(
      Flakelab.counts(runs[0]),
      ["iterations": 200_000, "passed": 0, "failed": 200_000, "crashed": 0, "timedOut": 0])
  }

  func testGlobalRunsAreMeasuredAsReplicatesAndIndependentOnesNeedNone() throws {
    func replicates(_ run: [String: Any]) -> [[String: Int]] {
      (run["replicates"] as? [[String: Any]] ?? []).map { replicate in
        replicate.compactMapValues { $0 as? Int }
      }
    }
    // Global: ten replicates by default, each a block of its own, adding up to the run.
    let (status, global) = try Flakelab.runJSON(["run", "lab.crash", "--iterations", "1000"])
    XCTAssertEqual(status, 0)
    XCTAssertEqual(
      replicates(global[0]),
      Array(repeating: ["iterations": 100, "passed": 99, "failed": 0, "crashed": 1, "timedOut": 0, "deadlocked": 0, "skipped": 0, "executorChanged": 0], count: 10))
    XCTAssertEqual((global[0]["confidence"] as? [String: Any])?["method"] as? String, "quasi-binomial-wilson")
    XCTAssertEqual(global[0]["dispersion"] as? Double, 1)
    // Serial: one per job, and the binomial interval.
    let (_, serial) = try Flakelab.runJSON(["run", "isLoading.naive", "--executor", "serial", "--iterations", "30", "--jobs", "2"])
    XCTAssertEqual(replicates(serial[0]).map { $0["iterations"] }, [15, 15])
    XCTAssertEqual((serial[0]["confidence"] as? [String: Any])?["method"] as? String, "wilson")
    XCTAssertTrue(serial[0]["dispersion"] is NSNull)
    // --replicates for every run of a command; more than the iterations gives one each.
    let (_, compared) = try Flakelab.runJSON([
      "compare", "isLoading.naive", "--executors", "global,serial", "--iterations", "3", "--replicates", "5",
    ])
    XCTAssertEqual(compared.map { replicates($0).count }, [3, 3])
    for bad in ["0", "10001", "x"] {
      let result = try Flakelab.run(["run", "isLoading.naive", "--replicates", bad])
      XCTAssertEqual(result.status, 2, bad)
      XCTAssertTrue(result.stderr.hasPrefix("flakelab: --replicates takes"), result.stderr)
    }
  }
}

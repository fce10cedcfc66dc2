import Foundation
import XCTest

@testable import FlakeLab

/// The `flakelab` executable as a user runs it: output, one-line errors and exit statuses.
final class CommandLineTests: XCTestCase {
  func testUnknownScenarioIsOneLineAndExitTwo() throws {
    let result = try Flakelab.run(["run", "isLoadnig"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(result.stderr, "flakelab: unknown scenario 'isLoadnig'; did you mean 'isLoading'?\n")
    XCTAssertEqual(result.stdout, "")
  }

  func testBadInputAlwaysExitsTwoWithOneLine() throws {
    let cases: [[String]] = [
      ["run", "isLoading", "--iterations", "zero"],
      ["run", "isLoading", "--iterations", "-5"],
      ["run", "isLoading", "--bogus"],
      ["run", "isLoading", "--executor", "nope"],
      ["run", "isLoading", "--format", "xml"],
      ["run", "isLoading", "--max-failure-rate", "2"],
      ["run"],
      ["compare", "isLoading", "--executors", "global,,serial"],
      ["list", "extra"],
      ["frobnicate"],
      ["replay", "isLoading", "--seed", "1"],
      ["replay", "isLoading.naive"],
      ["replay", "isLoading.naive", "--seed", "-1"],
      ["explore", "isLoading.naive", "--index", "-1"],
      ["run", "isLoading", "--seed", "x"],
      ["plan", "--rate", "2"],
      ["check", "isLoading", "--confidence", "1"],
      // Values that used to pass validation and trap after the measurement.
      ["run", "isLoading", "--confidence", "0.9999999999999999"],
      ["run", "isLoading", "--iterations", "9223372036854775807", "--jobs", "2"],
      ["run", "isLoading", "--iterations", "1000000000000000", "--jobs", "10000"],
      ["run", "isLoading", "--iterations", "1000000000000001"],
      ["run", "isLoading", "--jobs", "10000"],
      ["plan", "--rate", "1e-300"],
      // Repeated options, newlines and endless values.
      ["run", "isLoading", "--iterations", "3", "--iterations", "4"],
      ["run", "isLoading", "--no-progress", "--no-progress"],
      ["run", "isLoading", "--iterations", "1\n2"],
      ["run", "isLoading\nisLoading"],
      ["run", String(repeating: "x", count: 100_000)],
      // Misspelled dashes, help on nothing, the hidden worker without its channel.
      ["run", "isLoading", "-iterations", "3"],
      ["run", "isLoading", "---iterations", "3"],
      ["help", "nonsense"],
      ["help", "run", "extra"],
      ["worker", "isLoading.naive", "global", "1", "0", "5"],
    ]
    for arguments in cases {
      let result = try Flakelab.run(arguments)
      XCTAssertEqual(result.status, 2, "\(arguments)")
      XCTAssertEqual(result.stdout, "", "\(arguments)")
      XCTAssertLessThan(result.stderr.count, 600, "\(arguments)")
      XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "\(arguments): \(result.stderr)")
      XCTAssertTrue(result.stderr.hasPrefix("flakelab: "), "\(arguments): \(result.stderr)")
    }
  }

  func testAnUnwritableStandardStreamIsAnErrorNeverATrap() throws {
    let full = FileHandle(forWritingAtPath: "/dev/full")!
    for (arguments, stdoutFull) in [(["run", "isLoadnig"], false), (["list"], true)] {
      let process = Process()
      process.executableURL = Flakelab.executable
      process.arguments = arguments
      let errors = Pipe()
      process.standardOutput = stdoutFull ? full : FileHandle.nullDevice
      process.standardError = stdoutFull ? errors : full
      try process.run()
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 2, "\(arguments)")
      if stdoutFull {
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(message, "flakelab: could not write to standard output: No space left on device\n")
      }
    }
  }

  func testShardOptionWinsOverBazelsVariables() throws {
    let result = try Flakelab.run(
      ["run", "isLoading.naive", "--iterations", "10", "--shard", "0/2", "--format", "json"],
      environment: ["TEST_SHARD_INDEX": "nonsense", "TEST_TOTAL_SHARDS": "4"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("\"shard\": {\"index\": 0, \"count\": 2}"), result.stdout)
  }

  func testPlanSaysIterationInTheSingularAndNeverRoundsToZero() throws {
    XCTAssertTrue(try Flakelab.run(["plan", "--rate", "99%"]).stdout.contains(": 1 iteration.\n"))
    XCTAssertTrue(try Flakelab.run(["plan", "--rate", "1e-9"]).stdout.contains("a 0.0000001% flake"))
    XCTAssertTrue(try Flakelab.run(["plan", "--rate", "0.999999"]).stdout.contains("a 99.9999% flake"))
  }

  func testEveryHelpLineFitsInAHundredColumns() throws {
    for command in ["list", "run", "compare", "test", "check", "plan", "replay", "explore", "merge"] {
      let help = try Flakelab.run([command, "--help"]).stdout
      for line in help.split(separator: "\n") {
        XCTAssertLessThanOrEqual(line.count, 100, "\(command): \(line)")
      }
    }
    XCTAssertTrue(try Flakelab.run(["--help"]).stdout.contains("--version"))
  }

  func testHelpExitsZero() throws {
    for arguments in [["--help"], ["run", "--help"], ["compare", "-h"], ["help", "list"]] {
      let result = try Flakelab.run(arguments)
      XCTAssertEqual(result.status, 0, "\(arguments)")
      XCTAssertTrue(result.stdout.contains("USAGE: flakelab"), "\(arguments)")
    }
  }

  func testListShowsEveryScenarioAndTheRealTimeWait() throws {
    let result = try Flakelab.run(["list"])
    XCTAssertEqual(result.status, 0)
    for name in ["isLoading", "backToBack", "cancel", "screenshots", "toggleRace"] {
      XCTAssertTrue(result.stdout.contains("\(name): "), name)
    }
    XCTAssertTrue(result.stdout.contains("[sleeps 100 ms per iteration; virtual time under seeded and fifo]"))
  }

  func testMaxFailureRateGateExitsOneAndNamesTheRun() throws {
    let result = try Flakelab.run([
      "run", "isLoading.naive", "--executor", "serial", "--iterations", "50",
      "--max-failure-rate", "1%",
    ])
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(result.stderr.contains("isLoading.naive under serial"), result.stderr)
  }

  func testMinFailureRateGateExitsOne() throws {
    let result = try Flakelab.run([
      "run", "isLoading.endpointYield", "--executor", "serial", "--iterations", "50",
      "--min-failure-rate", "0.5",
    ])
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(result.stderr.contains("isLoading.endpointYield under serial"), result.stderr)
  }

  func testGatesThatHoldExitZero() throws {
    // No failure in 50 iterations proves a rate of at most 7.13% at 95%, so a 10% bound holds.
    let result = try Flakelab.run([
      "run", "isLoading.endpointYield", "--executor", "serial", "--iterations", "50",
      "--max-failure-rate", "10%",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
  }

  func testJSONReportHasTheDocumentedShape() throws {
    let result = try Flakelab.run([
      "run", "isLoading.naive", "--executor", "serial", "--iterations", "20", "--format", "json",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let document = try XCTUnwrap(JSONParser.parse(Array(result.stdout.utf8)))
    XCTAssertNotNil(document["flakelab"]?.string)
    XCTAssertNotNil(document["machine"]?["cores"]?.int)
    let runs = try XCTUnwrap(document["runs"]?.array)
    XCTAssertEqual(runs.count, 1)
    let run = runs[0]
    XCTAssertEqual(
      ["scenario", "variant", "executor"].map { run[$0] }, [.string("isLoading"), .string("naive"), .string("serial")])
    XCTAssertEqual(["iterations", "passed", "failed"].map { run[$0] }, [.int(20), .int(0), .int(20)])
    XCTAssertEqual(run["failureRate"], .double(1))
    let failure = try XCTUnwrap(run["failures"]?.array?.first)
    XCTAssertEqual(failure["observation"], .string("isLoading was false right after the tap"))
    XCTAssertEqual(failure["count"], .int(20))
  }

  func testCompareShowsExecutorsSideBySide() throws {
    let result = try Flakelab.run([
      "compare", "isLoading.naive", "isLoading.endpointYield", "--executors", "serial",
      "--iterations", "10",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let rows = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertTrue(
      rows.contains { $0.hasPrefix("isLoading.naive") && $0.hasSuffix("100.00% [72.25%, 100.00%] (10/10)") },
      result.stdout)
    XCTAssertTrue(
      rows.contains { $0.hasPrefix("isLoading.endpointYield") && $0.hasSuffix("none [≤ 27.75%] (0/10)") },
      result.stdout)
  }
}

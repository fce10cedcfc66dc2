import Foundation
import XCTest

@testable import FlakeLab

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The machine-readable formats and the CI-facing commands, through the real executable.
final class ReportingTests: XCTestCase {
  func testJUnitParsesAsXMLWithTheRightCounts() throws {
    let result = try Flakelab.run([
      "run", "isLoading.naive", "isLoading.endpointYield", "--executor", "serial",
      "--iterations", "50", "--format", "junit", "--max-failure-rate", "50%",
    ])
    XCTAssertEqual(result.status, 1, result.stderr)
    let document = try XMLDocument(data: Data(result.stdout.utf8))
    let root = try XCTUnwrap(document.rootElement())
    XCTAssertEqual(root.name, "testsuites")
    XCTAssertEqual(root.attribute(forName: "tests")?.stringValue, "2")
    XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, "1")
    let cases = try root.nodes(forXPath: "//testcase") as? [XMLElement] ?? []
    XCTAssertEqual(
      cases.map { $0.attribute(forName: "name")?.stringValue }, ["naive [serial]", "endpointYield [serial]"])
    let failures = try root.nodes(forXPath: "//testcase/failure")
    XCTAssertEqual(failures.count, 1)
    let output = try root.nodes(forXPath: "//testcase[1]/system-out").first?.stringValue ?? ""
    XCTAssertTrue(output.split(separator: "\n").contains("passed=0"), output)
  }

  func testJUnitOfEveryCommandKeepsToTheSchemaAndCountsDeadlocks() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-junit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let shards = (0..<2).map { directory.appendingPathComponent("\($0).json").path }
    for (index, path) in shards.enumerated() {
      _ = try Flakelab.run([
        "run", "lab.hang", "--executor", "seeded", "--seed", "3", "--iterations", "200",
        "--shard", "\(index)/2", "--output", path,
      ])
    }
    let commands: [[String]] = [
      ["run", "lab.hang", "--executor", "seeded", "--seed", "3", "--iterations", "200"],
      ["compare", "isLoading.naive", "--iterations", "20"],
      ["check", "isLoading.naive", "--iterations", "20"],
      ["merge"] + shards,
    ]
    for arguments in commands {
      let result = try Flakelab.run(arguments + ["--format", "junit"])
      let root = try XCTUnwrap(try XMLDocument(data: Data(result.stdout.utf8)).rootElement(), result.stderr)
      JUnitSchema.check(root)
    }
    // A seeded lab.hang run deadlocks 4 of 200: the counts add up, and the seed is there.
    let seeded = try Flakelab.run(commands[0] + ["--format", "junit"]).stdout
    XCTAssertTrue(seeded.contains("passed=196\n"), seeded)
    XCTAssertTrue(seeded.contains("deadlocked=4\n"), seeded)
    XCTAssertTrue(seeded.contains("<property name=\"seed\" value=\"3\"/>"), seeded)
    // No gate, yet no iteration passed: not a green test case.
    let naive = try Flakelab.run([
      "run", "isLoading.naive", "--executor", "serial", "--iterations", "20", "--format", "junit",
    ])
    XCTAssertEqual(naive.status, 0)
    XCTAssertTrue(naive.stdout.contains("<failure type=\"flakelab\" message=\"no iteration passed\">"), naive.stdout)
  }

  func testCSVHasAHeaderAndOneRowPerRun() throws {
    let result = try Flakelab.run([
      "run", "isLoading.naive", "--executor", "serial", "--iterations", "20", "--format", "csv",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let rows = result.stdout.split(separator: "\r\n").map(String.init)
    XCTAssertEqual(rows.count, 2)
    XCTAssertTrue(rows[0].hasPrefix("scenario,variant,executor,iterations,passed,failed"))
    XCTAssertTrue(rows[1].hasPrefix("isLoading,naive,serial,20,0,20,0,0,1.0,0.95,"), rows[1])
    // Columns are added at the end only.
    XCTAssertTrue(
      rows[0].hasSuffix(
        ",topOutcome,deadlocked,seed,confidenceMethod,dispersion,replicates,skipped,executorChanged,notRun,stopped"),
      rows[0])
    XCTAssertTrue(rows[1].hasSuffix(",wilson,,1,0,0,0,"), rows[1])
    // Seconds in microseconds at most, never float noise such as 0.011712371000000001.
    let seconds = rows[1].split(separator: ",")[12]
    XCTAssertLessThanOrEqual(seconds.split(separator: ".").last?.count ?? 0, 6, String(seconds))
  }

  func testJSONCarriesTheInterval() throws {
    let result = try Flakelab.run([
      "run", "isLoading.endpointYield", "--executor", "serial", "--iterations", "100",
      "--format", "json", "--confidence", "99%",
    ])
    let confidence = try XCTUnwrap(JSONParser.parse(Array(result.stdout.utf8))?["runs"]?.array?.first?["confidence"])
    XCTAssertEqual(confidence["level"], .double(0.99))
    XCTAssertEqual(confidence["low"], .double(0))
    // z² / (n + z²) with z = 2.5758 and n = 100.
    XCTAssertEqual(confidence["high"]?.number ?? 0, 0.062221, accuracy: 1e-5)
  }

  func testTextShowsNoneAndTheUpperBound() throws {
    let result = try Flakelab.run([
      "run", "isLoading.endpointYield", "--executor", "serial", "--iterations", "100",
    ])
    XCTAssertTrue(result.stdout.contains("none [≤ 3.70%]"), result.stdout)
  }

  func testBaselineRiseExitsOneWithBothRatesAndThePValue() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-baseline-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let baseline = directory.appendingPathComponent("old.json").path
    // The baseline: a variant that never fails under serial, relabelled as the one measured now.
    let old = try Flakelab.run([
      "run", "isLoading.endpointYield", "--executor", "serial", "--iterations", "200", "--format", "json",
    ])
    try old.stdout.replacingOccurrences(of: "\"endpointYield\"", with: "\"naive\"")
      .write(toFile: baseline, atomically: true, encoding: .utf8)
    let rose = try Flakelab.run([
      "run", "isLoading.naive", "--executor", "serial", "--iterations", "200", "--baseline", baseline,
    ])
    XCTAssertEqual(rose.status, 1)
    XCTAssertTrue(rose.stderr.contains("0.00% in the baseline → 100.00% now (one-sided p < 0.0001)"), rose.stderr)
    let steady = try Flakelab.run([
      "run", "isLoading.naive", "--executor", "serial", "--iterations", "200", "--baseline",
      directory.appendingPathComponent("missing.json").path,
    ])
    XCTAssertEqual(steady.status, 2)
    // A baseline of other runs compares nothing, which is no pass.
    let unrelated = try Flakelab.run([
      "run", "isLoading.stream", "--executor", "serial", "--iterations", "20", "--baseline", baseline,
    ])
    XCTAssertEqual(unrelated.status, 1)
    XCTAssertTrue(unrelated.stderr.contains("the baseline has no such run, so nothing was compared"), unrelated.stderr)
  }

  func testCheckJudgesDeclaredClaims() throws {
    let result = try Flakelab.run([
      "check", "isLoading.naive", "isLoading.endpointYield", "toggleRace", "--iterations", "100",
    ])
    XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    let rows = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertTrue(
      rows.contains { $0.hasPrefix("isLoading.naive") && $0.contains("serial") && $0.contains("always fails  holds") })
    XCTAssertTrue(
      rows.contains {
        $0.hasPrefix("isLoading.endpointYield") && $0.contains("serial") && $0.contains("never fails   holds")
      })
    XCTAssertTrue(
      rows.contains {
        $0.hasPrefix("toggleRace.taskGroup") && $0.contains("serial") && $0.contains("never fails   holds")
      })
    XCTAssertTrue(rows.last?.contains("0 violated") == true, rows.last ?? "")
  }

  func testPlanPrintsTheIterations() throws {
    let result = try Flakelab.run(["plan", "--rate", "1%"])
    XCTAssertEqual(result.status, 0)
    XCTAssertTrue(result.stdout.contains("95% probability: 299 iterations"), result.stdout)
    XCTAssertTrue(result.stdout.contains("381 iterations without a failure"), result.stdout)
    XCTAssertEqual(try Flakelab.run(["plan", "--rate", "0"]).status, 2)
    XCTAssertEqual(try Flakelab.run(["plan"]).status, 2)
  }

  func testNoProgressWhenStderrIsNotATerminal() throws {
    let result = try Flakelab.run(["run", "lab.hang", "--iterations", "100", "--timeout", "200ms"])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.stderr, "")
  }

  func testProgressOnATerminalAndNotWithNoProgress() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
      throw XCTSkip("util-linux 'script' is needed to give flakelab a terminal")
    }
    func underTerminal(_ extra: String) throws -> String {
      let command =
        "\(Flakelab.executable.path) run lab.hang --iterations 100 --timeout 300ms \(extra) >/dev/null"
      return try Flakelab.runTool("/usr/bin/script", ["-qec", command, "/dev/null"])
    }
    let shown = try underTerminal("")
    XCTAssertTrue(shown.contains("lab.hang.every50th (global)"), shown)
    XCTAssertTrue(shown.contains("ETA"), shown)
    XCTAssertFalse(try underTerminal("--no-progress").contains("ETA"))
  }
}

/// Failures that differ only in numbers are one row of a histogram, with each number that
/// varies given as its range; the JSON keeps every outcome apart.
final class OutcomeGroupTests: XCTestCase {
  func testFailuresThatDifferOnlyInNumbersAreOneRowWithTheirRange() {
    var tally = Tally()
    tally.record(.passed, count: 80)
    tally.record(.failed(observation: "expected 3, got 4"), count: 9)
    tally.record(.failed(observation: "expected 3, got 17"), count: 6)
    tally.record(.failed(observation: "expected 3, got 9.5"), count: 1)
    tally.record(.failed(observation: "isLoading was false right after the tap"), count: 3)
    tally.record(.timedOut, count: 1)
    XCTAssertEqual(
      OutcomeGroups.rows(tally.histogram).map { "\($0.count) \($0.text)" },
      ["80 passed", "16 expected 3, got 4–17", "3 isLoading was false right after the tap", "1 timed out"])
    let lines = ReportText.histogramLines(tally)
    XCTAssertTrue(lines.contains { $0.hasSuffix("16.00%  expected 3, got 4–17") }, "\(lines)")
    XCTAssertEqual(lines.count, 4)
    XCTAssertEqual(tally.outcomesByFrequency.count, 5, "the tally keeps each outcome apart, for JSON")
  }
}

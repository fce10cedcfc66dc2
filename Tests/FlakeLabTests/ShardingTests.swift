import Foundation
import XCTest

@testable import FlakeLab

/// Shards of one measurement, merged into the whole, and what merge refuses.
final class ShardingTests: XCTestCase {
  func testMergedShardsEqualTheUnshardedRun() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-shards-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let selectors = ["lab.crash", "isLoading.naive", "isLoading.endpointYield"]
    var paths: [String] = []
    for shard in 0..<3 {
      let path = directory.appendingPathComponent("shard\(shard).json").path
      let result = try Flakelab.run(
        ["run"] + selectors + [
          "--executor", "serial", "--iterations", "1000", "--shard", "\(shard)/3", "--output", path,
        ])
      XCTAssertEqual(result.status, 0, result.stderr)
      paths.append(path)
    }
    let (status, merged) = try Flakelab.runReport(["merge"] + paths)
    XCTAssertEqual(status, 0)
    let (_, whole) = try Flakelab.runReport(
      ["run"] + selectors + ["--executor", "serial", "--iterations", "1000"])
    XCTAssertEqual(merged.runs.map(\.key), whole.runs.map(\.key))
    XCTAssertEqual(merged.runs.map(\.tally.histogram.count), whole.runs.map(\.tally.histogram.count))
    XCTAssertEqual(merged.runs.map { Flakelab.counts($0) }, whole.runs.map { Flakelab.counts($0) })
    XCTAssertEqual(merged.runs.first?.tally.crashed, 10)
  }

  func testMergeRefusesWhatIsNotOneMeasurement() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-bad-merges-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func report(_ name: String, _ arguments: [String]) throws -> String {
      let path = directory.appendingPathComponent(name).path
      let result = try Flakelab.run(["run", "isLoading.naive", "--iterations", "40", "--output", path] + arguments)
      XCTAssertEqual(result.status, 0, result.stderr)
      return path
    }
    let shard0 = try report("0.json", ["--shard", "0/2"])
    let shard1 = try report("1.json", ["--shard", "1/2"])
    let whole = try report("whole.json", [])
    let seeded0 = try report("s0.json", ["--shard", "0/2", "--executor", "seeded", "--seed", "1"])
    let seeded1 = try report("s1.json", ["--shard", "1/2", "--executor", "seeded", "--seed", "2"])
    let quarter = try report("q.json", ["--shard", "1/4"])
    let negative = directory.appendingPathComponent("negative.json").path
    // The first run's first outcome counted -20 times: the report as written, one number changed.
    let written = try String(contentsOfFile: shard1, encoding: .utf8)
    let firstCount = try XCTUnwrap(written.firstMatch(of: /"outcomes": \[\{[^}]*?"count": (\d+)/))
    try written.replacingCharacters(in: firstCount.1.startIndex..<firstCount.1.endIndex, with: "-20")
      .write(toFile: negative, atomically: true, encoding: .utf8)
    let interrupted = directory.appendingPathComponent("interrupted.json").path
    try String(contentsOfFile: shard1, encoding: .utf8)
      .replacingOccurrences(of: "\"interrupted\": false", with: "\"interrupted\": true")
      .write(toFile: interrupted, atomically: true, encoding: .utf8)
    let cases: [([String], String)] = [
      ([shard0, shard0], "shard 0/2 appears twice"),
      ([shard0], "shard 1 of 2 is missing"),
      ([whole, shard1], "is not a shard's report"),
      ([whole, whole], "is not a shard's report"),
      ([seeded0, seeded1], "different seeds"),
      ([shard0, quarter], "shards of different counts"),
      ([shard0, negative], "is malformed"),
      ([shard0, interrupted], "was interrupted"),
    ]
    for (paths, expected) in cases {
      let result = try Flakelab.run(["merge"] + paths)
      XCTAssertEqual(result.status, 2, expected)
      XCTAssertEqual(result.stdout, "", expected)
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
      XCTAssertTrue(result.stderr.contains(expected), "\(expected): \(result.stderr)")
    }
    XCTAssertEqual(try Flakelab.run(["merge", shard0, shard1]).status, 0)
    XCTAssertEqual(try Flakelab.run(["merge", whole]).status, 0)
  }

  func testBazelShardVariablesSelectAShare() throws {
    let result = try Flakelab.run(
      ["run", "lab.crash", "--iterations", "1000", "--format", "json"],
      environment: ["TEST_SHARD_INDEX": "2", "TEST_TOTAL_SHARDS": "4"])
    let report = try ReportJSON.read(Array(result.stdout.utf8), name: "stdout")
    XCTAssertEqual(report.shard, try Shard(index: 2, count: 4))
    // Indices 500..<750 hold 599, 699 (crash) and 248 passes.
    XCTAssertEqual(
      Flakelab.counts(report.runs.first), ["iterations": 250, "passed": 248, "failed": 0, "crashed": 2, "timedOut": 0])
  }

  func testCheckHasNoShardsSoBazelsVariablesLeaveItWhole() throws {
    let result = try Flakelab.run(
      ["check", "isLoading.yield", "--iterations", "40", "--format", "json"],
      environment: ["TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "4"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let report = try ReportJSON.read(Data(result.stdout.utf8), name: "check")
    XCTAssertNil(report.shard)
    XCTAssertEqual(report.runs.map(\.tally.iterations), Array(repeating: 40, count: report.runs.count))
    XCTAssertFalse(report.runs.isEmpty)
  }
}

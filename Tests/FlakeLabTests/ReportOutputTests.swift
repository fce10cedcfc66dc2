import Foundation
import XCTest

@testable import FlakeLab

/// Where `--output` goes, checked before anything runs.
final class ReportOutputTests: XCTestCase {
  func testAnUnwritableOutputIsRefusedBeforeAnythingRuns() throws {
    let result = try Flakelab.run(["run", "lab.crash", "--iterations", "1000", "--output", "/no/such/dir/r.json"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(result.stderr, "flakelab: cannot write /no/such/dir/r.json: No such file or directory (/no/such/dir)\n")
  }

  func testOutputGoesThroughASymbolicLink() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let link = directory.appendingPathComponent("latest.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "report.json")
    let result = try Flakelab.run(["run", "isLoading.naive", "--iterations", "10", "--output", link])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "report.json")
    let report = try ReportFile.read(directory.appendingPathComponent("report.json").path)
    XCTAssertEqual(report.runs.first?.tally.iterations, 10)
  }

  /// `--format markdown` is a GitHub table, and in a GitHub Actions job the same markdown is
  /// added to the job's summary file, whatever the format; a summary that cannot be written is
  /// one line on stderr and changes nothing else.
  func testMarkdownIsATableAndGoesOnTheJobSummary() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-summary-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let summary = directory.appendingPathComponent("summary.md")
    try Data("earlier step\n".utf8).write(to: summary)
    let markdown = try Flakelab.run(
      ["run", "lab.crash", "--iterations", "200", "--format", "markdown"], environment: ["GITHUB_STEP_SUMMARY": summary.path])
    XCTAssertEqual(markdown.status, 0, markdown.stderr)
    let lines = markdown.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(Array(lines.prefix(3)), [
      "| run | executor | iterations | failed | failure rate [95% interval] | problems |",
      "| --- | --- | ---: | ---: | --- | --- |",
      "| `lab.crash.every100th` | global | 200 | 2 | 1.00% [0.23%, 4.21%] |  |",
    ])
    XCTAssertTrue(lines.contains { $0.hasPrefix("<sub>flakelab ") && $0.hasSuffix("</sub>") }, markdown.stdout)
    XCTAssertEqual(try String(contentsOf: summary, encoding: .utf8), "earlier step\n" + markdown.stdout)
    // Text on stdout, the same markdown added again on the summary.
    let text = try Flakelab.run(["run", "lab.crash", "--iterations", "200"], environment: ["GITHUB_STEP_SUMMARY": summary.path])
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertTrue(text.stdout.hasPrefix("flakelab "), text.stdout)
    XCTAssertEqual(try String(contentsOf: summary, encoding: .utf8), "earlier step\n" + markdown.stdout + markdown.stdout)
    let unwritable = try Flakelab.run(
      ["run", "lab.crash", "--iterations", "200"], environment: ["GITHUB_STEP_SUMMARY": directory.appendingPathComponent("no/such/file").path])
    XCTAssertEqual(unwritable.status, 0, unwritable.stderr)
    XCTAssertEqual(
      unwritable.stderr,
      "flakelab: the job summary ($GITHUB_STEP_SUMMARY): cannot write \(directory.path)/no/such/file: No such file or directory\n")
  }
}

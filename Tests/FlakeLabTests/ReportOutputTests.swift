import Foundation
import XCTest

@testable import FlakeLab

/// Where `--output` goes, checked before anything runs.
final class ReportOutputTests: XCTestCase {
  func testAnUnwritableOutputIsRefusedBeforeAnythingRuns() throws {
    let result = try Flakelab.run(["run", "lab.crash", "--iterations", "1000", "--output", "/no/such/dir/r.json"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(
      result.stderr, "flakelab: cannot write /no/such/dir/r.json: No such file or directory (/no/such/dir)\n")
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
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flakelab-summary-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let summary = directory.appendingPathComponent("summary.md")
    try Data("earlier step\n".utf8).write(to: summary)
    let markdown = try Flakelab.run(
      ["run", "lab.crash", "--iterations", "200", "--format", "markdown"],
      environment: ["GITHUB_STEP_SUMMARY": summary.path])
    XCTAssertEqual(markdown.status, 0, markdown.stderr)
    let lines = markdown.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(
      Array(lines.prefix(3)),
      [
        "| run | executor | iterations | failed | failure rate [95% interval] | problems |",
        "| --- | --- | ---: | ---: | --- | --- |",
        "| `lab.crash.every100th` | global | 200 | 2 | 1.00% [0.23%, 4.21%] |  |",
      ])
    XCTAssertTrue(lines.contains { $0.hasPrefix("<sub>flakelab ") && $0.hasSuffix("</sub>") }, markdown.stdout)
    XCTAssertEqual(try String(contentsOf: summary, encoding: .utf8), "earlier step\n" + markdown.stdout)
    // Text on stdout, the same markdown added again on the summary.
    let text = try Flakelab.run(
      ["run", "lab.crash", "--iterations", "200"], environment: ["GITHUB_STEP_SUMMARY": summary.path])
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertTrue(text.stdout.hasPrefix("flakelab "), text.stdout)
    XCTAssertEqual(
      try String(contentsOf: summary, encoding: .utf8), "earlier step\n" + markdown.stdout + markdown.stdout)
    let unwritable = try Flakelab.run(
      ["run", "lab.crash", "--iterations", "200"],
      environment: ["GITHUB_STEP_SUMMARY": directory.appendingPathComponent("no/such/file").path])
    XCTAssertEqual(unwritable.status, 0, unwritable.stderr)
    XCTAssertEqual(
      unwritable.stderr,
      "flakelab: the job summary ($GITHUB_STEP_SUMMARY): cannot write \(directory.path)/no/such/file: No such file or directory\n"
    )
  }

  /// flakelab with its standard output going to `output` and its standard error read, waited
  /// for at most a minute (a hang fails the test instead of holding it).
  private func run(_ arguments: [String], output: FileHandle, environment: [String: String] = [:]) throws -> (
    status: Int32, stderr: String
  ) {
    OwnProcesses.takeCharge
    let process = Process()
    process.executableURL = Flakelab.executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = output
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let deadline = Date(timeIntervalSinceNow: 60)
    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning {
      process.terminate()
      XCTFail("flakelab \(arguments.joined(separator: " ")) still ran after a minute")
    }
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    )
  }

  /// A report larger than the C library's buffer to a full standard output.
  func testAReportStandardOutputCannotTakeIsExitTwo() throws {
    let full = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
    let result = try run(["run", "lab.crash", "--iterations", "100", "--format", "html"], output: full)
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertEqual(result.stderr, "flakelab: could not write the report to standard output: No space left on device\n")
  }

  /// `--output /dev/stdout` with standard output sent to a file would replace the report with
  /// itself; and a file named for another format would get JSON. Both refused before any work.
  func testAnOutputThatIsStandardOutputOrNamedForAnotherFormatIsRefused() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-stdout-\(UUID().uuidString).txt")
    XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: nil))
    defer { try? FileManager.default.removeItem(at: file) }
    let handle = try FileHandle(forWritingTo: file)
    let result = try run(["run", "lab.crash", "--iterations", "100", "--output", "/dev/stdout"], output: handle)
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(
      result.stderr,
      "flakelab: cannot write /dev/stdout: it is where this command's own output goes, and the report would replace it (for JSON there, use --format json)\n"
    )
    XCTAssertEqual(try Data(contentsOf: file), Data())
    let page = try Flakelab.run([
      "run", "lab.crash", "--iterations", "100", "--format", "html", "--output", file.path + ".html",
    ])
    XCTAssertEqual(page.status, 2)
    XCTAssertEqual(
      page.stderr,
      "flakelab: --output writes the JSON report, and '\(file.path).html' is named for html; write that with --format html > \(file.path).html\n"
    )
    XCTAssertFalse(FileManager.default.fileExists(atPath: file.path + ".html"))
  }

  /// A job summary that is a named pipe no one reads never holds the run: one line, and the run's own status.
  func testAJobSummaryNoOneReadsNeverHoldsTheRun() throws {
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-fifo-\(UUID().uuidString)").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    defer { unlink(fifo) }
    let result = try run(
      ["run", "lab.crash", "--iterations", "100"], output: FileHandle.nullDevice,
      environment: ["GITHUB_STEP_SUMMARY": fifo])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(
      result.stderr,
      "flakelab: the job summary ($GITHUB_STEP_SUMMARY): cannot write \(fifo): No such device or address\n")
  }
}

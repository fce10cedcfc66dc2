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
}

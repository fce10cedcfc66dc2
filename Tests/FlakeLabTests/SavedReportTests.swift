import Foundation
import XCTest

/// The saved reports (`Tests/Reports`) the renderers' checks read are what the lab writes: `merge`
/// derives each one's findings again from its runs and writes the same JSON, byte for byte. When
/// it does not, a change to the lab changed what a report holds, and `make reports` writes them
/// anew from real runs.
final class SavedReportTests: XCTestCase {
  func testEachSavedReportIsWhatTheLabWritesFromItsRuns() throws {
    for report in SavedReports.all {
      let written = try SavedReports.merge(report, ["--format", "json"])
      XCTAssertEqual(written.status, 0, written.stderr)
      let saved = try String(contentsOf: SavedReports.root.appendingPathComponent(report), encoding: .utf8)
      XCTAssertTrue(written.stdout == saved, "\(report) is not what the lab writes from its runs: run make reports")
    }
  }
}

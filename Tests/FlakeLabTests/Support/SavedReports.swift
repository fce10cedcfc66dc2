import Foundation
import XCTest

/// Reports saved from real runs (`Tests/Reports`), which the renderers' checks read through
/// `merge` instead of running the lab again. `make reports` writes them anew, with paths from the
/// repository's root; `SavedReportTests` fails once what the lab writes from a report's runs is
/// no longer what its file holds.
enum SavedReports {
  static let root = ReadmeExamplesTests.root

  /// `flakelab test` of two FlakeKinds tests, `blocksThread()` (whose one-second waits fail it
  /// on one queue) and `stable()`, three passes under serial: the blocks-thread answer, with
  /// every arm of its drill-down.
  static let blockingAnswer = "Tests/Reports/blocking-answer.json"

  /// Every saved report, by path from the root.
  static let all = [blockingAnswer]

  /// `flakelab merge report arguments…`, from the root, where the report's paths lead.
  static func merge(
    _ report: String, _ arguments: [String] = [], environment: [String: String] = [:]
  ) throws -> Flakelab.Result {
    try Flakelab.run(["merge", report] + arguments, environment: environment, directory: root)
  }

  /// The page `merge` renders from `report`, checked to have come out.
  static func page(_ report: String) throws -> String {
    let result = try merge(report, ["--format", "html"])
    XCTAssertEqual(result.status, 0, result.stderr)
    return result.stdout
  }
}

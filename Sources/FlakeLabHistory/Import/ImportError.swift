package import FlakeLab
package import Foundation

/// A file `flakelab history import` cannot take; one line and exit 2, and nothing of that
/// import is stored.
package enum ImportError: Error, Equatable {
  case unreadable(InputFileError)
  /// Neither JUnit XML nor a FlakeLab JSON report.
  case unknownFormat(path: String)
  /// XML that is not well-formed, at `line`.
  case malformedXML(path: String, line: Int, reason: String)
  /// Well-formed XML whose root is neither `<testsuites>` nor `<testsuite>`.
  case notJUnit(path: String, root: String)
  /// A `<testcase>` without a name: no test to file it under.
  case unnamedTestCase(path: String)
  /// The file says its run started after tomorrow.
  case notYet(path: String, started: Date)
  /// A time the file writes that is no date (`2026-02-30T10:00:00`, `NaN`).
  case notADate(path: String, text: String)
  /// A report a later FlakeLab wrote, whose fields this one may misread.
  case laterVersion(path: String, version: String)
  /// A FlakeLab `ci` report missing what the history needs (`what`).
  case malformedCIReport(path: String, what: String)
  /// A FlakeLab `test` report the lab cannot read back.
  case report(ReportFileError)
}

import FlakeLab
import Scenarios
import XCTest

/// The variants that sleep on the wall clock (countdown's five seconds an iteration), run once
/// under serial for every check that needs them there: each variant's two iterations in two
/// workers at once, where each check's run of its own waited the sleeps again, one after another
/// (15 s of the suite's time).
enum SlowVariantsUnderSerial {
  /// `scenario.variant` of each variant that sleeps on the wall clock.
  static let selectors = ScenarioCatalog.standard.listed(includingDiagnostics: false).flatMap { scenario in
    scenario.variants.filter { $0.realTimeWait != nil }.map { "\(scenario.name).\($0.name)" }
  }

  static let iterations = 2

  /// `flakelab run` of every one of ``selectors`` under serial, by selector.
  static let runs = Result {
    let (status, report) = try Flakelab.runReport(
      ["run"] + selectors + ["--executor", "serial", "--iterations", String(iterations), "--jobs", "2"])
    XCTAssertEqual(status, 0)
    return Dictionary(uniqueKeysWithValues: report.runs.map { ($0.selector, $0) })
  }
}

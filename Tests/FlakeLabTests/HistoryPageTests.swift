import FlakeLab
import Foundation
import XCTest

@testable import FlakeLabHistory

/// `flakelab history --format html`: an overview table, a timeline per test with a
/// legend and each run's commit and day on hover, light and dark, self-contained, and as a
/// browser shows it.
final class HistoryPageTests: XCTestCase {
  private func answer() -> HistoryAnswer {
    func run(_ day: Int, _ commit: String, _ statuses: [String: CITest.Status], kind: RecordedRun.Kind = .ci)
      -> RecordedRun
    {
      RecordedRun(
        source: "\(kind)-\(day)", kind: kind,
        started: Date(timeIntervalSince1970: 1_790_000_000 + Double(day) * 86_400),
        commit: commit, branch: "main",
        results: statuses.sorted { $0.key < $1.key }.map { test, status in
          .init(test: test, status: status, attempts: status == .passed ? 1 : 2, failures: status == .passed ? 0 : 1)
        })
    }
    let runs = [
      run(1, "a1b2c3d4e5f6", ["M.S/flaky()": .passed, "M.broken()": .failed, "M.known()": .failed]),
      run(2, "a1b2c3d4e5f6", ["M.S/flaky()": .failed, "M.broken()": .failed, "M.known()": .flaky]),
      run(3, "b2c3d4e5f6a1", ["M.S/flaky()": .flaky, "M.broken()": .failed, "M.known()": .passed]),
      run(4, "c3d4e5f6a1b2", ["M.S/flaky()": .passed, "M.broken()": .failed], kind: .lab),
    ]
    let window = HistoryAnswer.Window(
      from: Date(timeIntervalSince1970: 1_790_000_000), to: Date(timeIntervalSince1970: 1_790_000_000 + 14 * 86_400),
      branch: nil)
    return HistoryAnalysis.answer(runs, window: window, quarantined: ["M.known()": [.passed]], maxFailureRate: 0.05)
  }

  func testThePageHasAnOverviewTimelinesWithALegendAndBothSchemes() throws {
    let answer = answer()
    let page = HistoryHTML.render(answer, path: ".flakelab/history.sqlite")
    assertSelfContained(page)
    XCTAssertTrue(page.contains("<title>FlakeLab history: 2 flaky tests, 1 failed</title>"), page)
    // The overview: a row per test, its rate with the interval, flips, first flaky commit,
    // status and quarantine, linked to its timeline.
    XCTAssertTrue(page.contains("<th>Test</th><th class=\"number\">CI failure rate (95% interval)</th>"), page)
    let flaky = try XCTUnwrap(answer.tests.first { $0.test == "M.S/flaky()" })
    let index = try XCTUnwrap(answer.tests.firstIndex { $0.test == "M.S/flaky()" })
    XCTAssertTrue(
      page.contains(
        "<tr><td><a href=\"#test-\(index)\"><code>M.S/flaky()</code></a></td><td class=\"number\">"
          + "\(Formatting.percent(flaky.rate)) (\(Formatting.percent(flaky.low))–\(Formatting.percent(flaky.high))), 2 of 3</td>"
          + "<td class=\"number\">1 of 2</td><td><code>a1b2c3d4e5</code> 2026-09-23</td>"
          + "<td><span class=\"verdict flaky\">flaky</span></td><td>–</td></tr>"), page)
    XCTAssertTrue(page.contains("<td>quarantined</td></tr>"), page)
    XCTAssertTrue(page.contains("<span class=\"verdict\">failed</span>"), page)
    // The timeline: each mark says its day, commit and counts; a lab run is outlined; the
    // window's days under it; a legend for every colour.
    XCTAssertTrue(page.contains("<section id=\"test-\(index)\">"), page)
    XCTAssertTrue(page.contains("title=\"2026-09-23 a1b2c3d4e5 ci: failed, 1 of 2 attempts failed\""), page)
    XCTAssertTrue(
      page.contains("class=\"run passed lab\" role=\"listitem\" title=\"2026-09-25 c3d4e5f6a1 test: passed"), page)
    XCTAssertTrue(page.contains("<p class=\"axis\"><span>2026-09-22</span><span>2026-09-25</span></p>"), page)
    for key in ["passed", "flaky", "failed", "skipped", "notRun", "beside"] {
      XCTAssertTrue(page.contains("<span class=\"key\"><span class=\"run \(key)\"></span>"), key)
    }
    // Light and dark, from the shared look; the gate said.
    XCTAssertTrue(page.contains("@media (prefers-color-scheme: dark)"), page)
    XCTAssertTrue(page.contains("<p class=\"gate"), page)
    // The answer, with its quarantine, reads back from its JSON.
    XCTAssertEqual(HistoryJSON.read(Array(HistoryJSON.render(answer).utf8)), answer)
    XCTAssertEqual(answer.quarantined, ["M.known()"])
  }

  /// However many results (400 tests failing in 250 runs here), the page holds at most
  /// ``HistoryHTML/mostTests`` tests and ``HistoryHTML/mostMarks`` runs each, and says so.
  func testAHistoryOfManyResultsStaysAPageABrowserOpens() {
    let tests = (0..<400).map { "M.t\($0)()" }
    let runs = (0..<250).map { day in
      RecordedRun(
        source: "ci-\(day)", kind: .ci, started: Date(timeIntervalSince1970: 1_790_000_000 + Double(day) * 60),
        commit: "c\(day)", branch: "main",
        results: tests.map { .init(test: $0, status: .failed, attempts: 1, failures: 1) })
    }
    let window = HistoryAnswer.Window(
      from: Date(timeIntervalSince1970: 1_790_000_000), to: Date(timeIntervalSince1970: 1_790_100_000), branch: nil)
    let page = HistoryHTML.render(HistoryAnalysis.answer(runs, window: window), path: "h.sqlite")
    XCTAssertEqual(page.components(separatedBy: "<section id=\"test-").count - 1, HistoryHTML.mostTests)
    XCTAssertEqual(
      page.components(separatedBy: "role=\"listitem\"").count - 1, HistoryHTML.mostTests * HistoryHTML.mostMarks)
    XCTAssertTrue(page.contains("The first 300 of 400 tests that did not pass"), String(page.prefix(3000)))
    XCTAssertTrue(page.contains("(the last 200 of 250 runs)"))
  }

  func testABrowserShowsThePageWithNoErrorAndNoRequest() throws {
    try HeadlessBrowser.assertShows(HistoryHTML.render(answer(), path: ".flakelab/history.sqlite"))
  }
}

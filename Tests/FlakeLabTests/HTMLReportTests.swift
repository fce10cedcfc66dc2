import Foundation
import XCTest

@testable import FlakeLab

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `--format html`: one self-contained page, well-formed, with nothing from elsewhere, and as a
/// browser shows it at a desktop's width and a phone's.
final class HTMLReportTests: XCTestCase {
  private func page(_ arguments: [String]) throws -> String {
    let result = try Flakelab.run(arguments + ["--format", "html", "--no-progress"])
    XCTAssertEqual(result.status, 0, result.stderr)
    return result.stdout
  }

  func testATestRunIsAnAnswerWithItsEvidence() throws {
    let saved = SavedReports.blockingAnswer
    let page = try SavedReports.page(saved)
    assertSelfContained(page)
    // Against itself as the baseline, test by test: nothing changed.
    let again = try SavedReports.merge(saved, ["--baseline", saved])
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertTrue(
      again.stderr.contains(
        "baseline: no test's verdict or suite rate changed significantly (2 tests in both reports)"),
      again.stderr)
    XCTAssertTrue(page.contains("<title>flakelab test: 1 of 2 tests not stable</title>"), page)
    // The page opens with the summary by cause, its count and what to do, each test
    // linked to its section with the line to open; the section links back.
    XCTAssertTrue(
      page.contains(
        "<nav id=\"summary\"><h2><strong>blocks-thread</strong> (1): await the work instead of blocking on it</h2>"
          + "<ul class=\"answer\"><li><a href=\"#test-0\"><code>FlakeKindsTests.blocksThread()</code></a> "
          + "<span class=\"verdict flaky\">flaky</span> open <code>Tests/FlakeKindsTests/Kinds.swift:49</code>"
          + "</li></ul></nav>"),
      page)
    XCTAssertTrue(page.contains("<section id=\"test-0\">"), page)
    XCTAssertTrue(page.contains("<a href=\"#summary\">Back to the summary</a>"), page)
    // The test that is not stable: verdict and diagnosis, one plot row per arm, its outcomes,
    // its replay; the stable one in the list below.
    XCTAssertTrue(page.contains("<strong>blocks-thread</strong>: blocks a thread waiting for async work"), page)
    for arm in ["suite, serial", "repetitions, global", "repetitions, serial", "repetitions, seeded", "fresh, global"] {
      XCTAssertTrue(page.contains(">\(arm)</text>"), arm)
    }
    XCTAssertTrue(page.contains("Expectation failed: (done.wait(timeout: .now() + 1) → .timedOut) == .success"), page)
    // The replay: one fresh process on one queue, where it blocks every time.
    XCTAssertTrue(
      page.contains("--layout fresh --filter &apos;^FlakeKindsTests\\.blocksThread\\(\\)$&apos; --executor serial"),
      page)
    XCTAssertTrue(page.contains("<summary>1 test stable over 3 passes under serial</summary>"), page)
    XCTAssertTrue(page.contains("Kinds.swift:46"), page)
  }

  func testEveryOtherReportIsAPageToo() throws {
    let page = try page(["run", "lab.crash", "isLoading.naive", "--iterations", "200"])
    assertSelfContained(page)
    XCTAssertEqual(page.components(separatedBy: "class=\"label\"").count - 1, 2)
    XCTAssertTrue(page.contains("signal 4 (SIGILL): Fatal error: lab.crash traps on purpose"), page)
  }

  /// In headless Chromium, at 1280 and 400 pixels wide: the page loads with nothing said on the
  /// console and no request but the page itself. Chromium from Debian's packages; `.ci/run`
  /// installs it and sets FLAKELAB_REQUIRE_BROWSER, elsewhere the test is skipped without one.
  /// A plot of several tests' runs labels each row with the end of its test's ID, which tells
  /// tests apart, the whole ID on hover, and its arm on a line of its own.
  func testPlotLabelsShowTheTestAndItsArm() {
    let test = PackageTest(
      id: "SomeLongModuleNameTests.WorkshopTests.ToggleTests/thousandToggles()", framework: .xctest)
    let runs = [ExecutorID.global, .serial].map { executor in
      var tally = Tally()
      tally.record(.passed, count: 9)
      tally.record(.failed(observation: "x"), count: 1)
      var run = RunResult(
        RunKey(scenario: test.suite, variant: test.function, executor: executor), tally: tally, seconds: 1,
        iterationsAreIndependent: true)
      run.test = TestReference(test: test, packagePath: ".", layout: .repetitions)
      return run
    }
    let page = ReportHTML.render(Report(runs: runs))
    assertSelfContained(page)
    XCTAssertTrue(page.contains(">…" + String(test.id.suffix(ReportHTML.labelCharacters - 1)) + "</text>"), page)
    XCTAssertTrue(page.contains("<title>\(test.id) (repetitions, global)</title>"), page)
    XCTAssertTrue(page.contains(">repetitions, serial</text>"), page)
  }

  func testABrowserShowsThePageWithNoErrorAndNoRequest() throws {
    try HeadlessBrowser.assertShows(try SavedReports.page(SavedReports.blockingAnswer))
  }
}

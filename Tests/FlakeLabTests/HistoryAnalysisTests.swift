import FlakeLab
import Foundation
import XCTest

@testable import FlakeLabHistory

/// The history's answer from runs given outright: what counts as flaky, as a CI rate and a flip,
/// where a test first flaked, and when it stopped.
final class HistoryAnalysisTests: XCTestCase {
  private let window = HistoryAnswer.Window(
    from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 1e9), branch: nil)

  private func run(
    _ day: Int, _ commit: String?, _ statuses: [String: CITest.Status], kind: RecordedRun.Kind = .ci
  ) -> RecordedRun {
    RecordedRun(
      source: "\(kind)-\(day)", kind: kind, started: Date(timeIntervalSince1970: Double(day) * 86_400), commit: commit,
      branch: "main",
      results: statuses.sorted { $0.key < $1.key }.map { test, status in
        .init(test: test, status: status, attempts: status == .passed ? 1 : 2, failures: status == .passed ? 0 : 1)
      })
  }

  func testAPassAndAFailureOnOneCommitAreFlakyAndFlipsCountRunsInARow() throws {
    let runs = [
      run(1, "a", ["T.x()": .passed, "T.y()": .failed]), run(2, "a", ["T.x()": .failed, "T.y()": .failed]),
      run(3, "b", ["T.x()": .passed, "T.y()": .failed]), run(4, "c", ["T.x()": .flaky, "T.y()": .passed]),
    ]
    let answer = HistoryAnalysis.answer(runs, window: window)
    XCTAssertEqual(answer.ciRuns, 4)
    XCTAssertEqual(answer.commits, 3)
    XCTAssertEqual(answer.tests.map(\.test), ["T.x()", "T.y()"], "the flaky first")
    let x = answer.tests[0]
    XCTAssertTrue(x.isFlaky)
    XCTAssertEqual(x.flakyCommits, ["a", "c"])
    XCTAssertEqual(x.firstFlaked?.commit, "a")
    XCTAssertEqual(
      x.firstFlaked?.started, Date(timeIntervalSince1970: 2 * 86_400), "the failure, not the pass before it")
    XCTAssertEqual(x.ciFailures, 2)
    XCTAssertEqual(x.ciRuns, 4)
    XCTAssertEqual(x.flips, 3)
    XCTAssertEqual(x.pairs, 3)
    let interval = WilsonInterval(failures: 2, iterations: 4, confidence: 0.95)
    XCTAssertEqual(x.low, interval.low)
    XCTAssertEqual(x.high, interval.high)
    // y failed on a, b (each alone on its commit) and passed on c: never both on one commit.
    XCTAssertFalse(answer.tests[1].isFlaky)
    XCTAssertEqual(answer.tests[1].flips, 1)
  }

  /// A lab run is evidence on its commit, never a CI rate: its hundreds of iterations would
  /// outweigh every CI run.
  func testALabRunIsEvidenceButNoCIRate() {
    var lab = run(2, "a", ["T.x()": .flaky], kind: .lab)
    lab.results = [.init(test: "T.x()", status: .flaky, attempts: 400, failures: 37)]
    let answer = HistoryAnalysis.answer(
      [run(1, "a", ["T.x()": .passed]), lab, run(3, "b", ["T.x()": .passed])], window: window)
    XCTAssertEqual(answer.labRuns, 1)
    XCTAssertEqual(answer.tests.first?.isFlaky, true)
    XCTAssertEqual(answer.tests.first?.ciRuns, 2)
    XCTAssertEqual(answer.tests.first?.ciFailures, 0)
    XCTAssertEqual(answer.tests.first?.timeline.map(\.kind), [.ci, .lab, .ci])
  }

  func testStoppedFlakingAndReadyToLeaveNeedTheirLastRunsAllPassed() {
    var runs = [run(0, "a", ["T.x()": .flaky])]
    runs += (1...3).map { run($0, "b\($0)", ["T.x()": .passed]) }
    XCTAssertEqual(HistoryAnalysis.answer(runs, window: window, quietRuns: 3).stoppedFlaking, ["T.x()"])
    XCTAssertEqual(
      HistoryAnalysis.answer(runs, window: window, quietRuns: 4).stoppedFlaking, [], "the flaky run is among the last 4"
    )
    let ready = HistoryAnalysis.answer(
      [], window: window,
      quarantined: ["T.q()": [.passed, .passed, .passed], "T.r()": [.passed, .flaky, .passed], "T.s()": [.passed]],
      quietRuns: 3)
    XCTAssertEqual(ready.readyToLeave, ["T.q()"])
  }

  /// The gate fails the job only on a rate shown above its bound; a test with too few runs to
  /// tell is listed, not failed.
  func testTheGateFailsOnlyOnARateShownAboveTheBound() {
    let runs = (0..<30).map { day in
      run(day, "c\(day)", ["T.often()": day % 3 == 0 ? .passed : .failed, "T.once()": day == 5 ? .flaky : .passed])
    }
    let answer = HistoryAnalysis.answer(runs, window: window, maxFailureRate: 0.05)
    XCTAssertEqual(answer.gate?.over, ["T.often()"])
    XCTAssertEqual(answer.gate?.undecided, ["T.once()"], "1 of 30: its interval reaches above 5%")
    XCTAssertTrue(answer.failsTheJob)
    XCTAssertFalse(HistoryAnalysis.answer(runs, window: window, maxFailureRate: 0.9).failsTheJob)
    let quarantined = HistoryAnalysis.answer(runs, window: window, quarantined: ["T.often()": []], maxFailureRate: 0.05)
    XCTAssertFalse(quarantined.failsTheJob, "a quarantined test fails no job")
  }

  /// Flaky only by a crash that none of the tests in flight caused alone: no evidence about any
  /// of them, so neither a CI failure nor a flaky commit; the run is listed as a crash.
  func testAFlakyRunBesideACrashCountsForNoneOfItsTests() {
    var crashed = run(2, "a", ["T.x()": .flaky, "T.y()": .flaky])
    crashed.results = crashed.results.map {
      .init(test: $0.test, status: .flaky, attempts: 2, failures: 1, besideACrash: true)
    }
    let answer = HistoryAnalysis.answer([run(1, "a", ["T.x()": .passed, "T.y()": .passed]), crashed], window: window)
    XCTAssertEqual(answer.tests.map(\.test), [])
    XCTAssertEqual(
      answer.crashes, [.init(started: Date(timeIntervalSince1970: 2 * 86_400), commit: "a", tests: ["T.x()", "T.y()"])])
    // To the second: one commit's crashes of a day are told apart.
    XCTAssertEqual(answer.crashes.map(HistoryText.crashLine), ["1970-01-03 00:00:00 UTC a: T.x(), T.y()"])
    let own = HistoryAnalysis.answer([run(1, "a", ["T.x()": .passed]), run(2, "a", ["T.x()": .flaky])], window: window)
    XCTAssertEqual(own.tests.first?.isFlaky, true, "the same run, its own failure")
  }

  /// The JSON answer reads back as the answer it was rendered from, every field.
  func testTheAnswerReadsBackFromItsJSONExactly() throws {
    var crashed = run(3, "b", ["T.x()": .flaky])
    crashed.results = [.init(test: "T.x()", status: .flaky, attempts: 2, failures: 1, besideACrash: true)]
    var lab = run(4, nil, ["T.y()": .flaky], kind: .lab)
    lab.results = [.init(test: "T.y()", status: .flaky, attempts: 40, failures: 7)]
    let runs = [
      run(1, "a", ["T.x()": .passed, "T.y()": .failed]), run(2, "a", ["T.x()": .failed, "T.y()": .passed]), crashed,
      lab,
    ]
    let answer = HistoryAnalysis.answer(
      runs, window: .init(from: window.from, to: window.to, branch: "main"), quarantined: ["T.q()": [.passed]],
      quietRuns: 1, maxFailureRate: 0.1)
    XCTAssertFalse(answer.tests.isEmpty)
    XCTAssertFalse(answer.crashes.isEmpty)
    XCTAssertNotNil(answer.gate)
    XCTAssertEqual(HistoryJSON.read(Array(HistoryJSON.render(answer).utf8)), answer)
    XCTAssertNil(HistoryJSON.read(Array("{\"command\": \"ci\"}".utf8)))
  }
  /// A test's name is data wherever it is printed: the hint to leave the quarantine pastes as
  /// one argument, a bidirectional control shows as its escape, a backtick cannot end a code
  /// span, a line break cannot split a name on the page.
  func testAHostileNameIsQuotedEscapedAndFencedInEveryRendering() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-names-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let pwned = directory.appendingPathComponent("PWNED").path
    let hostile = "x'; touch \(pwned); echo '"
    let answer = HistoryAnalysis.answer(
      [], window: window, quarantined: [hostile: [.passed, .passed]], quietRuns: 2)
    let text = HistoryText.render(answer, path: "h.sqlite")
    let hint = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("quarantine remove") })
    let pasted = String(hint[hint.range(of: "(flakelab ")!.upperBound...].dropLast())
      .replacingOccurrences(of: "quarantine remove", with: "printf %s")
    let shell = try CapturedProcess.run("/bin/sh", ["-c", pasted])
    XCTAssertEqual(shell.output, hostile, "one argument, as the name is")
    XCTAssertFalse(FileManager.default.fileExists(atPath: pwned))

    let reversed = HistoryAnalysis.answer(
      [], window: window, quarantined: ["T.a\u{202E}cba()": [.passed]], quietRuns: 1)
    XCTAssertTrue(HistoryText.render(reversed, path: "h").contains("T.a\\u{202E}cba()"))
    XCTAssertFalse(HistoryText.render(reversed, path: "h").unicodeScalars.contains("\u{202E}"))
    XCTAssertEqual(Formatting.printable("a\u{2066}b\u{200F}"), "a\\u{2066}b\\u{200F}")

    let backtick = HistoryAnalysis.answer([], window: window, quarantined: ["T.`a` | b()": [.passed]], quietRuns: 1)
    XCTAssertTrue(HistoryMarkdown.render(backtick, path: "h").contains("`` T.`a` \\| b() ``"))

    let broken = HistoryAnalysis.answer([run(1, "a", ["T.two\nlines()": .flaky])], window: window)
    let page = HistoryHTML.render(broken, path: "h")
    XCTAssertTrue(page.contains("T.two\\nlines()"))
    XCTAssertFalse(page.contains("T.two\nlines()"))
  }
}

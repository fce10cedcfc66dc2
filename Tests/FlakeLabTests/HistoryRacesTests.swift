import Foundation
import XCTest

@testable import FlakeLab
@testable import FlakeLabHistory

/// Races as the history keeps them, a finding of their own kind: stored and read back by their
/// pair of lines, followed from run to run (new, open, fixed), excused by a quarantine entry of
/// races only, and gated by `--fail-on-new-races`; never a failure or a rate.
final class HistoryRacesTests: XCTestCase {
  private let window = HistoryAnswer.Window(
    from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 1e9), branch: nil)
  private let counter = ["Sources/Races/Counter.swift:5", "Sources/Races/Counter.swift:5"]
  private let registry = ["Sources/Races/Registry.swift:4", "Sources/Races/Registry.swift:4"]

  /// A CI run of day `day` in which `T.a()` passed, sanitized (`races` reported) or not (nil).
  private func run(_ day: Int, _ commit: String, races: [[String]]?, test: String = "T.a()") -> RecordedRun {
    RecordedRun(
      source: "ci-\(day)", kind: .ci, started: Date(timeIntervalSince1970: Double(day) * 86_400), commit: commit,
      branch: "main",
      results: [
        .init(
          test: test, status: .passed, attempts: 1, failures: 0, sanitizedRuns: races == nil ? nil : 5,
          races: (races ?? []).map { .init(lines: $0, variable: nil, runs: 3) })
      ])
  }

  func testARaceIsFollowedFromItsFirstReportAndIsNoFailure() {
    let runs = [
      run(1, "a", races: []), run(2, "b", races: [counter]), run(3, "c", races: nil), run(4, "d", races: [counter]),
      run(5, "e", races: [registry]), run(6, "f", races: [registry]), run(7, "g", races: []),
    ]
    let answer = HistoryAnalysis.answer(runs, window: window, maxFailureRate: 0.01, failOnNewRaces: true)
    XCTAssertTrue(answer.tests.isEmpty, "a race is no failure: the test passed every run")
    XCTAssertEqual(answer.gate?.over, [])
    let found = Dictionary(uniqueKeysWithValues: answer.races.map { ($0.race.lines, $0) })
    let first = try! XCTUnwrap(found[counter])
    XCTAssertEqual(first.first.commit, "b")
    XCTAssertEqual(first.last.commit, "d")
    // Day 3 ran it unsanitized: it says nothing. Days 5 to 7 ran it sanitized without it.
    XCTAssertEqual([first.reportedRuns, first.sanitizedRuns, first.missedRuns], [2, 5, 3])
    XCTAssertFalse(first.isOpen, "three sanitized runs in a row missed it: gone")
    XCTAssertEqual(found[registry]?.isOpen, true, "one run that missed it is no evidence it is gone")
    XCTAssertTrue(
      HistoryText.render(answer, path: "h").contains(
        "new, open (missed by the last 1 sanitized run): first reported on e"))
    XCTAssertEqual(answer.newRaces.map(\.race.lines), [registry], "the open race fails the gate, the fixed one not")
    XCTAssertTrue(answer.failsTheJob)
    XCTAssertFalse(
      HistoryAnalysis.answer(runs, window: window).failsTheJob, "without --fail-on-new-races no race fails the job")
    // A run whose sanitized processes never ran the test (the budget spent first) is no miss.
    var unrun = run(8, "h", races: [])
    unrun.results = [.init(test: "T.a()", status: .passed, attempts: 1, failures: 0, sanitizedRuns: 0)]
    let after = HistoryAnalysis.answer(runs.dropLast() + [unrun], window: window)
    XCTAssertEqual(after.races.first { $0.race.lines == registry }?.missedRuns, 0)
  }

  func testARaceKnownBeforeTheWindowOrQuarantinedFailsNoGate() {
    let runs = [run(4, "d", races: [counter, registry])]
    let known = HistoryAnalysis.answer(
      runs, window: window, knownRaces: [RaceID(test: "T.a()", lines: counter)], failOnNewRaces: true)
    XCTAssertEqual(known.newRaces.map(\.race.lines), [registry])
    XCTAssertEqual(known.races.first?.race.lines, registry, "what fails the gate comes first")
    let quarantined = HistoryAnalysis.answer(runs, window: window, racesQuarantined: ["T.a()"], failOnNewRaces: true)
    XCTAssertEqual(quarantined.newRaces, [])
    XCTAssertFalse(quarantined.failsTheJob)
    XCTAssertTrue(HistoryText.render(quarantined, path: "h").contains("new, open, quarantined: first reported on d"))
  }

  /// Stored and read back as recorded; the runs before a date name the races they recorded.
  func testRacesAreStoredAndReadBackByTheirLines() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("history-races-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try HistoryStore(path: directory.appendingPathComponent("history.sqlite").path)
    let runs = [run(1, "a", races: [counter, registry]), run(2, "b", races: []), run(3, "c", races: nil)]
    for run in runs { try store.record(run) }
    XCTAssertEqual(try store.runs(since: window.from), runs)
    XCTAssertEqual(
      try store.racesRecorded(before: Date(timeIntervalSince1970: 2 * 86_400)),
      [RaceID(test: "T.a()", lines: counter), RaceID(test: "T.a()", lines: registry)])
    XCTAssertEqual(try store.racesRecorded(before: Date(timeIntervalSince1970: 86_400)), [])
  }

  /// A `ci` run's races keep their lines from the package's directory, so that the same race on
  /// another checkout is the same race.
  func testACIRunsRacesAreRecordedFromThePackagesDirectory() {
    let frame = DataRace.Frame(
      function: "Counter.bump()", path: "/work/p/Sources/Races/Counter.swift", line: 5, image: "p")
    let access = DataRace.Access(
      isWrite: true, size: 8, runner: .task, thread: "T1", stack: [frame], createdAt: [])
    var evidence = RaceEvidence()
    evidence.add(
      failed: false, races: [DataRace(kind: "data race", variable: nil, accesses: [access, access])],
      packagePath: "/work/p")
    evidence.add(failed: false, races: [], packagePath: "/work/p")
    var test = CITest(
      test: PackageTest(id: "T.a()", framework: .xctest), attempts: [.init(outcome: .passed, seconds: 1)])
    test.races = evidence
    let run = RecordedRun(
      CIRun(packagePath: "/work/p", retries: 0, timeout: .seconds(60), failOnFlaky: false, seed: 1, tests: [test]))
    XCTAssertEqual(run.results.first?.sanitizedRuns, 2)
    XCTAssertEqual(run.results.first?.races, [.init(lines: counter, variable: nil, runs: 1)])
    XCTAssertEqual(run.results.first?.status, .passed)
  }

  func testTheAnswerWithRacesReadsBackFromItsJSONExactly() throws {
    var answer = HistoryAnalysis.answer(
      [run(1, "a", races: [counter]), run(2, "b", races: [])], window: window, failOnNewRaces: true)
    answer.races[0].variable = "Registry.registered"
    XCTAssertEqual(HistoryJSON.read(Array(HistoryJSON.render(answer).utf8)), answer)
    for page in [HistoryMarkdown.render(answer, path: "h"), HistoryHTML.render(answer, path: "h")] {
      XCTAssertTrue(page.contains("Sources/Races/Counter.swift:5 against the same line"))
      XCTAssertTrue(page.contains("1 new race not gone"), page)
    }
  }

  /// An entry of races excuses the test's races, never its failures, and the file says which.
  func testAQuarantineEntryOfRacesIsItsOwnKind() throws {
    var quarantine = Quarantine([.init(test: "T.a()", reason: "flaky", added: "2026-11-29")])
    quarantine.add(.init(test: "T.a()", reason: "benign", added: "2026-11-29", finding: .races))
    XCTAssertEqual(quarantine.entries.map(\.finding), [.failures, .races])
    XCTAssertEqual(quarantine.entries(excusing: .failures).map(\.reason), ["flaky"])
    let read = try Quarantine.read(Array(quarantine.text.utf8), name: "q")
    XCTAssertEqual(read, quarantine)
    XCTAssertTrue(quarantine.text.contains(#""added": "2026-11-29", "finding": "races"}"#), quarantine.text)
    XCTAssertEqual(quarantine.text.components(separatedBy: "finding").count, 2, "an entry of failures says nothing")
    var removed = read
    XCTAssertTrue(removed.remove("T.a()", finding: .races))
    XCTAssertEqual(removed.entries.map(\.finding), [.failures])
    XCTAssertFalse(removed.remove("T.a()", finding: .races))
    XCTAssertThrowsError(
      try Quarantine.read(
        Array(#"{"flakelab": "quarantine", "tests": [{"test": "T.a()", "finding": "crashes"}]}"#.utf8), name: "q"))
  }
}

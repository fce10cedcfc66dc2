import FlakeLab
import FlakeLabHistory
import Foundation
import XCTest

/// `flakelab history` and `history import` as a team's CI runs them: `swift test
/// --xunit-output` files imported once however often they are given, beside `flakelab ci` and
/// `flakelab test` records; the answer read back; two importers at once; bad files and bad
/// histories refused with nothing stored changed. The database is read with the sqlite3 shell.
final class HistoryCommandTests: XCTestCase {
  private var state: URL!
  private var history: String { state.appendingPathComponent("history.sqlite").path }

  override func setUp() async throws {
    let listing = try Fixtures.ciJobBuild.get()
    XCTAssertEqual(listing.status, 0, listing.stderr)
    state = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
  }

  override func tearDown() async throws {
    try? FileManager.default.removeItem(at: state)
  }

  private func flakelab(_ arguments: [String]) throws -> Flakelab.Result {
    try Flakelab.run(arguments, environment: ["CIJOB_STATE": state.path])
  }

  private func sqlite(_ sql: String, _ database: String? = nil) throws -> [String] {
    try Flakelab.runTool("/usr/bin/env", ["sqlite3", database ?? history, sql]).split(separator: "\n").map(String.init)
  }

  func testSwiftTestJUnitIsImportedOnceBesideTheLabsOwnRecords() throws {
    let xml = state.appendingPathComponent("results.xml").path
    // As a CI job without FlakeLab runs it: XCTest's file needs --parallel; Swift Testing's
    // comes beside it.
    let swiftTest = try CapturedProcess.run(
      "swift", ["test", "--skip-build", "--parallel", "--xunit-output", xml, "--skip", "crashesOnce|hangs"],
      environment: ProcessInfo.processInfo.environment.merging(["CIJOB_STATE": state.path]) { $1 },
      directory: URL(fileURLWithPath: Fixtures.ciJob))
    XCTAssertNotEqual(swiftTest.status, 0, "broken() fails")
    let swiftTesting = state.appendingPathComponent("results-swift-testing.xml").path
    let imported = try flakelab([
      "history", "import", xml, swiftTesting, "--history", history, "--commit", "c1", "--branch", "imported",
    ])
    XCTAssertEqual(imported.status, 0, imported.stderr)
    XCTAssertEqual(imported.stdout, "\(xml): added (junit, 2 tests)\n\(swiftTesting): added (junit, 5 tests)\n")
    let again = try flakelab(["history", "import", swiftTesting, "--history", history])
    XCTAssertEqual(again.stdout, "\(swiftTesting): already in the history, nothing added\n")

    let ci = try flakelab(
      [
        "ci", "--package-path", Fixtures.ciJob, "--skip-build", "--no-progress", "--filter", "failsOnce|broken\\(\\)",
        "--record", history, "--format", "json", "--output", state.appendingPathComponent("ci.json").path,
      ])
    XCTAssertEqual(ci.status, 1, ci.stderr)
    // Its JSON imported after the record is the same run.
    let json = try flakelab(["history", "import", state.appendingPathComponent("ci.json").path, "--history", history])
    XCTAssertTrue(json.stdout.hasSuffix("already in the history, nothing added\n"), json.stdout)
    let lab = try flakelab(
      [
        "test", "--package-path", Fixtures.ciJob, "--sanitize", "none", "--skip-build", "--no-progress", "--filter",
        "adds", "--iterations",
        "3",
        "--record", history, "--output", state.appendingPathComponent("lab.json").path,
      ])
    XCTAssertEqual(lab.status, 0, lab.stderr)
    // So is a lab run's report, by its digest.
    let report = try flakelab([
      "history", "import", state.appendingPathComponent("lab.json").path, "--history", history,
    ])
    XCTAssertTrue(
      report.stdout.hasSuffix("lab.json: already in the history, nothing added\n"), report.stdout + report.stderr)

    XCTAssertEqual(
      try sqlite("SELECT command, count(*) FROM runs GROUP BY command ORDER BY command"), ["ci|1", "junit|2", "test|1"])
    XCTAssertEqual(
      try sqlite(
        "SELECT command, commit_id, status, attempts, failures FROM results JOIN runs ON runs.id = run WHERE test = 'CIJobTests.failsOnce()' ORDER BY started, runs.id"
      ).map {
        $0.split(separator: "|").enumerated().map {
          $0.offset == 1 ? ($0.element == "c1" ? "c1" : "git") : String($0.element)
        }.joined(separator: "|")
      },
      ["junit|c1|failed|1|1", "ci|git|passed|1|0"])
    XCTAssertEqual(
      try sqlite("SELECT status, attempts >= 3 FROM results JOIN runs ON runs.id = run WHERE command = 'test'"),
      ["passed|1"])

    let answer = try flakelab(["history", "--history", history, "--format", "json", "--max-failure-rate", "0.01"])
    XCTAssertEqual(answer.status, 1, "broken() failed 2 of 2 CI runs: shown above 1%")
    XCTAssertEqual(answer.stderr, "")
    let document = try XCTUnwrap(HistoryJSON.read(Array(answer.stdout.utf8)))
    XCTAssertEqual(document.ciRuns, 3)
    XCTAssertEqual(document.labRuns, 1)
    let tests = Dictionary(uniqueKeysWithValues: document.tests.map { ($0.test, $0) })
    XCTAssertEqual(tests["CIJobTests.broken()"]?.ciFailures, 2)
    XCTAssertEqual(tests["CIJobTests.broken()"]?.isFlaky, false)
    // Failed on c1, passed on the checkout's commit: a flip, but no commit saw both.
    XCTAssertEqual(tests["CIJobTests.failsOnce()"]?.flips, 1)
    XCTAssertEqual(tests["CIJobTests.failsOnce()"]?.isFlaky, false)
    // One failure in two runs already shows a rate above 1% (Wilson's low end 9.45%).
    XCTAssertEqual(
      Set(document.gate?.over ?? []),
      [
        "CIJobTests.broken()", "CIJobTests.brokenButQuarantined()", "CIJobTests.failsOnce()",
        "CIJobTests.JobXCTests/testFailsOnce",
      ])
    let loose = try flakelab(["history", "--history", history, "--max-failure-rate", "0.5"])
    XCTAssertEqual(loose.status, 0, "none is shown above 50% in two runs")
    let markdown = try flakelab(["history", "--history", history, "--format", "markdown", "--max-failure-rate", "0.5"])
    XCTAssertTrue(
      markdown.stdout.contains("\n\nToo few runs to tell either way (not failing the job): "), markdown.stdout)
    let text = try flakelab(["history", "--history", history, "--branch", "imported"])
    XCTAssertTrue(text.stdout.contains("2 CI runs and 0 lab runs on 1 commit."), text.stdout)
  }

  /// Two CI jobs importing at once: each waits for the other's transaction; nothing is lost.
  func testTwoImportersAtOnceLoseNothing() throws {
    func files(_ job: Int) throws -> [String] {
      try (0..<15).map { index in
        let path = state.appendingPathComponent("job\(job)-\(index).xml").path
        try Data(
          """
          <testsuite name="S" timestamp="2026-11-\(10 + index)T0\(job):00:00Z">
          <testcase classname="M.C" name="test\(index)"/><testcase classname="M.C" name="testFlaky">\(index % 2 == 0 ? "<failure/>" : "")</testcase>
          </testsuite>
          """.utf8
        ).write(to: URL(fileURLWithPath: path))
        return path
      }
    }
    let errors = [Pipe(), Pipe()]
    let first = try Flakelab.launch(
      ["history", "import", "--history", history, "--commit", "c"] + files(1), errors: errors[0])
    let second = try Flakelab.launch(
      ["history", "import", "--history", history, "--commit", "c"] + files(2), errors: errors[1])
    first.waitUntilExit()
    second.waitUntilExit()
    let said = errors.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
    XCTAssertEqual([first.terminationStatus, second.terminationStatus], [0, 0], said.joined())
    XCTAssertEqual(try sqlite("SELECT count(*) FROM runs; SELECT count(*) FROM results"), ["30", "60"])
    let answer = try flakelab(["history", "--history", history, "--window", "36500"])
    XCTAssertTrue(answer.stdout.contains("30 CI runs and 0 lab runs on 1 commit."), answer.stdout)
    XCTAssertTrue(
      answer.stdout.contains("Flaky: passed and failed on the same commit (1):\n  M.C/testFlaky\n"), answer.stdout)
  }

  /// A file that is a pipe, as `history import <(…)` or `… | history import /dev/stdin` give it.
  func testAJUnitFileFromAPipeIsImported() throws {
    let file = state.appendingPathComponent("piped.xml").path
    try Data(#"<testsuite><testcase classname="M" name="t()"/></testsuite>"#.utf8).write(to: URL(fileURLWithPath: file))
    let output = try Flakelab.runTool(
      "/usr/bin/env",
      [
        "bash", "-c", #"cat "$0" | "$1" history import /dev/stdin --history "$2" --commit c 2>&1"#, file,
        Flakelab.executable.path, history,
      ])
    XCTAssertEqual(output, "/dev/stdin: added (junit, 1 test)\n")
  }

  func testBadFilesAndBadHistoriesAreOneLineAndChangeNothing() throws {
    let good = state.appendingPathComponent("good.xml").path
    try Data(#"<testsuite><testcase classname="M" name="t()"/></testsuite>"#.utf8).write(to: URL(fileURLWithPath: good))
    XCTAssertEqual(try flakelab(["history", "import", good, "--history", history, "--commit", "c"]).status, 0)
    let broken = state.appendingPathComponent("broken.xml").path
    try Data("<testsuite>\n<testcase name=\"x\">\n</testsuite>".utf8).write(to: URL(fileURLWithPath: broken))
    let other = state.appendingPathComponent("other.xml").path
    try Data(#"<testsuite><testcase classname="M" name="u()"/></testsuite>"#.utf8).write(
      to: URL(fileURLWithPath: other))
    // One bad file among good ones stores none of them.
    let refused = try flakelab(["history", "import", other, broken, "--history", history])
    XCTAssertEqual(refused.status, 2)
    XCTAssertEqual(refused.stdout, "")
    XCTAssertEqual(
      refused.stderr,
      "flakelab: \(broken):3: not well-formed XML (</…> does not close <testcase>); nothing was imported\n")
    XCTAssertEqual(try sqlite("SELECT count(*) FROM runs"), ["1"])
    // swift test's XCTest file for a package whose tests are all Swift Testing's.
    let empty = state.appendingPathComponent("empty.xml").path
    try Data(
      #"<testsuites><testsuite name="TestResults" errors="0" tests="0" failures="0" time="0.0"></testsuite></testsuites>"#
        .utf8
    )
    .write(to: URL(fileURLWithPath: empty))
    XCTAssertEqual(
      try flakelab(["history", "import", empty, "--history", history]).stdout,
      "\(empty): no test in it, nothing added\n")
    XCTAssertEqual(try sqlite("SELECT count(*) FROM runs"), ["1"])

    // A history damaged on disk: its schema's page overwritten.
    let damaged = state.appendingPathComponent("damaged.sqlite").path
    XCTAssertEqual(try flakelab(["history", "import", good, "--history", damaged, "--commit", "c"]).status, 0)
    _ = try sqlite("PRAGMA wal_checkpoint(TRUNCATE)", damaged)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
    bytes.replaceSubrange(100..<600, with: Data(repeating: 0xA5, count: 500))
    try bytes.write(to: URL(fileURLWithPath: damaged))
    for arguments in [["history", "--history", damaged], ["history", "import", other, "--history", damaged]] {
      let result = try flakelab(arguments)
      XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
      XCTAssertTrue(result.stderr.contains(damaged), result.stderr)
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: damaged)), bytes, "left as it was")

    let missing = try flakelab(["history", "--history", state.appendingPathComponent("none.sqlite").path])
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(missing.stderr.hasPrefix("flakelab: no history at "), missing.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: state.appendingPathComponent("none.sqlite").path))
    // Without --history, the package's default is missing, and a history recorded
    // beside it (ci --record history.sqlite) is named with the option that reads it.
    try FileManager.default.createDirectory(at: state.appendingPathComponent("pkg"), withIntermediateDirectories: true)
    XCTAssertTrue(
      FileManager.default.createFile(atPath: state.appendingPathComponent("pkg/history.sqlite").path, contents: Data()))
    let beside = try flakelab(["history", "--package-path", state.appendingPathComponent("pkg").path])
    XCTAssertEqual(beside.status, 2)
    XCTAssertTrue(beside.stderr.contains("/pkg/history.sqlite is here: --history "), beside.stderr)
    let notes = state.appendingPathComponent("notes.txt").path
    try Data("notes\n".utf8).write(to: URL(fileURLWithPath: notes))
    XCTAssertEqual(try flakelab(["history", "import", good, "--history", notes]).status, 2)
    XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "notes\n")
  }

  /// A quarantined test that passed each of its last 20 recorded CI runs is listed as ready to
  /// leave; one flaky run among them keeps it in.
  func testAQuarantinedTestThatPassedItsLastTwentyRunsIsReadyToLeave() throws {
    let quarantine = state.appendingPathComponent("quarantine.json").path
    try Data(
      #"{"tests": [{"test": "CIJobTests.adds()", "reason": "r", "added": "2026-11-01"}, {"test": "CIJobTests.concatenates()", "reason": "r", "added": "2026-11-01"}]}"#
        .utf8
    ).write(to: URL(fileURLWithPath: quarantine))
    let files = try (1...20).map { day in
      let path = state.appendingPathComponent("run\(day).xml").path
      let concatenates = day == 15 ? "<flakyFailure message=\"once\"/>" : ""
      try Data(
        """
        <testsuite timestamp="2026-11-\(String(format: "%02d", day))T10:00:00Z"><testcase classname="CIJobTests" name="adds()"/>
        <testcase classname="CIJobTests" name="concatenates()">\(concatenates)</testcase></testsuite>
        """.utf8
      ).write(to: URL(fileURLWithPath: path))
      return path
    }
    XCTAssertEqual(try flakelab(["history", "import", "--history", history, "--commit", "c"] + files).status, 0)
    let list = try flakelab(
      ["quarantine", "list", "--quarantine", quarantine, "--history", history, "--package-path", Fixtures.ciJob])
    XCTAssertEqual(list.status, 0, list.stderr)
    XCTAssertTrue(
      list.stdout.hasSuffix(
        "CIJobTests.adds(): ready to leave, passed each of its last 20 CI runs (flakelab quarantine remove 'CIJobTests.adds()')\n"
      ),
      list.stdout)
    XCTAssertFalse(list.stdout.contains("concatenates(): ready"), list.stdout)
  }

  /// A nightly job's gate on races: a `ci` report with a race, imported, fails
  /// `--fail-on-new-races` until the quarantine lists the test's races; the test's failures stay
  /// unexcused by that entry.
  func testANewRaceFailsItsGateUntilItsRacesAreQuarantined() throws {
    let frame = DataRace.Frame(
      function: "Counter.bump()", path: Fixtures.ciJob + "/Sources/CIJob/Counter.swift", line: 5, image: "CIJob")
    let access = DataRace.Access(isWrite: true, size: 8, runner: .task, thread: "T1", stack: [frame], createdAt: [])
    var evidence = RaceEvidence()
    evidence.add(
      failed: false, races: [DataRace(kind: "data race", variable: nil, accesses: [access, access])],
      packagePath: Fixtures.ciJob)
    var test = CITest(
      test: PackageTest(id: "CIJobTests.adds()", framework: .xctest), attempts: [.init(outcome: .passed, seconds: 1)])
    test.races = evidence
    var run = CIRun(
      packagePath: Fixtures.ciJob, retries: 0, timeout: .seconds(60), failOnFlaky: false, seed: 1, tests: [test])
    run.context.git = GitState(commit: "c1", branch: "main")
    let report = state.appendingPathComponent("nightly.json").path
    try Data(CIJSON.render(run).utf8).write(to: URL(fileURLWithPath: report))
    XCTAssertEqual(try flakelab(["history", "import", report, "--history", history]).status, 0)

    let gated = try flakelab(["history", "--history", history, "--fail-on-new-races", "--package-path", state.path])
    XCTAssertEqual(gated.status, 1, gated.stderr)
    XCTAssertTrue(
      gated.stdout.contains(
        "Gate --fail-on-new-races: FAILED: 1 new race not gone "
          + "(fix, or flakelab quarantine add TEST --races --reason TEXT):\n"
          + "  CIJobTests.adds(): Sources/CIJob/Counter.swift:5 against the same line\n"),
      gated.stdout)
    XCTAssertTrue(gated.stdout.contains("    new, open: first reported on c1"), gated.stdout)

    let quarantine = state.appendingPathComponent("quarantine.json").path
    let entry = #"{"test": "CIJobTests.adds()", "reason": "benign", "added": "2026-11-29", "finding": "races"}"#
    try Data((#"{"flakelab": "quarantine", "tests": ["# + entry + "]}").utf8).write(
      to: URL(fileURLWithPath: quarantine))
    let excused = try flakelab(
      [
        "history", "--history", history, "--fail-on-new-races", "--quarantine", quarantine, "--package-path",
        state.path,
      ])
    XCTAssertEqual(excused.status, 0, excused.stdout)
    XCTAssertTrue(excused.stdout.contains("new, open, quarantined"), excused.stdout)
    let removed = try flakelab(
      ["quarantine", "remove", "CIJobTests.adds()", "--quarantine", quarantine, "--package-path", state.path])
    XCTAssertEqual(removed.status, 2)
    XCTAssertTrue(removed.stderr.contains("'CIJobTests.adds()' is not in"), removed.stderr)
    let racesRemoved = try flakelab(
      [
        "quarantine", "remove", "CIJobTests.adds()", "--races", "--quarantine", quarantine, "--package-path",
        state.path,
      ])
    XCTAssertEqual(racesRemoved.status, 0, racesRemoved.stderr)
  }
}

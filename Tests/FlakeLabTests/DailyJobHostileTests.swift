import Foundation
import XCTest

@testable import FlakeLab

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The daily job as a hostile pull request and a busy CI fleet meet it: quarantine
/// edits made at once, files that are FIFOs, devices or never end, XML nested past any runner,
/// names that would forge lines, outputs that cannot be written, histories that are read-only or
/// damaged. Each is the right result, or one line and exit 2, and never a hang or a lost entry.
final class DailyJobHostileTests: XCTestCase {
  private var state: URL!

  override func setUp() async throws {
    let listing = try Fixtures.ciJobBuild.get()
    XCTAssertEqual(listing.status, 0, listing.stderr)
    state = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
  }

  override func tearDown() async throws {
    try? FileManager.default.removeItem(at: state)
  }

  private func path(_ name: String) -> String { state.appendingPathComponent(name).path }

  private func expectRefusal(
    _ result: Flakelab.Result, saying text: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(result.status, 2, result.stderr, file: file, line: line)
    XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr, file: file, line: line)
    XCTAssertTrue(result.stderr.contains(text), result.stderr, file: file, line: line)
  }

  func testQuarantineEditsMadeAtOnceAllStay() throws {
    let file = path("quarantine.json")
    try Quarantine([.init(test: "CIJobTests.gone()", reason: "renamed", added: "2026-11-01")]).text
      .write(toFile: file, atomically: true, encoding: .utf8)
    let tests = [
      "CIJobTests.JobXCTests/testFailsOnce", "CIJobTests.JobXCTests/testPasses", "CIJobTests.adds()",
      "CIJobTests.broken()",
      "CIJobTests.brokenButQuarantined()", "CIJobTests.concatenates()", "CIJobTests.crashesOnce()",
      "CIJobTests.failsOnce()",
      "CIJobTests.hangs()",
    ]
    let common = ["--package-path", Fixtures.ciJob, "--skip-build", "--quarantine", file]
    let edits =
      tests.map { ["quarantine", "add", $0, "--reason", "flaky"] + common } + [
        ["quarantine", "remove", "CIJobTests.gone()"] + common
      ]
    let processes = try edits.map { try Flakelab.launch($0) }
    for process in processes { process.waitUntilExit() }
    XCTAssertEqual(processes.map(\.terminationStatus), edits.map { _ in 0 })
    let written = try Quarantine.load(file, origin: .named, mustExist: true)
    XCTAssertEqual(written.entries.map(\.test), tests.sorted(), "every add kept, the removed entry gone")
  }

  func testAQuarantineThatIsAFIFOInThePackageIsRefusedAtOnceAndOneNamedWaitsOnlyUntilAnInterrupt() throws {
    let package = state.appendingPathComponent("package")
    try FileManager.default.createDirectory(
      at: package.appendingPathComponent(".flakelab"), withIntermediateDirectories: true)
    let fifo = package.appendingPathComponent(".flakelab/quarantine.json").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    for command in [["ci", "--skip-build"], ["quarantine", "list", "--skip-build"]] {
      expectRefusal(
        try Flakelab.run(command + ["--package-path", package.path]), saying: "it is not a regular file (a FIFO")
    }
    // Named on the command line, a FIFO is read as a pipe is: it waits for its writer, and an
    // interrupt ends that wait as any other.
    for signal in [SIGINT, SIGTERM] {
      let waiting = try Flakelab.launch(["quarantine", "list", "--quarantine", fifo, "--package-path", Fixtures.ciJob])
      Thread.sleep(forTimeInterval: 0.5)
      XCTAssertTrue(waiting.isRunning)
      kill(waiting.processIdentifier, signal)
      waiting.waitUntilExit()
      XCTAssertEqual(waiting.terminationStatus, 130, "signal \(signal)")
      XCTAssertEqual(waiting.terminationReason, .exit)
    }
  }

  func testAFileThatNeverEndsIsRefusedAtASizeLimit() throws {
    expectRefusal(
      try Flakelab.run(["ci", "--package-path", Fixtures.ciJob, "--skip-build", "--quarantine", "/dev/zero"]),
      saying: "cannot read /dev/zero: it is larger than 16 MiB")
    expectRefusal(
      try Flakelab.run(["history", "import", "/dev/zero", "--history", path("h.sqlite")]),
      saying: "cannot read /dev/zero: it is larger than 256 MiB; nothing was imported")
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("h.sqlite")), "nothing made")
    // A link committed in the package is followed to what it names, and a device is refused.
    let package = state.appendingPathComponent("linked")
    try FileManager.default.createDirectory(
      at: package.appendingPathComponent(".flakelab"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: package.appendingPathComponent(".flakelab/quarantine.json").path, withDestinationPath: "/dev/zero")
    expectRefusal(
      try Flakelab.run(["quarantine", "list", "--package-path", package.path]), saying: "it is not a regular file")
  }

  func testAHistoryThatIsNoRegularFileIsRefused() throws {
    let fifo = path("history.sqlite")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    expectRefusal(try Flakelab.run(["history", "--history", fifo]), saying: "is not a regular file")
    expectRefusal(
      try Flakelab.run(["ci", "--package-path", Fixtures.ciJob, "--skip-build", "--record", fifo]),
      saying: "is not a regular file")
  }

  func testJUnitNestedPastAnyRunnerIsRefusedNotACrash() throws {
    let deep = path("deep.xml")
    let depth = 30_000
    let xml =
      "<testsuites>" + String(repeating: "<testsuite>", count: depth) + String(repeating: "</testsuite>", count: depth)
      + "</testsuites>"
    try xml.write(toFile: deep, atomically: true, encoding: .utf8)
    expectRefusal(
      try Flakelab.run(["history", "import", deep, "--history", path("h.sqlite")]),
      saying: "elements nested more than 256 deep")
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("h.sqlite")))
  }

  func testNamesFromFilesCannotForgeLinesOrWorkflowCommands() throws {
    let junit = path("forged.xml")
    let name = "test&#10;Gate: every test passed&#10;::error::forged&#10;::add-mask::secret&#27;[2J&#0;"
    try """
    <testsuites><testsuite name="S" tests="1">
    <testcase classname="Forger" name="\(name)"><failure message="boom&#10;::warning::forged"/></testcase>
    </testsuite></testsuites>
    """.write(toFile: junit, atomically: true, encoding: .utf8)
    let history = path("h.sqlite")
    let imported = try Flakelab.run([
      "history", "import", junit, "--history", history, "--commit", "c1", "--branch", "main",
    ])
    XCTAssertEqual(imported.status, 0, imported.stderr)
    for format in ["text", "markdown"] {
      let answer = try Flakelab.run(["history", "--history", history, "--format", format])
      XCTAssertEqual(answer.status, 0, answer.stderr)
      let lines = answer.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      XCTAssertFalse(lines.contains { $0.hasPrefix("::") || $0.hasPrefix("Gate") }, answer.stdout)
      XCTAssertFalse(answer.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0 }, format)
    }
    let text = try Flakelab.run(["history", "--history", history])
    XCTAssertTrue(
      text.stdout.contains(
        "Forger.test\\nGate: every test passed\\n::error::forged\\n::add-mask::secret\\u{1B}[2J\\u{0}"), text.stdout)
  }

  func testJUnitTheLabWritesParsesWithAStrictParserWhateverAFailureSaid() throws {
    let said = "expected \u{FFFE}\u{FFFF}\u{0}\u{1B}[31m, got \u{0B}"
    let failed = CITest.Attempt(outcome: .failed(observation: said), example: said, seconds: 0.1)
    let test = CITest(
      test: PackageTest(id: "M.S/t()", framework: .swiftTesting),
      attempts: [failed, CITest.Attempt(outcome: .passed, seconds: 0.1)])
    let broken = CITest(test: PackageTest(id: "M.S/u()", framework: .swiftTesting), attempts: [failed, failed, failed])
    let run = CIRun(
      packagePath: "/p", retries: 2, timeout: .seconds(60), failOnFlaky: false, seed: 7, tests: [test, broken])
    let document = try XMLDocument(xmlString: CIJUnit.render(run))
    let messages = try document.nodes(forXPath: "//@message").compactMap { $0.stringValue }
    XCTAssertTrue(messages.contains { $0.hasPrefix("expected \u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}[31m") }, "\(messages)")
  }

  func testAHistoryThatCannotBeWrittenToStandardOutputIsExitTwo() throws {
    let history = path("h.sqlite")
    let ci = try Flakelab.run(
      [
        "ci", "--package-path", Fixtures.ciJob, "--skip-build", "--no-progress", "--filter", "adds", "--record",
        history,
      ])
    XCTAssertEqual(ci.status, 0, ci.stderr)
    let result = try Flakelab.shell("FLAKELAB history --history '\(history)' > /dev/full")
    XCTAssertEqual(result.status, 2)
    XCTAssertTrue(
      result.stderr.contains("could not write the report to standard output: No space left on device"), result.stderr)
  }

  func testADamagedHistoryIsNeverWrittenTo() throws {
    let history = path("h.sqlite")
    for _ in 0..<2 {
      let ci = try Flakelab.run(
        [
          "ci", "--package-path", Fixtures.ciJob, "--skip-build", "--no-progress", "--filter", "adds", "--record",
          history,
        ])
      XCTAssertEqual(ci.status, 0, ci.stderr)
    }
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: history))
    let size = try handle.seekToEnd()
    try handle.truncate(atOffset: size - 1)
    try handle.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: history))
    expectRefusal(
      try Flakelab.run(
        [
          "ci", "--package-path", Fixtures.ciJob, "--skip-build", "--no-progress", "--filter", "adds", "--record",
          history,
        ]),
      saying: "is damaged")
    let junit = path("one.xml")
    try "<testsuite><testcase classname=\"A\" name=\"b\"/></testsuite>".write(
      toFile: junit, atomically: true, encoding: .utf8)
    expectRefusal(try Flakelab.run(["history", "import", junit, "--history", history]), saying: ".recover")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: history)), before, "left as it was")
  }

  func testAHistoryOnAReadOnlyMountIsRead() throws {
    let history = path("h.sqlite")
    let ci = try Flakelab.run(
      [
        "ci", "--package-path", Fixtures.ciJob, "--skip-build", "--no-progress", "--filter", "adds", "--record",
        history,
      ])
    XCTAssertEqual(ci.status, 0, ci.stderr)
    let mount = state.appendingPathComponent("readonly")
    try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
    let mounted = try CapturedProcess.run("mount", ["--bind", "-o", "ro", state.path, mount.path])
    try XCTSkipIf(mounted.status != 0, "no read-only bind mount here: \(mounted.errorOutput)")
    defer { _ = try? CapturedProcess.run("umount", [mount.path]) }
    for file in try FileManager.default.contentsOfDirectory(atPath: state.path) where file.hasPrefix("h.sqlite-") {
      try FileManager.default.removeItem(atPath: path(file))
    }
    let read = try Flakelab.run(["history", "--history", mount.appendingPathComponent("h.sqlite").path])
    XCTAssertEqual(read.status, 0, read.stderr)
    XCTAssertTrue(read.stdout.contains("1 CI run and 0 lab runs"), read.stdout)
    // Written to, it says what to do in one line, not SQLite's own words.
    let written = try Flakelab.run(
      [
        "ci", "--package-path", Fixtures.ciJob, "--skip-build", "--no-progress", "--filter", "adds",
        "--record", mount.appendingPathComponent("h.sqlite").path,
      ])
    expectRefusal(written, saying: "cannot be written here (the file, its directory or its mount is read-only)")
    XCTAssertFalse(written.stderr.contains("attempt to write"), written.stderr)
  }

  func testAQuarantineEntryForATestThatNoLongerExistsIsSaid() throws {
    let file = path("quarantine.json")
    try Quarantine([.init(test: "CIJobTests.addz()", reason: "flaky", added: "2026-11-01")]).text
      .write(toFile: file, atomically: true, encoding: .utf8)
    let list = try Flakelab.run([
      "quarantine", "list", "--package-path", Fixtures.ciJob, "--skip-build", "--quarantine", file,
    ])
    XCTAssertEqual(list.status, 0, list.stderr)
    XCTAssertTrue(
      list.stdout.contains(
        "quarantine entry 'CIJobTests.addz()' names no test of the package: it quarantines nothing; did you mean 'CIJobTests.adds()'?"
      ),
      list.stdout)
    // Filtered to other tests, the entry is still checked against the whole package.
    let ci = try Flakelab.run(
      [
        "ci", "--package-path", Fixtures.ciJob, "--skip-build", "--no-progress", "--filter", "concatenates",
        "--quarantine", file,
        "--format", "json",
      ])
    XCTAssertEqual(ci.status, 0, ci.stderr)
    let stale = try CIJSONReader.read(XCTUnwrap(JSONParser.parse(Array(ci.stdout.utf8)))).context.staleQuarantine
    XCTAssertEqual(stale.first?.entry.test, "CIJobTests.addz()")
    XCTAssertEqual(stale.first?.closest, "CIJobTests.adds()")
  }

  func testRecordAloneMeansThePackagesOwnHistory() throws {
    let own = URL(fileURLWithPath: Fixtures.ciJob).appendingPathComponent(".flakelab")
    XCTAssertFalse(FileManager.default.fileExists(atPath: own.path))
    defer { try? FileManager.default.removeItem(at: own) }
    let common = ["--package-path", Fixtures.ciJob, "--skip-build", "--no-progress", "--filter", "adds"]
    let ci = try Flakelab.run(["ci", "--record"] + common)
    XCTAssertEqual(ci.status, 0, ci.stderr)
    let history = own.appendingPathComponent("history.sqlite").path
    XCTAssertTrue(FileManager.default.fileExists(atPath: history))
    // Beside it, what belongs in git: the quarantine, not the history.
    XCTAssertEqual(
      try String(contentsOf: own.appendingPathComponent(".gitignore"), encoding: .utf8),
      "# Made by flakelab: the history is this machine's record of runs, kept out of git; the\n"
        + "# quarantine (quarantine.json) is the team's list, and belongs in git.\nhistory.sqlite\nhistory.sqlite-*\n")
    // Once there, a run goes in unasked, and says so; --no-record keeps it out.
    let unasked = try Flakelab.run(["ci"] + common)
    XCTAssertEqual(unasked.status, 0, unasked.stderr)
    XCTAssertTrue(unasked.stderr.contains("recorded in the package's history"), unasked.stderr)
    XCTAssertTrue(unasked.stderr.contains("--no-record leaves it alone"), unasked.stderr)
    let kept = try Flakelab.run(["ci", "--no-record"] + common)
    XCTAssertEqual(kept.status, 0, kept.stderr)
    XCTAssertEqual(kept.stderr, "")
    XCTAssertEqual(try Flakelab.runTool("/usr/bin/env", ["sqlite3", history, "SELECT count(*) FROM runs"]), "2\n")
    expectRefusal(try Flakelab.run(["ci", "--record", "--no-record"] + common), saying: "--record and --no-record")
  }

  private func importing(_ name: String, _ content: String, history: String? = nil) throws -> Flakelab.Result {
    let file = path(name)
    try Data(content.utf8).write(to: URL(fileURLWithPath: file))
    return try Flakelab.run([
      "history", "import", file, "--history", history ?? path("h.sqlite"), "--commit", "c1", "--branch", "main",
    ])
  }

  private func sqlite(_ sql: String) throws -> [String] {
    try Flakelab.runTool("/usr/bin/env", ["sqlite3", path("h.sqlite"), sql]).split(separator: "\n").map(String.init)
  }

  func testJUnitSaysWhatRanAsItsRunnerMeantIt() throws {
    // googletest's disabled tests, a name with a NUL in it, and an ISO-8859-1 file.
    let imported = try importing(
      "gtest.xml",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuites><testsuite name="Math">
      <testcase name="DISABLED_adds" classname="Math" status="notrun" result="suppressed"/>
      <testcase name="skipped" classname="Math" status="run" result="skipped"/>
      <testcase name="a&#0;b" classname="Math"/><testcase name="a&#0;c" classname="Math"><failure message="no"/></testcase>
      </testsuite></testsuites>
      """)
    XCTAssertEqual(imported.status, 0, imported.stderr)
    // The shell prints text up to a NUL: the names are read as hex.
    let stored = try sqlite("SELECT hex(test), status FROM results ORDER BY test").map { row in
      let (hex, status) = (row.prefix { $0 != "|" }, row.drop { $0 != "|" })
      let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
      return String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{0}", with: "<NUL>") + status
    }
    XCTAssertEqual(
      stored, ["Math.DISABLED_adds|skipped", "Math.a<NUL>b|passed", "Math.a<NUL>c|failed", "Math.skipped|skipped"])
    var latin = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><testsuite><testcase classname="Caf"#.utf8)
    latin += [0xE9] + Array(#"" name="t"/></testsuite>"#.utf8)
    try Data(latin).write(to: URL(fileURLWithPath: path("latin.xml")))
    let read = try Flakelab.run(["history", "import", path("latin.xml"), "--history", path("h.sqlite")])
    XCTAssertEqual(read.status, 0, read.stderr)
    XCTAssertEqual(try sqlite("SELECT test FROM results WHERE test LIKE 'Caf%'"), ["Café.t"])
    expectRefusal(
      try importing("utf32.xml", #"<?xml version="1.0" encoding="UTF-32"?><testsuite/>"#),
      saying: "the encoding utf-32, which is not read")
  }

  func testJUnitAndCIReportsThatCannotBeTrueAreRefused() throws {
    expectRefusal(
      try importing("unnamed.xml", #"<testsuite><testcase classname="A"/></testsuite>"#),
      saying: "a <testcase> without a name")
    expectRefusal(
      try importing(
        "future.xml", #"<testsuite timestamp="2999-01-01T00:00:00"><testcase classname="A" name="b"/></testsuite>"#),
      saying: "says its run started 2999-01-01T00:00:00Z, which has not come")
    // A date no calendar has is refused, never rolled into March or replaced by the file's time.
    for timestamp in ["2026-02-30T10:00:00", "2026-11-28T24:00:00", "NaN"] {
      expectRefusal(
        try importing(
          "day.xml", #"<testsuite timestamp="\#(timestamp)"><testcase classname="A" name="b"/></testsuite>"#),
        saying: "says a run started '\(timestamp)', which is no date")
    }
    let ci = try Flakelab.run(
      [
        "ci", "--package-path", Fixtures.ciJob, "--skip-build", "--no-progress", "--filter", "adds|concatenates",
        "--format", "json",
      ])
    XCTAssertEqual(ci.status, 0, ci.stderr)
    func tampered(_ from: String, _ to: String) -> String {
      XCTAssertTrue(ci.stdout.contains(from), from)
      return ci.stdout.replacingOccurrences(of: from, with: to)
    }
    func impossible(_ field: String) -> String { "a \(field) of 0 to 1000000000 seconds" }
    let attempt = try XCTUnwrap(
      ci.stdout.range(of: #"\{"outcome": "passed"[^}]*\}"#, options: .regularExpression).map { String(ci.stdout[$0]) })
    let cases: [(String, String)] = [
      (tampered("\"flakelab\": \"\(Report.labVersion)\"", "\"flakelab\": \"9.0.0\""), "flakelab 9.0.0 wrote it"),
      (tampered(#""id": ""#, #""id": "", "was": ""#), "without its run's id"),
      (tampered(#""started": "20"#, #""started": "29"#), "a date that has come"),
      (
        tampered(attempt, #"{"outcome": "failed", "observation": "x", "seconds": 1}"#),
        "says passed, its attempts make it failed"
      ),
      (tampered("CIJobTests.concatenates()", "CIJobTests.adds()"), "each test once: CIJobTests.adds() is there twice"),
      (
        tampered(#""started": "20"#, #""started": "1970-01-01T00:00:00Z", "was": "20"#),
        "it says it started 1970-01-01T00:00:00Z"
      ),
      (tampered(#""seed": ""#, #""seed": "no seed", "was": ""#), "a seed of 0 to 2^64 − 1"),
      (tampered(#""index": 0"#, #""index": -3"#), "at indices of 0 or more, not -3"),
      // Numbers no run had: each one line, never a trap.
      (tampered(#""timeoutSeconds": 60.0"#, #""timeoutSeconds": 1e30"#), impossible("timeoutSeconds")),
      (tampered(#""timeoutSeconds": 60.0"#, #""timeoutSeconds": 1e308"#), impossible("timeoutSeconds")),
      (tampered(#""timeoutSeconds": 60.0"#, #""timeoutSeconds": -1e30"#), impossible("timeoutSeconds")),
      (tampered(#""passSeconds": "#, #""passSeconds": 1e300, "was": "#), impossible("passSeconds")),
      (tampered(#""retries": 2"#, #""retries": 1000000000000"#), "retries of 0 to 100, not 1000000000000"),
    ]
    for (index, (report, message)) in cases.enumerated() {
      expectRefusal(try importing("ci-\(index).json", report), saying: message)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("h.sqlite")), "nothing of any was stored")
  }

  /// A lab report with a time no run had (a budget of 1e300 seconds) is one line and exit 2, to
  /// `merge` and to `history import`, never a trap.
  func testALabReportWithImpossibleSecondsIsRefused() throws {
    let lab = try Flakelab.run(
      [
        "test", "--package-path", Fixtures.ciJob, "--sanitize", "none", "--skip-build", "--no-progress", "--filter",
        "adds",
      ]
        + ["--iterations", "2", "--format", "json"])
    XCTAssertEqual(lab.status, 0, lab.stderr)
    let later = path("later.json")
    try lab.stdout.replacingOccurrences(of: "\"flakelab\": \"\(Report.labVersion)\"", with: "\"flakelab\": \"9.0.0\"")
      .write(toFile: later, atomically: true, encoding: .utf8)
    expectRefusal(
      try importing("later.json", try String(contentsOfFile: later, encoding: .utf8)), saying: "flakelab 9.0.0")
    let impossible = [
      (#""budgetSeconds": "#, #""budgetSeconds": 1e300, "was": "#),
      (#""timeoutSeconds": "#, #""timeoutSeconds": 1e30, "was": "#),
    ]
    for (from, to) in impossible {
      XCTAssertTrue(lab.stdout.contains(from), from)
      let report = path("lab.json")
      try lab.stdout.replacingOccurrences(of: from, with: to).write(toFile: report, atomically: true, encoding: .utf8)
      let field = from.split(separator: "\"")[0]
      expectRefusal(
        try Flakelab.run(["merge", report, report]), saying: "its \(field) is no time a run could have taken")
      expectRefusal(
        try importing("lab.json", try String(contentsOfFile: report, encoding: .utf8)), saying: String(field))
    }
  }

  func testALabReportReIndentedIsTheSameRun() throws {
    let lab = try Flakelab.run(
      [
        "test", "--package-path", Fixtures.ciJob, "--sanitize", "none", "--skip-build", "--no-progress", "--filter",
        "adds", "--iterations",
        "2",
        "--format", "json",
      ])
    XCTAssertEqual(lab.status, 0, lab.stderr)
    XCTAssertEqual(try importing("lab.json", lab.stdout).stdout, "\(path("lab.json")): added (test, 1 test)\n")
    // As a person or a tool that keeps the order of keys re-indents it.
    let indented = try Flakelab.runTool(
      "/usr/bin/env", ["python3", "-m", "json.tool", "--indent", "4", path("lab.json")])
    XCTAssertNotEqual(indented, lab.stdout)
    let again = try importing("indented.json", indented)
    XCTAssertEqual(again.stdout, "\(path("indented.json")): already in the history, nothing added\n", again.stderr)
  }

  func testAnImportThatCannotSaySoStillSaysItWasStored() throws {
    let junit = path("one.xml")
    try #"<testsuite><testcase classname="A" name="b"/></testsuite>"#.write(
      toFile: junit, atomically: true, encoding: .utf8)
    let result = try Flakelab.shell("FLAKELAB history import '\(junit)' --history '\(path("h.sqlite"))' > /dev/full")
    XCTAssertEqual(result.status, 2)
    XCTAssertTrue(result.stderr.contains("the import itself is done: \(junit): added (junit, 1 test)"), result.stderr)
    XCTAssertEqual(try sqlite("SELECT count(*) FROM runs"), ["1"])
  }

  func testABranchOrCommitOnMoreThanOneLineIsRefused() throws {
    let junit = path("one.xml")
    try #"<testsuite><testcase classname="A" name="b"/></testsuite>"#.write(
      toFile: junit, atomically: true, encoding: .utf8)
    for option in ["--branch", "--commit"] {
      expectRefusal(
        try Flakelab.run(["history", "import", junit, "--history", path("h.sqlite"), option, "main\nGate: passed"]),
        saying: "\(option) takes a name on one line")
    }
  }

  func testAHistoryThatCouldNotBeMadeLeavesNothingBeside() throws {
    let junit = path("one.xml")
    try #"<testsuite><testcase classname="A" name="b"/></testsuite>"#.write(
      toFile: junit, atomically: true, encoding: .utf8)
    // A disk with room for the file and not for its schema.
    let full = state.appendingPathComponent("full")
    try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
    let mounted = try CapturedProcess.run("mount", ["-t", "tmpfs", "-o", "size=4k", "tmpfs", full.path])
    try XCTSkipIf(mounted.status != 0, "no tmpfs mount here: \(mounted.errorOutput)")
    defer { _ = try? CapturedProcess.run("umount", [full.path]) }
    let result = try Flakelab.run([
      "history", "import", junit, "--history", full.appendingPathComponent("h.sqlite").path,
    ])
    XCTAssertEqual(result.status, 2, result.stdout)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: full.path), [], "no history, no -journal, -wal or -shm")
  }

  func testAnInterruptDuringRetriesSaysInterruptedNotFailed() throws {
    // hangs() hangs each run for the 1 s timeout: the pass ends at about 1 s, five retries run
    // until about 6 s, and the interrupt at 4 s falls among them.
    let output = Pipe()
    let process = Process()
    process.executableURL = Flakelab.executable
    process.arguments = [
      "ci", "--package-path", Fixtures.ciJob, "--skip-build", "--no-progress", "--filter", "hangs", "--timeout", "1s",
      "--retries", "5", "--output", path("ci.json"),
    ]
    process.environment = ProcessInfo.processInfo.environment.merging(["CIJOB_STATE": state.path]) { $1 }
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    Thread.sleep(forTimeInterval: 4)
    process.interrupt()
    let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 130)
    XCTAssertTrue(said.contains("INTERRUPTED  CIJobTests.hangs()  hung in the pass"), said)
    XCTAssertTrue(said.contains("until the interrupt cut it short"), said)
    XCTAssertFalse(said.contains("FAILED"), said)
    // The summary and the JSON say it as the block does: never failed.
    XCTAssertTrue(said.contains("\n0 tests passed, 1 interrupted in their retries.\n"), said)
    let run = try CIJSONReader.read(
      try XCTUnwrap(JSONParser.parse(try XCTUnwrap(FileManager.default.contents(atPath: path("ci.json"))))))
    XCTAssertEqual(run.tests.map(\.status), [.interrupted])
    XCTAssertFalse(run.failsTheJob)
  }

  func testAQuarantineListsATestOnceAndNeverWritesThroughALinkToNothing() throws {
    let twice = try Quarantine.read(
      Array(#"{"tests": [{"test": "M.a()", "reason": "first"}, {"test": "M.a()", "reason": "second"}]}"#.utf8),
      name: "q")
    XCTAssertEqual(twice.entries.map(\.reason), ["first"])
    let link = path("quarantine.json")
    let outside = state.deletingLastPathComponent().appendingPathComponent("elsewhere-\(UUID().uuidString)/q.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
    XCTAssertThrowsError(
      try Quarantine.update(link, origin: .found, mustExist: false) {
        $0.add(.init(test: "M.a()", reason: "r", added: "d"))
      }
    ) { XCTAssertEqual($0 as? QuarantineError, .danglingLink(path: link, target: outside)) }
    XCTAssertFalse(FileManager.default.fileExists(atPath: outside))
  }

  func testACodeSpanHoldsAnyRunOfBackticks() {
    XCTAssertEqual(ReportMarkdown.code("M.plain()"), "`M.plain()`")
    XCTAssertEqual(ReportMarkdown.code("M.`raw`()"), "`` M.`raw`() ``")
    XCTAssertEqual(ReportMarkdown.code("M.``two``()"), "``` M.``two``() ```")
  }

  func testAnImportIsFiledUnderThePackagesCheckoutWhereverItRuns() throws {
    let junit = path("one.xml")
    try #"<testsuite><testcase classname="A" name="b"/></testsuite>"#.write(
      toFile: junit, atomically: true, encoding: .utf8)
    let head = try Flakelab.runTool("/usr/bin/env", ["git", "-C", Fixtures.ciJob, "rev-parse", "HEAD"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try XCTSkipIf(head.isEmpty, "the fixture is not in a git checkout here")
    // Run from the temporary directory, which is no checkout.
    let imported = try Flakelab.run(
      ["history", "import", junit, "--package-path", Fixtures.ciJob, "--history", path("h.sqlite")], directory: state)
    XCTAssertEqual(imported.status, 0, imported.stderr)
    XCTAssertEqual(try sqlite("SELECT commit_id FROM runs"), [head])
  }
  /// `--output` never replaces a file the command reads or writes: the history (every earlier
  /// run lost), the quarantine (a report read as one excuses every test), a baseline, a report
  /// being merged. Refused before anything runs, each file as it was.
  func testAnOutputThatIsAFileTheCommandUsesIsRefusedAndNothingIsTouched() throws {
    let report = path("report.json")
    try #"{"flakelab": "report"}"#.write(toFile: report, atomically: true, encoding: .utf8)
    let history = path("history.sqlite")
    try "not yet a history".write(toFile: history, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: path("link.json"), withDestinationPath: report)
    let package = state.appendingPathComponent("package")
    try FileManager.default.createDirectory(
      at: package.appendingPathComponent(".flakelab"), withIntermediateDirectories: true)
    // `linkdir/..` is the directory `linkdir` links into, as the kernel resolves it: the new
    // history's own, not this one.
    let deep = state.appendingPathComponent("d/sub")
    try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: path("linkdir"), withDestinationPath: deep.path)
    let fresh = path("d/new.sqlite")
    try FileManager.default.createSymbolicLink(atPath: path("linked.sqlite"), withDestinationPath: fresh)
    let cases: [[String]] = [
      ["ci", "--package-path", package.path, "--record", fresh, "--output", path("linkdir/../new.sqlite")],
      ["ci", "--package-path", package.path, "--record", fresh, "--output", path("linkdir/../new.sqlite-wal")],
      ["ci", "--package-path", package.path, "--record", path("linked.sqlite"), "--output", fresh + "-wal"],
      ["ci", "--package-path", package.path, "--record", history, "--output", history],
      ["ci", "--package-path", package.path, "--record", history, "--output", history + "-wal"],
      ["ci", "--package-path", package.path, "--output", package.path + "/.flakelab/../.flakelab/quarantine.json"],
      ["ci", "--package-path", package.path, "--quarantine", report, "--output", path("link.json")],
      ["test", "--package-path", package.path, "--sanitize", "none", "--record", history, "--output", history],
      ["merge", report, "--output", path("link.json")],
      ["run", "isLoading", "--iterations", "10", "--baseline", report, "--output", report],
    ]
    for arguments in cases {
      expectRefusal(try Flakelab.run(arguments), saying: "which this command reads")
    }
    XCTAssertEqual(try String(contentsOfFile: history, encoding: .utf8), "not yet a history")
    XCTAssertEqual(try String(contentsOfFile: report, encoding: .utf8), #"{"flakelab": "report"}"#)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: package.path + "/.flakelab"), [])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("d").path), ["sub"])
  }

  /// A JSON document that lists tests for another reason is no quarantine: a `ci` report read as
  /// one would excuse every test it lists.
  func testAReportIsNotAQuarantine() throws {
    let ciReport = #"{"flakelab": "ci", "seed": "1", "tests": [{"test": "M.a()", "status": "failed"}]}"#
    let unmarked = #"{"tests": [{"test": "M.a()", "status": "failed"}]}"#
    for text in [ciReport, unmarked] {
      XCTAssertThrowsError(try Quarantine.read(Array(text.utf8), name: "q")) {
        XCTAssertEqual($0 as? QuarantineError, .notAQuarantine(path: "q"))
      }
    }
    // One written before files said what they are is still read; one written now says it.
    let older = #"{"tests": [{"test": "M.a()", "reason": "r", "added": "2026-11-01"}]}"#
    XCTAssertEqual(try Quarantine.read(Array(older.utf8), name: "q").entries.map(\.test), ["M.a()"])
    let written = Quarantine([.init(test: "M.a()", reason: "r", added: "d")]).text
    XCTAssertTrue(written.hasPrefix(#"{"flakelab": "quarantine", "tests": ["#), written)
    XCTAssertEqual(try Quarantine.read(Array(written.utf8), name: "q").entries.map(\.test), ["M.a()"])
    try ciReport.write(toFile: path("report.json"), atomically: true, encoding: .utf8)
    let ci = try Flakelab.run([
      "ci", "--package-path", Fixtures.ciJob, "--skip-build", "--quarantine", path("report.json"),
    ])
    expectRefusal(ci, saying: "is not a quarantine file")
  }
  /// Help, the version and a completion script that cannot be written are no success: `make
  /// install` would install an empty completion.
  func testHelpVersionAndCompletionsThatCannotBeWrittenExitTwo() throws {
    for words in [
      "--help", "help ci", "ci --help", "history import --help", "--version", "--generate-completion-script zsh",
    ] {
      let result = try Flakelab.shell("FLAKELAB \(words) > /dev/full")
      XCTAssertEqual(result.status, 2, words)
      XCTAssertTrue(result.stderr.contains("could not write to standard output"), result.stderr)
    }
  }
  /// The lab's builds of one package take turns: SwiftPM's build database fails a second build
  /// that meets the first ("unable to load build file"), which read as a package that does not
  /// build when ten `quarantine add`s rebuilt it at once.
  func testBuildsOfOnePackageTakeTurns() throws {
    let package = state.path
    let first = try BuildLock(package: package)
    let second = Locked<BuildLock?>(nil)
    let said = Locked<[String]>([])
    let thread = Thread {
      let lock = try? BuildLock(package: package) { line in said.withLock { $0.append(line) } }
      second.withLock { $0 = lock }
    }
    thread.start()
    Thread.sleep(forTimeInterval: 0.3)
    XCTAssertNil(second.withLock { $0 }, "the second waits while the first builds")
    XCTAssertEqual(
      said.withLock { $0 },
      ["waiting for another flakelab's build of \(package) to end (SwiftPM builds one at a time)"], "and says so, once")
    first.release()
    let deadline = Date().addingTimeInterval(10)
    while second.withLock({ $0 }) == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    XCTAssertNotNil(second.withLock { $0 }, "and builds once the first is done")
    second.withLock { $0?.release() }
  }
}

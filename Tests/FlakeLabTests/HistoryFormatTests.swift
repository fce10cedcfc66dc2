import FlakeLab
import Foundation
import XCTest

@testable import FlakeLabHistory

/// The pieces under the history's import: the digest that names a file, the XML reader, and
/// how a JUnit test case becomes a test's status.
final class HistoryFormatTests: XCTestCase {
  func testSHA256MatchesTheStandardsVectors() {
    XCTAssertEqual(
      SHA256.hex(of: Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    XCTAssertEqual(SHA256.hex(of: []), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    XCTAssertEqual(
      SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  func testTheXMLReaderTakesWhatJUnitWritersWrite() throws {
    let text = """
      \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
      <!-- a comment --><!DOCTYPE testsuites>
      <testsuites><testsuite name='S' timestamp="2026-11-20T10:00:00">
        <testcase classname="M.C" name="a &amp; b &#8594; &#x41;"><failure message="x &lt; y"><![CDATA[<raw> & text]]></failure></testcase>
        <testcase classname="M" name="b()"/>
      </testsuite></testsuites>
      """
    let root = try XMLTree.parse(Array(text.utf8))
    let cases = root.descendants(named: "testcase")
    XCTAssertEqual(cases.map { $0.attributes["name"] }, ["a & b → A", "b()"])
    XCTAssertEqual(cases[0].children.first?.attributes["message"], "x < y")
    XCTAssertEqual(cases[0].children.first?.text, "<raw> & text")
    XCTAssertThrowsError(try XMLTree.parse(Array("<a>\n<b></a>".utf8))) { error in
      XCTAssertEqual((error as? XMLTree.Malformed)?.line, 2)
    }
    XCTAssertThrowsError(try XMLTree.parse(Array("<a x=1/>".utf8)))
  }

  func testJUnitCasesBecomeStatusesAndFlakeLabIDs() throws {
    let text = """
      <testsuite name="S" hostname="ci-7" timestamp="2026-11-20T10:00:00Z">
        <testcase classname="M.C" name="testPasses"/>
        <testcase classname="M" name="fails()"><failure message="no"/><rerunFailure message="no"/></testcase>
        <testcase classname="M.Suite" name="flakes()"><flakyFailure message="once"/></testcase>
        <testcase classname="M.C" name="testSkipped"><skipped/></testcase>
        <testcase classname="M.C" name="testTwice"><error message="x"/></testcase>
        <testcase classname="M.C" name="testTwice"/>
      </testsuite>
      """
    let run = try JUnitImport.run(
      Array(text.utf8), path: "x.xml", source: "s", modified: Date(), commit: "abc", branch: "main")
    XCTAssertEqual(run.kind, .junit)
    XCTAssertEqual(run.machine.host, "ci-7")
    XCTAssertEqual(run.started, Timestamp.date("2026-11-20T10:00:00Z"))
    XCTAssertEqual(
      run.results,
      [
        .init(test: "M.C/testPasses", status: .passed, attempts: 1, failures: 0),
        .init(test: "M.fails()", status: .failed, attempts: 2, failures: 2),
        .init(test: "M.Suite/flakes()", status: .flaky, attempts: 2, failures: 1),
        .init(test: "M.C/testSkipped", status: .skipped, attempts: 0, failures: 0),
        .init(test: "M.C/testTwice", status: .flaky, attempts: 2, failures: 1),
      ])
    XCTAssertThrowsError(
      try JUnitImport.run(
        Array("<html></html>".utf8), path: "p.xml", source: "s", modified: Date(), commit: nil, branch: nil)
    ) { XCTAssertEqual($0 as? ImportError, .notJUnit(path: "p.xml", root: "html")) }
  }

  /// `flakelab ci`'s JSON carries what the history needs: its run's ID, start, checkout, and a
  /// test flaky only beside a crash none in flight caused alone.
  func testACIReportIsImportedUnderItsRunWithItsCrashBystanders() throws {
    let others = [PackageTest(id: "M.b()", framework: .swiftTesting)]
    var run = CIRun(
      packagePath: ".", retries: 2, timeout: .seconds(60), failOnFlaky: false, seed: 7,
      tests: [
        CITest(
          test: PackageTest(id: "M.a()", framework: .swiftTesting),
          attempts: [
            .init(outcome: .crashed(Crash(how: "signal 4", beside: others, crashedAlone: false)), seconds: 0.1),
            .init(outcome: .passed, seconds: 0.1),
          ]),
        CITest(
          test: PackageTest(id: "M.c()", framework: .swiftTesting),
          attempts: [.init(outcome: .failed(observation: "x"), seconds: 0.1), .init(outcome: .passed, seconds: 0.1)]),
      ])
    run.context.git = GitState(commit: "abc", branch: "main")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("ci-\(UUID().uuidString).json").path
    try Data(CIJSON.render(run).utf8).write(to: URL(fileURLWithPath: file))
    defer { try? FileManager.default.removeItem(atPath: file) }
    let imported = try HistoryImport.run(file, commit: "ignored", branch: "ignored")
    XCTAssertEqual(imported, RecordedRun(run))
    XCTAssertEqual(imported.results.map(\.besideACrash), [true, false])
    XCTAssertEqual(imported.commit, "abc")
  }

  /// `flakelab ci`'s JUnit shows a quarantined failure as skipped, for the CI's view; imported,
  /// it is the failure it was, and a test flaky only beside a crash is one.
  /// A time is written as the second it falls in, as the history records it, even in that
  /// second's last half millisecond (which Foundation's formatter rounds up).
  func testATimeIsWrittenAsTheSecondItFallsIn() {
    let second = 1_795_000_000.0
    for fraction in [0, 0.5, 0.9994, 0.9996, 0.999_999] {
      let date = Date(timeIntervalSince1970: second + fraction)
      XCTAssertEqual(Timestamp.date(Timestamp.iso8601(date))?.timeIntervalSince1970, second, "\(fraction)")
    }
    // Worked out by hand, it writes what Foundation's formatter writes, leap days, 1900 and 2100
    // (no leap years), 2000 (one) and times before 1970 among them.
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    var generator = SystemRandomNumberGenerator()
    let edges: [Double] = [0, -1, 951_782_400, 951_868_799, 4_107_542_399, -2_203_891_200, 1_795_000_000]
    let drawn = (0..<2000).map { _ in Double(Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator)) }
    for seconds in edges + drawn {
      let date = Date(timeIntervalSince1970: seconds)
      XCTAssertEqual(Timestamp.iso8601(date), formatter.string(from: date), "\(seconds)")
    }
    // A day no calendar has is no date, however Foundation's parser would roll it.
    XCTAssertNil(Timestamp.date("2026-02-29T00:00:00Z"))
    XCTAssertNotNil(Timestamp.date("2028-02-29T00:00:00Z"))
    XCTAssertNil(Timestamp.date("2026-04-31T12:00:00+02:00"))
  }

  func testCIJUnitIsImportedAsTheRunSaidIt() throws {
    let failed = Outcome.failed(observation: "x")
    func test(_ name: String, _ outcomes: [Outcome], quarantined: Bool = false) -> CITest {
      CITest(
        test: PackageTest(id: "M.\(name)()", framework: .swiftTesting),
        attempts: outcomes.map { CITest.Attempt(outcome: $0, seconds: 0.1) },
        quarantine: quarantined ? .init(test: "M.\(name)()", reason: "known", added: "2026-11-24") : nil)
    }
    let crash = Outcome.crashed(
      Crash(how: "signal 4", beside: [PackageTest(id: "M.b()", framework: .swiftTesting)], crashedAlone: false))
    let run = CIRun(
      packagePath: ".", retries: 2, timeout: .seconds(60), failOnFlaky: false, seed: 7,
      tests: [
        test("a", [crash, .passed]), test("c", [failed, failed, .passed]), test("d", [failed, failed, failed]),
        test("q", [failed, failed, failed], quarantined: true), test("p", [.passed], quarantined: true),
        test("s", [.skipped(reason: "off")]),
      ])
    let junit = CIJUnit.render(run)
    XCTAssertTrue(junit.contains(#"<flakyError message="#) && junit.contains(#"type="crashBesideOthers"/>"#), junit)
    let imported = try JUnitImport.run(
      Array(junit.utf8), path: "ci.xml", source: "s", modified: Date(), commit: "abc", branch: nil)
    XCTAssertEqual(
      imported.results,
      [
        .init(test: "M.a()", status: .flaky, attempts: 2, failures: 1, besideACrash: true),
        .init(test: "M.c()", status: .flaky, attempts: 3, failures: 2),
        .init(test: "M.d()", status: .failed, attempts: 3, failures: 3),
        // Its retries are not in the file: the fewest runs a failure has.
        .init(test: "M.q()", status: .failed, attempts: 1, failures: 1),
        .init(test: "M.p()", status: .passed, attempts: 1, failures: 0),
        .init(test: "M.s()", status: .skipped, attempts: 0, failures: 0),
      ])
    XCTAssertEqual(imported.results.map(\.status), RecordedRun(run).results.map(\.status))
    // The file names its run: imported after the run's JSON (or --record), it is the same run.
    XCTAssertEqual(imported.source, RecordedRun(run).source)
    XCTAssertEqual(imported.kind, .ci)
    XCTAssertEqual(imported.started, RecordedRun(run).started)
    // In a directory of its own, removed whole: the store's -wal and -shm go with it.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("h-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try HistoryStore(path: directory.appendingPathComponent("history.sqlite").path)
    XCTAssertTrue(try store.record(RecordedRun(run)))
    XCTAssertFalse(try store.record(imported))
  }

  /// `ci`'s JSON is read back as the run it was written from, field for field, by the
  /// reader beside the writer; and the history files that run with ci's own types.
  func testACIReportReadsBackAsTheRunItWasWrittenFrom() throws {
    let failed = Outcome.failed(observation: "x")
    var flaky = CITest(
      test: PackageTest(id: "M.S/a()", framework: .xctest),
      attempts: [
        .init(
          outcome: failed, example: "XCTAssertEqual failed", seconds: 0.25,
          place: .init(path: "/p/Tests/A.swift", line: 9)),
        .init(outcome: failed, seconds: 0.5, index: 1), .init(outcome: .passed, seconds: 0.125, index: 2),
      ],
      location: .init(path: "/p/Tests/A.swift", line: 7))
    flaky.retriesCut = false
    let quarantined = CITest(
      test: PackageTest(id: "M.b()", framework: .swiftTesting),
      attempts: [.init(outcome: .timedOut, seconds: 60), .init(outcome: .timedOut, seconds: 60, index: 1)],
      quarantine: .init(test: "M.b()", reason: "known", added: "2026-11-24"))
    let skipped = CITest(
      test: PackageTest(id: "M.c()", framework: .swiftTesting),
      attempts: [.init(outcome: .skipped(reason: "off"), seconds: 0)])
    var run = CIRun(
      machine: MachineInfo(cores: 2, os: "Ubuntu 24.04", swift: "6.3"), packagePath: "/p", retries: 2,
      timeout: .seconds(60),
      failOnFlaky: true, seed: UInt64.max - 1, tests: [flaky, quarantined, skipped])
    run.started = Date(timeIntervalSince1970: 1_790_000_000)
    run.context.git = GitState(commit: "abc", branch: "main")
    run.context.selection = ["--filter", "^M\\."]
    run.context.program = "my-lab"
    run.context.quarantineFile = "/p/.flakelab/quarantine.json"
    run.context.staleQuarantine = [
      .init(entry: .init(test: "M.old()", reason: "gone", added: "2026-11-01"), closest: "M.c()")
    ]
    run.passSeconds = 1.234
    run.retrySeconds = 0.5
    let read = try CIJSONReader.read(try XCTUnwrap(JSONParser.parse(Array(CIJSON.render(run).utf8))))
    XCTAssertEqual(read, run)
    XCTAssertEqual(CIJSON.render(read), CIJSON.render(run))
    let recorded = RecordedRun(read)
    XCTAssertEqual(recorded.seed, UInt64.max - 1)
    XCTAssertEqual(recorded.machine, .init(cores: 2, os: "Ubuntu 24.04", swift: "6.3"))
    XCTAssertEqual(
      read.replay(of: flaky),
      "my-lab test --package-path /p --layout fresh --filter '^M\\.S\\/a\\(\\)$' --executor global --seed \(UInt64.max - 1) --index 1"
    )
  }
}

import Foundation
import XCTest

@testable import FlakeLab

/// The JSON report is written and read by one type: what it writes reads back to the same
/// report, and its parser takes JSON and nothing else.
final class JSONReportTests: XCTestCase {
  func testAReportReadsBackToTheSameText() throws {
    var tally = Tally()
    tally.record(.passed, count: 97)
    tally.record(.crashed(Crash(how: "signal 4 (SIGILL): \"trap\"\nnext line")), count: 2)
    tally.record(.skipped(reason: "disabled ✓"), count: 1)
    var run = RunResult(
      RunKey(scenario: "M.S", variant: "t()", executor: .seeded), tally: tally, seconds: 1.5,
      iterationsAreIndependent: true, schedule: RunSchedule(seed: UInt64.max, fingerprint: 0xdead_beef))
    run.test = TestReference(
      test: PackageTest(id: "M.S/t()", framework: .swiftTesting), packagePath: "/tmp/a b", layout: .fresh)
    run.iterationTimes = IterationTimes(iterations: 100, seconds: 0.31, fastestFailure: 0.0125)
    let report = Report(runs: [run], shard: try Shard(index: 1, count: 3), seed: 42, timeout: .milliseconds(250))
    let text = ReportJSON.render(report)
    let read = try ReportJSON.read(Array(text.utf8), name: "a.json")
    XCTAssertEqual(ReportJSON.render(read), text)
    XCTAssertEqual(read.runs.first?.iterationTimes, run.iterationTimes)
  }

  func testTextIsEscapedExactlyWhereJSONNeedsIt() {
    let texts = [
      "", "plain", "\"", "\\", "a\"b\\c\nd\re\tf\u{1}g\u{1F}", "\"\u{301} accent on a quote", "😀 é \u{7F}",
      String(repeating: "QUJD", count: 200),
    ]
    for text in texts {
      let line = JSONValue.string(text).serialized()
      XCTAssertFalse(line.utf8.dropFirst().dropLast().contains { $0 < 0x20 }, line)
      guard case .string(let read) = JSONParser.parse(Array(line.utf8)) else { return XCTFail(line) }
      XCTAssertEqual(Array(read.unicodeScalars), Array(text.unicodeScalars), line)
    }
    XCTAssertEqual(JSONValue.string("a\"\u{1}").serialized(), #""a\"\u0001""#)
  }

  func testTheParserTakesJSONAndNothingElse() {
    XCTAssertEqual(JSONParser.parse(Array("3".utf8)), .int(3))
    XCTAssertEqual(JSONParser.parse(Array(" 3.0 ".utf8)), .double(3))
    XCTAssertEqual(JSONParser.parse(Array(#""\ud83d\ude00 \u00e9\n""#.utf8)), .string("😀 é\n"))
    XCTAssertEqual(
      JSONParser.parse(Array(#"{"a": [true, null, -1e2]}"#.utf8)),
      .object([("a", .array([.bool(true), .null, .double(-100)]))]))
    let malformed = [
      "", "{", "[1,]", "{} x", "{\"a\" 1}", "'a'", "\"\\x\"", "\"\u{1}\"", "01e", "+1", "nul", "[.5]",
      "01", "1.", "-", "1e", "--1", "1.5.2",
      String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
    ]
    for text in malformed {
      XCTAssertNil(JSONParser.parse(Array(text.utf8)), text)
    }
  }
}

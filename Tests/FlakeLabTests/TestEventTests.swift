import Foundation
import XCTest

@testable import FlakeLab

/// The event stream of a test process, read as the supervisor reads it.
final class TestEventTests: XCTestCase {
  private let id = "Module.Suite/yield()"

  /// Writes `lines` into a fresh feed's pipe and polls it once.
  private func poll(_ lines: [String], firstIndex: Int = 10) throws -> (Int, [ChannelRecord], Bool) {
    let feed = try TestEventFeed(testID: id, firstIndex: firstIndex)
    let bytes = Array(lines.joined().utf8)
    XCTAssertEqual(write(feed.descriptor, bytes, bytes.count), bytes.count)
    let (completed, records) = feed.poll()
    return (completed, records, feed.workerIsReady)
  }

  func testIterationsAreTheStartEndPairsOfTheTestAndUnknownIssuesFailThem() throws {
    let location = id + "/File.swift:3:4"
    let lines = [
      #"{"kind":"test","payload":{"id":"Module.Suite","kind":"suite"},"version":0}"# + "\n",
      TestEvent.runStarted.line,
      TestEvent.testStarted(testID: "Module.Suite").line,
      TestEvent.testStarted(testID: location).line,
      TestEvent.testEnded(testID: location).line,
      TestEvent.testStarted(testID: location).line,
      TestEvent.issueRecorded(testID: location, message: "Expectation failed: <M: 0x7f3a12> after 0.002 seconds at File.swift:21:5", isFailure: true).line,
      TestEvent.issueRecorded(testID: location, message: "known", isFailure: false).line,
      TestEvent.testEnded(testID: location).line,
      TestEvent.testStarted(testID: "Module.Suite/yieldTwice()/File.swift:9:4").line,
      TestEvent.issueRecorded(testID: "Module.Suite/yieldTwice()/File.swift:9:4", message: "other", isFailure: true).line,
      TestEvent.testEnded(testID: "Module.Suite/yieldTwice()/File.swift:9:4").line,
      TestEvent.testStarted(testID: location).line,  // started, not ended: the process died here
    ]
    let (completed, records, isReady) = try poll(lines)
    XCTAssertTrue(isReady)
    XCTAssertEqual(completed, 2)
    XCTAssertEqual(records.map(\.index), [11])
    XCTAssertEqual(
      records.first?.outcome, .failed(observation: "Expectation failed: <M: 0x…> after … seconds at File.swift"))
  }

  func testAPartialLineWaitsForItsEnd() throws {
    let feed = try TestEventFeed(testID: id, firstIndex: 0)
    let line = Array((TestEvent.testStarted(testID: id).line + TestEvent.testEnded(testID: id).line).utf8)
    _ = write(feed.descriptor, line, line.count - 5)
    XCTAssertEqual(feed.poll().completed, 0)
    _ = line.suffix(5).withUnsafeBufferPointer { write(feed.descriptor, $0.baseAddress, 5) }
    XCTAssertEqual(feed.poll().completed, 1)
  }

  func testEventLinesReadBackAsWritten() {
    let events: [TestEvent] = [
      .runStarted, .testStarted(testID: id), .testEnded(testID: id),
      .issueRecorded(testID: id, message: "XCTAssertTrue failed - ", isFailure: true),
      .testSkipped(testID: id, message: "disabled"), .probe(check: "hook", tookEffect: true),
    ]
    for event in events {
      XCTAssertEqual(TestEvent.parse(Array(event.line.utf8.dropLast())), event)
    }
  }

  func testXCTestFailureLinesAfterAnExitStatusOfOne() {
    let output = """
      Test Case 'IsLoadingXCTests.testYield' started at 2026-11-22 14:19:09.242
      /path/IsLoadingXCTests.swift:21: error: IsLoadingXCTests.testYield : XCTAssertTrue failed - 
      Test Case 'IsLoadingXCTests.testYield' failed (0.002 seconds)
      """
    XCTAssertEqual(ExitStatusFeed.failures(in: output), "XCTAssertTrue failed")
  }

  func testFailureTextKeepsTheFirstCharactersOfALongMessage() {
    let message = "XCTAssertEqual failed: (\"" + (1...1000).map(String.init).joined(separator: ", ")
    let text = FailureText.normalize(message)
    XCTAssertEqual(text.count, FailureText.limit + 1)
    XCTAssertTrue(text.hasPrefix("XCTAssertEqual failed: (\"1, 2, 3"))
    XCTAssertTrue(text.hasSuffix("…"))
  }

  func testFailureTextLosesColoursTimesAndPositions() {
    XCTAssertEqual(
      FailureText.normalize("\u{1B}[90m◇\u{1B}[0m Test started at 2026-11-22 14:25:35.404 in File.swift:12"),
      "◇ Test started at … in File.swift")
  }
}

import Foundation
import XCTest

@testable import FlakeLab

/// The event stream of a test process, read as the supervisor reads it.
final class TestEventTests: XCTestCase {
  private let id = "Module.Suite/yield()"

  /// Writes `lines` into a fresh feed's pipe and polls it once.
  private func poll(
    _ lines: [String], firstIndex: Int = 10, iterations: Int = 100
  ) throws -> (Int, [ChannelRecord], Bool) {
    let feed = try TestEventFeed(testID: id, firstIndex: firstIndex, iterations: iterations)
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
      TestEvent.issueRecorded(
        testID: location, message: "Expectation failed: <M: 0x7f3a12> after 0.002 seconds at File.swift:21:5",
        isFailure: true
      ).line,
      TestEvent.issueRecorded(testID: location, message: "known", isFailure: false).line,
      TestEvent.testEnded(testID: location).line,
      TestEvent.testStarted(testID: "Module.Suite/yieldTwice()/File.swift:9:4").line,
      TestEvent.issueRecorded(testID: "Module.Suite/yieldTwice()/File.swift:9:4", message: "other", isFailure: true)
        .line,
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

  /// Warm means warm: a warm process's first run, which a cache filled lazily fails, is not
  /// counted; the counted iterations keep their indices; the warm-up is progress all the same.
  func testAWarmUpRunIsNotCountedAndTheIterationsKeepTheirIndices() throws {
    let feed = try TestEventFeed(testID: id, firstIndex: 10, iterations: 2, warmUps: 1)
    let failed = TestEvent.issueRecorded(testID: id, message: "first run", isFailure: true).line
    let lines = [
      TestEvent.runStarted.line, TestEvent.testStarted(testID: id).line, failed, TestEvent.testEnded(testID: id).line,
      TestEvent.testStarted(testID: id).line, TestEvent.testEnded(testID: id).line,
      TestEvent.testStarted(testID: id).line, failed, TestEvent.testEnded(testID: id).line,
    ]
    let bytes = Array(lines.joined().utf8)
    XCTAssertEqual(write(feed.descriptor, bytes, bytes.count), bytes.count)
    let (completed, records) = feed.poll()
    XCTAssertEqual(feed.warmUpsFinished, 1)
    XCTAssertEqual(completed, 2)
    XCTAssertEqual(records.map(\.index), [11], "the warm-up's failure is not among them")
  }

  /// The stack the harness captured is named by the lab; a stack it cannot read names no frame.
  func testAThreadBlockedEventCarriesItsStackBackAndForth() throws {
    let event = TestEvent.threadBlocked(
      call: "usleep", frame: nil, stack: #"{"architecture":"x86_64","backtrace":"Ag=="}"#)
    XCTAssertEqual(TestEvent.parse(Array(event.line.utf8).dropLast()), event)
    let images = TestEvent.stackImages(map: "{}", program: "M.xctest")
    XCTAssertEqual(TestEvent.parse(Array(images.line.utf8).dropLast()), images)
    XCTAssertFalse(images.isCounted)
    XCTAssertNil(StackSymbols(imageMap: "not a map", program: "M.xctest", packagePath: ".").frame(of: "not a stack"))
  }

  /// A failing iteration in which the harness saw the queue's thread block counts as
  /// blocked, at its place; a passing one that blocked, or a block between iterations, does not.
  func testAFailingIterationThatBlockedTheQueueIsCountedWithItsPlace() throws {
    let feed = try TestEventFeed(testID: id, firstIndex: 0, iterations: 10)
    let place = "waitSynchronously(timeout:until:) at Tests/A.swift:21"
    let lines = [
      TestEvent.threadBlocked(call: "usleep", frame: place).line,
      TestEvent.testStarted(testID: id).line,
      TestEvent.threadBlocked(call: "usleep", frame: place).line,
      TestEvent.threadBlocked(call: "usleep", frame: place).line,
      TestEvent.issueRecorded(testID: id, message: "Expectation failed", isFailure: true).line,
      TestEvent.testEnded(testID: id).line,
      TestEvent.testStarted(testID: id).line,
      TestEvent.threadBlocked(call: "DispatchGroup.wait", frame: nil).line,
      TestEvent.testEnded(testID: id).line,
    ]
    let bytes = Array(lines.joined().utf8)
    XCTAssertEqual(write(feed.descriptor, bytes, bytes.count), bytes.count)
    XCTAssertEqual(feed.poll().completed, 2)
    XCTAssertEqual(feed.blocks.failingIterations, 1)
    XCTAssertEqual(feed.blocks.places, [place + ", in usleep": 1])
    XCTAssertEqual(feed.blocks.commonest, place + ", in usleep")
  }

  func testAPartialLineWaitsForItsEnd() throws {
    let feed = try TestEventFeed(testID: id, firstIndex: 0, iterations: 1)
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
      .testSkipped(testID: id, message: "disabled"), .probe(check: .enqueueHook, tookEffect: true),
      .runEnded(eventsWritten: 12), .executorChanged, .scheduleUncontrolled,
      .threadBlocked(call: "usleep", frame: "waitSynchronously(timeout:until:) at Tests/A.swift:21"),
      .threadBlocked(call: "DispatchGroup.wait", frame: nil),
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

  // What the test said, whole, grouped.

  func testASwiftTestingIssueKeepsItsDetailsAndItsComment() throws {
    let line =
      #"{"kind":"event","version":0,"payload":{"kind":"issueRecorded","testID":"M.t()/F.swift:1:1","#
      + #""messages":[{"symbol":"fail","text":"Expectation failed: (x → 2) == 3"},{"symbol":"details","text":"the comment"}],"#
      + #""issue":{"isKnown":false}}}"#
    XCTAssertEqual(
      TestEvent.parse(Array(line.utf8)),
      .issueRecorded(
        testID: "M.t()/F.swift:1:1", message: "Expectation failed: (x → 2) == 3 — the comment", isFailure: true))
  }

  func testTwoIssuesInEitherOrderAreOneOutcome() throws {
    let location = id + "/File.swift:3:4"
    func iteration(_ messages: [String]) -> [String] {
      [TestEvent.testStarted(testID: location).line]
        + messages.map { TestEvent.issueRecorded(testID: location, message: $0, isFailure: true).line }
        + [TestEvent.testEnded(testID: location).line]
    }
    let (_, records, _) = try poll(iteration(["b second", "a first"]) + iteration(["a first", "b second", "a first"]))
    XCTAssertEqual(records.map(\.outcome), Array(repeating: .failed(observation: "a first; b second"), count: 2))
  }

  func testValuesThatChangeEveryIterationFoldSoEqualFailuresGroupAndAnExampleIsKept() throws {
    let location = id + "/File.swift:3:4"
    let messages = [
      #"Expectation failed: (id → "B4000578-8CB1-469B-8E23-504EDB6B0577") == "x""#,
      #"Expectation failed: (id → "0C2F1D3E-7A55-4B1B-9D2E-11AA22BB33CC") == "x""#,
    ]
    let lines = messages.flatMap {
      [
        TestEvent.testStarted(testID: location).line,
        TestEvent.issueRecorded(testID: location, message: $0, isFailure: true).line,
        TestEvent.testEnded(testID: location).line,
      ]
    }
    let (_, records, _) = try poll(lines)
    XCTAssertEqual(Set(records.map(\.outcome)), [.failed(observation: #"Expectation failed: (id → "<uuid>") == "x""#)])
    XCTAssertEqual(records.map(\.example), messages)
    XCTAssertEqual(
      FailureText.normalize("port 54321 token dGhpcyBpcyBhIHRva2VuMTIz== hash 9f86d081884c7d65 r → 0.7342519"),
      "port <n> token <token> hash <hex> r → <n>")
    // WebSocket accept keys as FlyingFox's failing test shows them: with and without digits, one
    // holding `0x9`; a long identifier of both cases is no token.
    for key in ["CsPh5mO4D5YCsnLuLNUxq6Mb5JE=", "IHfpvGmxE/vsaknQZLeCPawqzQY=", "/C6nhvftacjOwgFQBl0x9fssLig="] {
      XCTAssertEqual(
        FailureText.normalize("(makeSecWebSocketAcceptValue(for: key) → \"\(key)\")"),
        "(makeSecWebSocketAcceptValue(for: key) → \"<token>\")", key)
    }
    // What stays: short numbers, words, and a hexadecimal-looking word without digits.
    XCTAssertEqual(FailureText.normalize("count → 3 == 1024, deadbeef"), "count → 3 == 1024, deadbeef")
  }

  // Skipped iterations, and no iteration counted twice.

  func testASkippedTestIsASkippedOutcomeWithItsReason() throws {
    let line =
      #"{"kind":"event","version":0,"payload":{"kind":"testSkipped","testID":"Module.Suite/yield()/F.swift:1:1","#
      + #""messages":[{"symbol":"skip","text":"Test yield() skipped: \"not today\""}]}}"#
    let (completed, records, _) = try poll([line + "\n"])
    XCTAssertEqual(completed, 1)
    XCTAssertEqual(records.map(\.outcome), [.skipped(reason: "not today")])
  }

  func testForgedOrRepeatedEndsNeverCountMoreIterationsThanAsked() throws {
    let location = id + "/File.swift:3:4"
    let pair = [TestEvent.testStarted(testID: location).line, TestEvent.testEnded(testID: location).line]
    let lines = pair + [TestEvent.testEnded(testID: location).line] + Array(repeating: pair, count: 5).flatMap { $0 }
    let feed = try TestEventFeed(testID: id, firstIndex: 0, iterations: 4)
    let bytes = Array(lines.joined().utf8)
    XCTAssertEqual(write(feed.descriptor, bytes, bytes.count), bytes.count)
    let (completed, records) = feed.poll()
    XCTAssertEqual(completed, 4)
    XCTAssertEqual(records.count, 0)
    // The end with no start, and the two iterations past the four asked.
    XCTAssertEqual(feed.ignoredEvents, 3)
  }

  // What a test binary lists.

  /// An event names its test by the test's ID or that ID extended by `/` parts (Swift Testing's
  /// source location): one rule, for one test and for a pass's many.
  func testAnEventNamesItsTestByWholeSlashSeparatedParts() {
    let id = "M.S/f()/F.swift:3:4"
    XCTAssertEqual(TestEvent.testIDs(namedBy: id).map(String.init), [id, "M.S/f()", "M.S"])
    XCTAssertTrue(TestEvent.testID(id, belongsTo: "M.S/f()"))
    XCTAssertFalse(TestEvent.testID(id, belongsTo: "M.S/f"))
    XCTAssertFalse(TestEvent.testID("M.S/f()", belongsTo: "M.S/f()/F.swift:3:4"))
  }

  func testEveryListedTestIsKeptAtFileScopeToo() {
    let swiftTesting = "P.Suite/inSuite()\nP.fileScope()\nP.param(x:)\n"
    XCTAssertEqual(TestPackage.testIDs(inListing: swiftTesting), ["P.Suite/inSuite()", "P.fileScope()", "P.param(x:)"])
    let xctest = "Listing 2 tests in debug.xctest:\n\nP.XT/testA\nP.XT/testB\n"
    XCTAssertEqual(TestPackage.testIDs(inListing: xctest), ["P.XT/testA", "P.XT/testB"])
    let atFileScope = PackageTest(id: "P.param(x:)", framework: .swiftTesting)
    XCTAssertEqual([atFileScope.suite, atFileScope.function], ["P", "param(x:)"])
    let inSuite = PackageTest(id: "P.Suite/inSuite()", framework: .swiftTesting)
    XCTAssertEqual([inSuite.suite, inSuite.function], ["P.Suite", "inSuite()"])
  }

  func testABuildFailureShowsTheCompilersLocatedErrorsFirst() {
    let output = """
      [3/9] Compiling M Macro.swift
      /p/Sources/M/A.swift:3:9: error: cannot find 'x' in scope
      macro expansion #Foo:1:2: error: fragment
      error: fatalError
      /p/Sources/M/A.swift:3:9: error: cannot find 'x' in scope
      """
    XCTAssertEqual(
      TestPackage.compilerErrors(in: output), ["/p/Sources/M/A.swift:3:9: error: cannot find 'x' in scope"])
  }

  func testALineMattersByItsKindAloneWhereverTheWordAppears() {
    let kinds = ["testEnded", "probe"].map { Array($0.utf8) }
    func matters(_ line: String) -> Bool { LineReader.line(Array(line.utf8)[...], hasKindAmong: kinds) }
    XCTAssertTrue(matters(#"{"kind":"event","payload":{"kind":"testEnded","testID":"A/b()"}}"#))
    XCTAssertTrue(matters(#"{"kind" : "probe", "payload": {}}"#))
    // The word as a value of another key, inside a message, or as another kind does not count.
    XCTAssertFalse(matters(#"{"kind":"event","payload":{"kind":"valueAttached","text":"testEnded"}}"#))
    XCTAssertFalse(matters(#"{"kind":"event","payload":{"text":"\"kind\":\"testEnded\""}}"#))
    XCTAssertFalse(matters(#"{"kind":"event","payload":{"kind":"testEndedLater"}}"#))
    XCTAssertFalse(matters(#"{"kind""#))
  }

  /// A test's time is the process's own (its events' `instant.absolute`), not when the
  /// supervisor read them: both ends read at once, a run of 2.5 ms still took 2.5 ms.
  func testATestsTimeIsWhatItsOwnEventsSayNotWhenTheyWereRead() throws {
    let swiftTesting =
      #"{"kind":"event","version":0,"payload":{"kind":"testEnded","testID":"M.t()/F.swift:1:1","#
      + #""instant":{"absolute":1234.5,"since1970":1764250000.1},"messages":[]}}"#
    XCTAssertEqual(TestEvent.parse(Array(swiftTesting.utf8)), .testEnded(testID: "M.t()/F.swift:1:1", at: 1234.5))
    let written = TestEvent.testStarted(testID: id, at: 100.25)
    XCTAssertEqual(TestEvent.parse(Array(written.line.utf8)), written)

    let feed = try TestEventFeed(testID: id, firstIndex: 0, iterations: 2)
    let suite = try SuiteEventFeed(testIDs: [id])
    let lines = [
      TestEvent.runStarted.line, TestEvent.testStarted(testID: id, at: 100).line,
      TestEvent.testEnded(testID: id, at: 100.0025).line,
    ]
    let bytes = Array(lines.joined().utf8)
    for descriptor in [feed.descriptor, suite.descriptor] {
      XCTAssertEqual(write(descriptor, bytes, bytes.count), bytes.count)
    }
    _ = feed.poll()
    _ = suite.poll()
    XCTAssertEqual(feed.times.seconds, 0.0025, accuracy: 1e-9)
    XCTAssertEqual(suite.drain().first?.duration.seconds ?? 0, 0.0025, accuracy: 1e-9)
  }
}

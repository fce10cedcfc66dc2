import Foundation

/// One line of a test process's event stream: the events the lab needs from Swift Testing's JSON
/// event stream (version 0), which the preloaded harness also writes for XCTest.
///
/// With repetitions the stream has no iteration records: the k-th `testStarted`…`testEnded` pair
/// of a test is its k-th iteration, failed when an issue that is not a known issue was recorded
/// between them.
package enum TestEvent: Equatable, Sendable {
  /// The process got as far as running tests.
  case runStarted
  /// `at`: when, in seconds on the writing process's own monotonic clock (the event's
  /// `instant.absolute`), so that a test's time is the process's, not when the supervisor
  /// happened to read its events; nil where the writer gave none.
  case testStarted(testID: String, at: Double? = nil)
  /// An issue; `isFailure` is false for a known issue (`withKnownIssue`) or a warning.
  /// `location` is where it was recorded (the assertion's file and line), when the framework
  /// said: the line a person opens, which need not lie in the test that was running.
  case issueRecorded(testID: String?, message: String, isFailure: Bool, location: SourceLocation? = nil)
  /// `issues`: from the harness, how many issues the framework recorded for the test, counted
  /// in the test's process (XCTest's failure count; Swift Testing's issue events in the test's
  /// context). Fewer read means the test cut the lab's channel: what it said never arrived.
  case testEnded(testID: String, at: Double? = nil, issues: Int? = nil)
  case testSkipped(testID: String, message: String)
  /// What the harness's start-up probe found: whether `check` took effect in this toolchain.
  case probe(check: HarnessProbe.Check, tookEffect: Bool)
  /// Under `fifo` or `seeded`, from the harness: something outside the scheduler (another
  /// thread, a real-time sleep among waiting jobs) decided when a job ran, so a seed does not
  /// replay this process's iterations.
  case scheduleUncontrolled
  /// Under `serial`, from the harness: the test turned the serial executor off (it cleared the
  /// global-enqueue hook) in the iteration under way.
  case executorChanged
  /// On one queue, from the harness: the test blocked the queue's thread in `call` (`usleep`,
  /// `dispatch_semaphore_wait`…). No job can run on the queue while it waits. Where: `stack`,
  /// the return addresses the harness captured (an encoded `Runtime.Backtrace`), which the
  /// supervisor names (``StackSymbols``) outside the test's time; or `frame`, named already.
  case threadBlocked(call: String, frame: String?, stack: String? = nil)
  /// From the harness, once, before any test: the images its stacks' addresses lie in (an
  /// encoded `Runtime.ImageMap`) and the test binary's file name among them.
  case stackImages(map: String, program: String)
  /// From the harness, once the process ran every test it was given: how many of the events it
  /// counts (``isCounted``) it wrote. Fewer read than written means the lab lost some.
  case runEnded(eventsWritten: Int)

  /// Whether the run's end counts this event: those the framework or the harness writes for a
  /// test, not the harness's findings about the process.
  package var isCounted: Bool {
    switch self {
    case .runStarted, .testStarted, .issueRecorded, .testEnded, .testSkipped: true
    case .probe, .scheduleUncontrolled, .executorChanged, .threadBlocked, .stackImages, .runEnded: false
    }
  }

  /// The kinds this type reads; a line naming none of them is skipped without parsing.
  static let kinds = [
    "runStarted", "testStarted", "issueRecorded", "testEnded", "testSkipped", "probe", "harness",
  ]

  /// The event on `line`, or nil for a line of another kind (test records, run ends, values).
  package static func parse(_ line: some Collection<UInt8>) -> TestEvent? {
    guard let object = JSONParser.parse(line), let payload = object["payload"] else { return nil }
    if object["kind"]?.string == "probe" {
      guard let check = payload["check"]?.string.flatMap(HarnessProbe.Check.init(rawValue:)),
        let ok = payload["tookEffect"]?.bool
      else { return nil }
      return .probe(check: check, tookEffect: ok)
    }
    if object["kind"]?.string == "harness" {
      switch payload["finding"]?.string {
      case "scheduleUncontrolled": return .scheduleUncontrolled
      case "executorChanged": return .executorChanged
      case "threadBlocked":
        return payload["call"]?.string.map {
          .threadBlocked(call: $0, frame: payload["frame"]?.string, stack: payload["stack"]?.string)
        }
      case "stackImages":
        guard let map = payload["map"]?.string, let program = payload["program"]?.string else { return nil }
        return .stackImages(map: map, program: program)
      case "runEnded": return payload["eventsWritten"]?.int.map { .runEnded(eventsWritten: $0) }
      default: return nil
      }
    }
    guard object["kind"]?.string == "event", let kind = payload["kind"]?.string else { return nil }
    let testID = payload["testID"]?.string
    let at = payload["instant"]?["absolute"]?.number
    // Swift Testing says an issue in several messages: what failed (`Expectation failed: (x →
    // 2) == 3`, `Issue recorded`), then the details (the comment, `Issue.record`'s reason).
    let messages = (payload["messages"]?.array ?? []).compactMap { $0["text"]?.string }
    switch kind {
    case "runStarted":
      return .runStarted
    case "testStarted":
      return testID.map { .testStarted(testID: $0, at: at) }
    case "testEnded":
      return testID.map { .testEnded(testID: $0, at: at, issues: payload[Self.issueCount]?.int) }
    case "testSkipped":
      return testID.map { .testSkipped(testID: $0, message: skipReason(messages.first)) }
    case "issueRecorded":
      let isKnown = payload["issue"]?["isKnown"]?.bool ?? false
      let isWarning = payload["issue"]?["severity"]?.string == "warning"
      let place = payload["issue"]?["sourceLocation"]
      // Swift Testing 6.3 writes `filePath`; earlier versions only `_filePath`.
      let location = (place?["filePath"]?.string ?? place?["_filePath"]?.string).flatMap { path in
        place?["line"]?.int.map { SourceLocation(path: path, line: $0) }
      }
      return .issueRecorded(
        testID: testID, message: messages.isEmpty ? "an issue was recorded" : messages.joined(separator: " — "),
        isFailure: !isKnown && !isWarning, location: location)
    default:
      return nil
    }
  }

  /// The event as one line of the stream, newline included.
  package var line: String {
    let object: JSONValue
    switch self {
    case .runStarted:
      object = Self.event([("kind", .string("runStarted"))])
    case .testStarted(let testID, let at):
      object = Self.event([("kind", .string("testStarted")), ("testID", .string(testID))] + Self.instant(at))
    case .testEnded(let testID, let at, let issues):
      object = Self.event(
        [("kind", .string("testEnded")), ("testID", .string(testID))] + Self.instant(at)
          + (issues.map { [(Self.issueCount, JSONValue.int($0))] } ?? []))
    case .testSkipped(let testID, let message):
      object = Self.event([
        ("kind", .string("testSkipped")), ("testID", .string(testID)),
        ("messages", .array([.object([("text", .string(message))])])),
      ])
    case .issueRecorded(let testID, let message, let isFailure, let location):
      let place: [(String, JSONValue)] =
        location.map { [("sourceLocation", .object([("filePath", .string($0.path)), ("line", .int($0.line))]))] } ?? []
      object = Self.event(
        [
          ("kind", .string("issueRecorded")),
          ("messages", .array([.object([("symbol", .string("fail")), ("text", .string(message))])])),
          ("issue", .object([("isKnown", .bool(!isFailure))] + place)),
        ] + (testID.map { [("testID", JSONValue.string($0))] } ?? []))
    case .probe(let check, let tookEffect):
      object = .object([
        ("kind", .string("probe")), ("version", .int(0)),
        ("payload", .object([("check", .string(check.rawValue)), ("tookEffect", .bool(tookEffect))])),
      ])
    case .scheduleUncontrolled:
      object = Self.finding([("finding", .string("scheduleUncontrolled"))])
    case .executorChanged:
      object = Self.finding([("finding", .string("executorChanged"))])
    case .threadBlocked(let call, let frame, let stack):
      object = Self.finding(
        [("finding", .string("threadBlocked")), ("call", .string(call))]
          + (frame.map { [("frame", JSONValue.string($0))] } ?? [])
          + (stack.map { [("stack", JSONValue.string($0))] } ?? []))
    case .stackImages(let map, let program):
      object = Self.finding([("finding", .string("stackImages")), ("map", .string(map)), ("program", .string(program))])
    case .runEnded(let written):
      object = Self.finding([("finding", .string("runEnded")), ("eventsWritten", .int(written))])
    }
    return object.serialized() + "\n"
  }

  /// The key of a test's end that says how many issues its process recorded for it.
  private static let issueCount = "flakelabIssueCount"

  /// `Test disabledOne() skipped: "not today"` → `not today`; `skipped` when no reason is given
  /// (`Test disabledOne() skipped.`); the harness's own reason (`XCTSkip`) as it is.
  private static func skipReason(_ message: String?) -> String {
    guard let message, !message.isEmpty else { return "skipped" }
    guard let range = message.range(of: " skipped: ") else {
      return message.hasPrefix("Test ") ? "skipped" : message
    }
    var reason = message[range.upperBound...]
    if reason.count >= 2, reason.first == "\"", reason.last == "\"" { reason = reason.dropFirst().dropLast() }
    return String(reason)
  }

  private static func finding(_ payload: [(String, JSONValue)]) -> JSONValue {
    .object([("kind", .string("harness")), ("version", .int(0)), ("payload", .object(payload))])
  }

  /// Swift Testing's way of saying when: `"instant": {"absolute": seconds}`.
  private static func instant(_ at: Double?) -> [(String, JSONValue)] {
    at.map { [("instant", .object([("absolute", .double($0))]))] } ?? []
  }

  /// Now on the clock `at` is read on: `CLOCK_MONOTONIC`, in seconds.
  package static var now: Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  private static func event(_ payload: [(String, JSONValue)]) -> JSONValue {
    .object([("kind", .string("event")), ("version", .int(0)), ("payload", .object(payload))])
  }

  /// The test IDs an event's `testID` may name, longest first: itself, then each part of it
  /// before a `/` (Swift Testing appends the source location to the function's ID). The one
  /// rule for "this event is that test", for one test (``testID(_:belongsTo:)``) and for a
  /// pass's many (``SuiteEventFeed``).
  package static func testIDs(namedBy eventID: String) -> some Sequence<Substring> {
    sequence(first: Substring(eventID)) { id in id.lastIndex(of: "/").map { id[..<$0] } }
  }

  /// Whether an event's `testID` names `id` (``testIDs(namedBy:)``).
  package static func testID(_ eventID: String, belongsTo id: String) -> Bool {
    testIDs(namedBy: eventID).contains { $0 == id }
  }
}

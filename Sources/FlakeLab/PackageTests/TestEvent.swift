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
  case testStarted(testID: String)
  /// An issue; `isFailure` is false for a known issue (`withKnownIssue`) or a warning.
  case issueRecorded(testID: String?, message: String, isFailure: Bool)
  case testEnded(testID: String)
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

  /// The kinds this type reads; a line naming none of them is skipped without parsing.
  static let kinds = [
    "runStarted", "testStarted", "issueRecorded", "testEnded", "testSkipped", "probe", "harness",
  ]

  /// The event on `line`, or nil for a line of another kind (test records, run ends, values).
  package static func parse(_ line: some Collection<UInt8>) -> TestEvent? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
      let payload = object["payload"] as? [String: Any]
    else { return nil }
    if object["kind"] as? String == "probe" {
      guard let check = (payload["check"] as? String).flatMap(HarnessProbe.Check.init(rawValue:)), let ok = payload["tookEffect"] as? Bool
      else { return nil }
      return .probe(check: check, tookEffect: ok)
    }
    if object["kind"] as? String == "harness" {
      switch payload["finding"] as? String {
      case "scheduleUncontrolled": return .scheduleUncontrolled
      case "executorChanged": return .executorChanged
      default: return nil
      }
    }
    guard object["kind"] as? String == "event", let kind = payload["kind"] as? String else {
      return nil
    }
    let testID = payload["testID"] as? String
    // Swift Testing says an issue in several messages: what failed (`Expectation failed: (x →
    // 2) == 3`, `Issue recorded`), then the details (the comment, `Issue.record`'s reason).
    let messages = (payload["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    switch kind {
    case "runStarted":
      return .runStarted
    case "testStarted":
      return testID.map { .testStarted(testID: $0) }
    case "testEnded":
      return testID.map { .testEnded(testID: $0) }
    case "testSkipped":
      return testID.map { .testSkipped(testID: $0, message: skipReason(messages.first)) }
    case "issueRecorded":
      let issue = payload["issue"] as? [String: Any] ?? [:]
      let isKnown = issue["isKnown"] as? Bool ?? false
      let isWarning = issue["severity"] as? String == "warning"
      return .issueRecorded(
        testID: testID, message: messages.isEmpty ? "an issue was recorded" : messages.joined(separator: " — "),
        isFailure: !isKnown && !isWarning)
    default:
      return nil
    }
  }

  /// The event as one line of the stream, newline included.
  package var line: String {
    let object: [String: Any]
    switch self {
    case .runStarted:
      object = event(["kind": "runStarted"])
    case .testStarted(let testID):
      object = event(["kind": "testStarted", "testID": testID])
    case .testEnded(let testID):
      object = event(["kind": "testEnded", "testID": testID])
    case .testSkipped(let testID, let message):
      object = event(["kind": "testSkipped", "testID": testID, "messages": [["text": message]]])
    case .issueRecorded(let testID, let message, let isFailure):
      var payload: [String: Any] = [
        "kind": "issueRecorded", "messages": [["symbol": "fail", "text": message]],
        "issue": ["isKnown": !isFailure],
      ]
      payload["testID"] = testID
      object = event(payload)
    case .probe(let check, let tookEffect):
      object = ["kind": "probe", "version": 0, "payload": ["check": check.rawValue, "tookEffect": tookEffect]]
    case .scheduleUncontrolled:
      object = ["kind": "harness", "version": 0, "payload": ["finding": "scheduleUncontrolled"]]
    case .executorChanged:
      object = ["kind": "harness", "version": 0, "payload": ["finding": "executorChanged"]]
    }
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }

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

  private func event(_ payload: [String: Any]) -> [String: Any] {
    ["kind": "event", "version": 0, "payload": payload]
  }

  /// Whether an event's `testID` is `id` itself or one of its parts (Swift Testing appends the
  /// source location to the function's ID).
  package static func testID(_ eventID: String, belongsTo id: String) -> Bool {
    eventID == id || eventID.hasPrefix(id + "/")
  }
}

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
  case probe(check: String, tookEffect: Bool)

  /// The kinds this type reads; a line naming none of them is skipped without parsing.
  static let kinds = ["runStarted", "testStarted", "issueRecorded", "testEnded", "testSkipped", "probe"]

  /// The event on `line`, or nil for a line of another kind (test records, run ends, values).
  package static func parse(_ line: some Collection<UInt8>) -> TestEvent? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
      let payload = object["payload"] as? [String: Any]
    else { return nil }
    if object["kind"] as? String == "probe" {
      guard let check = payload["check"] as? String, let ok = payload["tookEffect"] as? Bool
      else { return nil }
      return .probe(check: check, tookEffect: ok)
    }
    guard object["kind"] as? String == "event", let kind = payload["kind"] as? String else {
      return nil
    }
    let testID = payload["testID"] as? String
    let messages = (payload["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    switch kind {
    case "runStarted":
      return .runStarted
    case "testStarted":
      return testID.map { .testStarted(testID: $0) }
    case "testEnded":
      return testID.map { .testEnded(testID: $0) }
    case "testSkipped":
      return testID.map { .testSkipped(testID: $0, message: messages.first ?? "skipped") }
    case "issueRecorded":
      let issue = payload["issue"] as? [String: Any] ?? [:]
      let isKnown = issue["isKnown"] as? Bool ?? false
      let isWarning = issue["severity"] as? String == "warning"
      return .issueRecorded(
        testID: testID, message: messages.first ?? "an issue was recorded",
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
      object = ["kind": "probe", "version": 0, "payload": ["check": check, "tookEffect": tookEffect]]
    }
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
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

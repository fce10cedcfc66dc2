import Foundation

/// Failing iterations of a test on one queue in which it blocked the queue's thread, as the
/// harness saw them (``TestEvent/threadBlocked(call:frame:stack:)``), and where it blocked most
/// often; and how many passing iterations blocked it too, which a block that fails the test
/// stands apart from (a wait every iteration makes, passing or failing, decides nothing).
package struct ThreadBlocks: Equatable, Sendable {
  package var failingIterations = 0
  package var passingIterations = 0
  /// Each place, `frame` via `call`, with the failing iterations that blocked there.
  package var places: [String: Int] = [:]

  package init() {}

  /// The place most failing iterations blocked at, the first in order among equals.
  package var commonest: String? {
    places.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
  }

  package mutating func add(_ other: ThreadBlocks) {
    failingIterations += other.failingIterations
    passingIterations += other.passingIterations
    places.merge(other.places, uniquingKeysWith: +)
  }

  /// The file and line of a place the harness named (`UploadTests.testUpload() at
  /// Tests/UploadTests.swift:12, in dispatch_semaphore_wait`), its path from `directory`, the
  /// package's as given, which the harness writes it from (``StackSymbols``): a report names it
  /// as the run did, whatever directory `merge` reads it from. Nil when the harness could name
  /// the function only.
  package static func location(of place: String, from directory: String) -> SourceLocation? {
    guard let at = place.range(of: " at ", options: .backwards) else { return nil }
    let rest = place[at.upperBound...]
    let spot = rest.range(of: ", in ").map { rest[..<$0.lowerBound] } ?? rest
    guard let colon = spot.lastIndex(of: ":"), let line = Int(spot[spot.index(after: colon)...]) else { return nil }
    let path = String(spot[..<colon])
    guard !path.hasPrefix("/") else { return SourceLocation(path: path, line: line) }
    return SourceLocation(path: directory + "/" + path, line: line)
  }

  /// The place the harness names when a run loop on the queue's thread had nothing it could run
  /// and it could not name the function that spun it.
  package static let idleRunLoop = "RunLoop.run"

  /// Whether `place` is a run loop that had nothing to run on the queue's thread.
  package static func isIdleRunLoop(_ place: String) -> Bool {
    place == idleRunLoop || place.hasSuffix(", in " + idleRunLoop)
  }

  /// The frame of a place (`frame, in call`), where the harness could name one.
  package static func frame(of place: String) -> String? {
    place.range(of: ", in ", options: .backwards).map { String(place[..<$0.lowerBound]) }
  }

  /// `frame` via `call`, as reports name the place.
  package static func place(call: String, frame: String?) -> String {
    frame.map { "\($0), in \(call)" } ?? call
  }
}

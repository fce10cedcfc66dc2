/// Failing iterations of a test on one queue in which it blocked the queue's thread, as the
/// harness saw them (``TestEvent/threadBlocked(call:frame:)``), and where it blocked most often.
package struct ThreadBlocks: Equatable, Sendable {
  package var failingIterations = 0
  /// Each place, `frame` via `call`, with the failing iterations that blocked there.
  package var places: [String: Int] = [:]

  package init() {}

  /// The place most failing iterations blocked at, the first in order among equals.
  package var commonest: String? {
    places.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
  }

  package mutating func add(_ other: ThreadBlocks) {
    failingIterations += other.failingIterations
    places.merge(other.places, uniquingKeysWith: +)
  }

  /// `frame` via `call`, as reports name the place.
  package static func place(call: String, frame: String?) -> String {
    frame.map { "\($0), in \(call)" } ?? call
  }
}

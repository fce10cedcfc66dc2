/// How long a test's counted iterations alone took, each from its start to its end by the test
/// process's own clock (its events' instants; where they carry none, as the supervisor read
/// them): what tells a wait the harness cannot see (a
/// spin on a flag, a lock, a wait in C code) from a queue's order, which fails a test as fast as
/// another order passes it (``Diagnostician/unseenWait(_:)``). Per iteration, unlike the
/// processes' time, it holds no start-up, teardown or warm-up.
package struct IterationTimes: Equatable, Sendable {
  package var iterations = 0
  package var seconds = 0.0
  /// The shortest failing iteration: a stall of the machine can lengthen one iteration, never
  /// every one.
  package var fastestFailure: Double?

  package init(iterations: Int = 0, seconds: Double = 0, fastestFailure: Double? = nil) {
    self.iterations = iterations
    self.seconds = seconds
    self.fastestFailure = fastestFailure
  }

  /// The mean iteration's seconds; nil before any.
  package var mean: Double? { iterations > 0 ? seconds / Double(iterations) : nil }

  mutating func record(_ duration: Duration, failed: Bool) {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    iterations += 1
    self.seconds += seconds
    if failed { fastestFailure = min(fastestFailure ?? seconds, seconds) }
  }

  package mutating func add(_ other: IterationTimes) {
    iterations += other.iterations
    seconds += other.seconds
    if let other = other.fastestFailure { fastestFailure = min(fastestFailure ?? other, other) }
  }
}

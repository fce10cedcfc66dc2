/// A crash of a test process with several tests in flight, none of which crashed alone: one of
/// them crashes only sometimes, and no run alone showed which. It is the suite's finding
/// (`flakelab test`), the pass's (`flakelab ci`) or a run's (`flakelab history`), never any one
/// test's, so it counts against none of them. One model, worded here alone: every format says it
/// with ``headline`` and ``meaning``.
package struct CrashBesideOthers: Sendable, Equatable {
  /// The tests in flight, by ID, sorted.
  package let inFlight: [String]
  /// How the process ended, and its last lines, when the run saw it.
  package let how: String?

  package init(inFlight: some Sequence<String>, how: String?) {
    self.inFlight = Array(Set(inFlight)).sorted()
    self.how = how
  }

  /// `the test process crashed with 3 tests in flight, none of which crashed alone`.
  package var headline: String {
    "the test process crashed with \(inFlight.count) test\(inFlight.count == 1 ? "" : "s") in flight, "
      + "none of which crashed alone"
  }

  /// What it is to one of the tests in flight: its diagnosis's summary.
  package static let ofOneTest =
    "the test process crashed while it ran beside other tests, none of which crashed alone"

  /// What it means for the tests in flight.
  package static let meaning =
    "one of them crashes only sometimes, and no run alone showed which; it counts against none of them"

  /// What to do about it.
  package static let advice =
    "the crash's message names the code that crashed; run the tests in flight in smaller groups (--filter) to find "
    + "the one that brings it on"

  /// `headline: meaning. Do: advice.`, for formats with one paragraph to spare.
  package var sentence: String { headline + ": " + Self.meaning + ". Do: " + Self.advice + "." }
}

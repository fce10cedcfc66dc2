/// A crash of the pass's process that none of the tests in flight caused alone, with the tests it
/// made flaky: each passed alone, so one of them crashes only sometimes, and the runs cannot tell
/// which. Reports show it once, not as a flaky test each.
package struct CICrash: Sendable, Equatable {
  /// Every test in flight when the process died.
  package let inFlight: Set<PackageTest>
  /// The process's end and its last lines.
  package let how: String
  /// The flaky tests it was charged to, in the run's order.
  package private(set) var tests: [CITest]

  /// The crashes of `tests`' pass, one per set of tests in flight, in the order first seen.
  static func grouping(_ tests: [CITest]) -> [CICrash] {
    var crashes: [CICrash] = []
    for test in tests where test.isFlakyBesideACrash {
      guard case .crashed(let crash)? = test.attempts.first?.outcome else { continue }
      let inFlight = Set(crash.beside + [test.test])
      if let index = crashes.firstIndex(where: { $0.inFlight == inFlight }) {
        crashes[index].tests.append(test)
      } else {
        crashes.append(CICrash(inFlight: inFlight, how: crash.how, tests: [test]))
      }
    }
    return crashes
  }

  /// `the pass's process crashed with 3 tests in flight, none of which crashed alone: one of them
  /// crashes only sometimes; each passed alone`.
  package var headline: String {
    "the pass's process crashed with \(inFlight.count) tests in flight, none of which crashed alone: one of them crashes "
      + "only sometimes; each passed alone"
  }
}

/// Which tests run again, alone, after the suite's pass: those that failed, crashed or hung,
/// until one passes or `retries` runs are spent. A round retries every test still failing,
/// one after another: a test's retries never run beside another's.
package enum RetryPlan {
  /// The tests of `tests` to retry in the next round, given their attempts so far.
  package static func next(_ tests: [CITest], retries: Int) -> [PackageTest] {
    tests.filter { test in
      guard let first = test.attempts.first, first.failed, test.attempts.count <= retries else { return false }
      return !test.attempts.dropFirst().contains { $0.outcome == .passed }
    }.map(\.test)
  }
}

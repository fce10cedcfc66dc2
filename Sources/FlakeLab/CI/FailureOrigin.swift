/// Another test that a failure recorded while a test ran probably came from: the line the
/// failure names lies in that test's body, and that test ran before it in the same process.
/// XCTest charges an assertion to whichever test runs when it lands, so one made by a task that
/// outlived its test fails the next test (combine-schedulers' `testRunsOnMain` failed
/// `testVoidsThreadHop` that way).
///
/// A reading of the sources is only a hint: a test may call another's method (shared checks), or
/// override one and call `super`, and a lexer can misread a file. So the failure stays with the
/// test that was running, as `swift test` counts it, and the answer says where it probably came
/// from; it moves to the other test only once an experiment shows it: the test that was running
/// passed alone, and the other test, run alone `--retries` times, failed with that failure at
/// that line every time (``shown``), so that the job fails on it as surely as it would have.
package struct FailureOrigin: Sendable, Equatable {
  /// The test whose body holds the failure's line.
  package let test: String
  /// What running ``test`` alone showed: nil while undecided; true when it failed there with the
  /// same failure at the same line every time, so the failure is its; false once it did not.
  package var shown: Bool?

  package init(test: String, shown: Bool? = nil) {
    self.test = test
    self.shown = shown
  }
}

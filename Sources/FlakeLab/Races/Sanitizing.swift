/// `--sanitize`: which tests the lab runs again under the thread sanitizer.
package enum Sanitizing: String, Sendable, CaseIterable {
  /// Each test that failed under global, whatever its diagnosis: where its race is.
  case failures
  /// Those, and every test of the screen's global passes: races that have not failed a test yet.
  case thread
  /// None: no sanitized build.
  case none
}

/// What the sanitized arm took, or why it did not run: every answer that ran it says so.
package struct SanitizerSummary: Sendable, Equatable {
  /// The sanitized build's time; nil where it did not build.
  package var build: Duration?
  /// The sanitized processes' time, wall clock.
  package var runs: Duration = .zero
  package var processes = 0
  /// Races of the sanitized suite passes (`--sanitize thread`) on no test's stack: a test's
  /// background work still running, or the framework's own.
  package var unattributedRaces = 0
  /// Why there are no sanitized runs (the package does not build sanitized, the budget was
  /// spent), in one line.
  package var unavailable: String?

  package init(
    build: Duration? = nil, runs: Duration = .zero, processes: Int = 0, unattributedRaces: Int = 0,
    unavailable: String? = nil
  ) {
    self.build = build
    self.runs = runs
    self.processes = processes
    self.unattributedRaces = unattributedRaces
    self.unavailable = unavailable
  }
}

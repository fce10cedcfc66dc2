/// Why a run fails the command (exit 1), as the values a message needs; the reports render it
/// (``ProblemText``) as a `<failure>` in JUnit, a line on stderr, and an entry of the run's
/// `problems` in JSON.
package enum Problem: Sendable, Equatable {
  /// `--max-failure-rate` or `--min-failure-rate` not shown.
  case gateNotMet(GateShortfall)
  /// A claim `check` judged and a run disproved.
  case claimViolated(Verdict, run: RunKey)
  /// The failure rate rose significantly over the baseline's.
  case roseOverBaseline(BaselineComparison)
  /// `--baseline` has no run to compare this one with.
  case missingFromBaseline(RunKey)
  /// `flakelab test --fail-on-flaky`: a test whose verdict is flaky or failing.
  case testNotStable(test: PackageTest, verdict: TestVerdict, diagnosis: TestDiagnosis?)
  /// A gate was asked of a run in which no iteration counted: none ran (``RunStop`` says why),
  /// or the test turned the executor off in each. Never a gate passed on nothing; a test its
  /// framework skipped is the user's choice, not this.
  case notMeasured(RunKey, stop: RunStop?, executorChanged: Int)
}

/// A gate a run's interval did not show it respects, and what would show it.
package struct GateShortfall: Sendable, Equatable {
  package let gate: FailureRateGate
  package let run: RunKey
  package let estimate: FailureRateEstimate
  /// About how many iterations at the observed rate would pass the gate; nil when none would.
  package let iterationsNeeded: Int?
  /// Under dispersion, the same as replicates of this run's size: the spread between processes
  /// dominates, so more replicates, not longer ones, narrow the interval.
  package let replicatesNeeded: Replicates?

  package struct Replicates: Sendable, Equatable {
    package let count: Int
    package let size: Int
  }
}

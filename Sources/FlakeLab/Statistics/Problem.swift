/// Why a run fails the command (exit 1): each becomes a `<failure>` in JUnit, a line on stderr,
/// and an entry of the run's `problems` in JSON.
package enum Problem: Sendable, Equatable, CustomStringConvertible {
  /// `--max-failure-rate` or `--min-failure-rate` not shown; the message says by how much.
  case gateNotMet(FailureRateGate, message: String)
  /// A claim `check` judged and a run disproved.
  case claimViolated(Verdict, selector: String, executor: String)
  /// The failure rate rose significantly over the baseline's.
  case roseOverBaseline(summary: String)
  /// `--baseline` has no run to compare this one with.
  case missingFromBaseline(selector: String, executor: String)

  package var description: String {
    switch self {
    case .gateNotMet(_, let message): message
    case .claimViolated(let verdict, let selector, let executor):
      "\(selector) under \(executor) \(verdict.claim.rawValue)? violated: \(verdict.reason)"
    case .roseOverBaseline(let summary): summary
    case .missingFromBaseline(let selector, let executor):
      "\(selector) under \(executor): the baseline has no such run, so nothing was compared"
    }
  }
}

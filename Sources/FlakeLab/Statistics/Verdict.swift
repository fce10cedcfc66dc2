import Foundation

/// How a run bears on a ``Claim``: it holds, it is violated, or this run could not show it.
package struct Verdict: Equatable, Sendable {
  package enum Status: String, Sendable {
    case holds
    case violated
    /// A "can" claim that this run did not show: not evidence against it, and said apart from
    /// a violation (a race may need more cores or more iterations than this run had).
    case notShown = "not shown"
  }

  package let claim: Claim
  package let status: Status
  /// One sentence with the evidence, for the verdict table.
  package let reason: String

  /// Judges `claim` on `result`, with its interval.
  package init(judging claim: Claim, on result: RunResult, cores: Int) {
    self.claim = claim
    let tally = result.tally
    let n = tally.ran
    let failures = tally.notPassed
    let interval = result.estimate
    let confidence = interval.confidence
    let level = Formatting.level(confidence)
    // The largest rate that still leaves no sighting in n iterations with probability 1 − C.
    let unseenUpTo = n > 0 ? 1 - pow(1 - confidence, 1 / Double(n)) : 1
    switch claim {
    case .neverFails where failures == 0:
      status = .holds
      reason = "no failure in \(Formatting.count(n)); rate ≤ \(Formatting.percent(interval.high)) at \(level)"
    case .neverFails:
      status = .violated
      reason = "\(Formatting.count(failures)) of \(Formatting.count(n)) did not pass" + Self.example(tally)
    case .alwaysFails where tally.passed == 0 && n > 0:
      status = .holds
      reason = "every one of \(Formatting.count(n)) failed"
    case .alwaysFails:
      status = .violated
      reason = "\(Formatting.count(tally.passed)) of \(Formatting.count(n)) passed"
    case .canFail where failures > 0:
      status = .holds
      reason =
        "\(Formatting.count(failures)) of \(Formatting.count(n)) did not pass; rate ≥ \(Formatting.percent(interval.low)) at \(level)"
    case .canFail:
      status = .notShown
      reason =
        "no failure in \(Formatting.count(n)) on \(cores) cores; a rate above \(Formatting.percent(unseenUpTo)) would have shown with \(level) probability"
    case .canPass where tally.passed > 0:
      status = .holds
      reason = "\(Formatting.count(tally.passed)) of \(Formatting.count(n)) passed"
    case .canPass:
      status = .notShown
      reason =
        "no pass in \(Formatting.count(n)); a pass rate above \(Formatting.percent(unseenUpTo)) would have shown with \(level) probability"
    }
  }

  private static func example(_ tally: Tally) -> String {
    tally.outcomesByFrequency.first.map { ": \(OutcomeText.describe($0.outcome))" } ?? ""
  }
}

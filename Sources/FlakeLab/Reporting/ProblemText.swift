/// A ``Problem`` as the one line every report gives it.
package enum ProblemText {
  package static func describe(_ problem: Problem) -> String {
    switch problem {
    case .gateNotMet(let shortfall): describe(shortfall)
    case .claimViolated(let verdict, let run):
      "\(run) \(verdict.claim.rawValue)? violated: \(verdict.reason)"
    case .roseOverBaseline(let comparison): comparison.summary
    case .missingFromBaseline(let run): "\(run): the baseline has no such run, so nothing was compared"
    case .testNotStable(let test, let verdict, let diagnosis):
      "\(test.id) is \(verdict.rawValue)" + (diagnosis.map { " (\($0.rawValue): \($0.summary))" } ?? "")
    case .notMeasured(let run, let stop, let executorChanged):
      "\(run): no iteration was measured ("
        + (executorChanged > 0
          ? "the executor was off when each of its \(Formatting.count(executorChanged)) iterations ended"
          : stop.map(ReportText.reason) ?? "none ran")
        + "), so no gate is shown to hold"
    }
  }

  private static func describe(_ shortfall: GateShortfall) -> String {
    let estimate = shortfall.estimate
    let (word, limit) =
      switch shortfall.gate.bound {
      case .atMost(let limit): ("at most", limit)
      case .atLeast(let limit): ("at least", limit)
      }
    var message =
      "\(shortfall.run): failure rate \(RateText.withInterval(estimate)) is not shown to be \(word) "
      + "\(Formatting.percent(limit)) at \(Formatting.level(estimate.confidence)) confidence"
    if let variation = RateText.variation(estimate) { message += "; \(variation)" }
    if let needed = shortfall.iterationsNeeded {
      message += "; the observed rate would pass with about \(Formatting.count(needed)) iterations"
      if let replicates = shortfall.replicatesNeeded {
        message += " (\(Formatting.count(replicates.count)) replicates of \(Formatting.count(replicates.size)))"
      }
    }
    return message
  }
}

/// A failure rate with its interval, as every text report shows it: `24.31% [23.48%, 25.16%]`,
/// and for a run with no failures `none [≤ 0.04%]`, which says both that none were seen and how
/// high the rate could still be.
package enum RateText {
  package static func withInterval(_ estimate: FailureRateEstimate) -> String {
    guard estimate.hasRate else { return "no rate: none ran" }
    if estimate.rate == 0 {
      return "none [≤ \(Formatting.percent(estimate.high))]"
    }
    return
      "\(Formatting.percent(estimate.rate)) [\(Formatting.percent(estimate.low)), \(Formatting.percent(estimate.high))]"
  }

  /// `runs varied 18.80%–43.60% (10 replicates of 2,000, dispersion 41)`, for a run whose
  /// replicates differed materially; nil otherwise.
  package static func variation(_ estimate: FailureRateEstimate) -> String? {
    guard estimate.dispersionIsMaterial, let range = estimate.replicateRates,
      let sizes = estimate.replicateSizes, let dispersion = estimate.dispersion
    else { return nil }
    let size =
      sizes.lowerBound == sizes.upperBound
      ? Formatting.count(sizes.lowerBound)
      : "\(Formatting.count(sizes.lowerBound))–\(Formatting.count(sizes.upperBound))"
    return "runs varied \(Formatting.percent(range.lowerBound))–\(Formatting.percent(range.upperBound)) "
      + "(\(estimate.replicatesRun) replicates of \(size), dispersion \(Formatting.dispersion(dispersion)))"
  }
}

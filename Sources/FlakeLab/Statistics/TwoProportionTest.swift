/// Did a test get flakier? The one-sided two-proportion z-test of a new failure rate against a
/// baseline's, with the pooled standard error. Each side's variance is multiplied by its run's
/// dispersion (1 for independent iterations), as the intervals are (``FailureRateEstimate``):
/// two global runs whose replicates spread widely are not evidence of a change by their
/// difference alone.
///
/// ```swift
/// let test = TwoProportionTest(baselineFailures: 10, baselineIterations: 1000,
///                              failures: 30, iterations: 1000)
/// test.pValue  // 0.00012…: flakiness rose
/// ```
package struct TwoProportionTest: Equatable, Sendable {
  package let baselineRate: Double
  package let rate: Double
  /// The z statistic; positive when the new rate is higher.
  package let z: Double
  /// The probability of a rise at least this large if the true rates were equal.
  package let pValue: Double

  package init(
    baselineFailures: Int, baselineIterations: Int, failures: Int, iterations: Int,
    baselineDispersion: Double = 1, dispersion: Double = 1
  ) {
    baselineRate = baselineIterations > 0 ? Double(baselineFailures) / Double(baselineIterations) : 0
    rate = iterations > 0 ? Double(failures) / Double(iterations) : 0
    let pooled =
      Double(baselineFailures + failures) / Double(max(1, baselineIterations + iterations))
    let standardError =
      (pooled * (1 - pooled)
      * (baselineDispersion / Double(max(1, baselineIterations))
        + dispersion / Double(max(1, iterations))))
      .squareRoot()
    if standardError > 0 {
      z = (rate - baselineRate) / standardError
      pValue = 1 - Normal.cdf(z)
    } else {
      // Both runs all-pass or all-fail: no evidence of a change either way.
      z = 0
      pValue = rate > baselineRate ? 0 : 1
    }
  }

  /// Whether the rise is significant at `confidence` (p-value below 1 − confidence).
  package func roseSignificantly(confidence: Double) -> Bool {
    rate > baselineRate && pValue < 1 - confidence
  }
}

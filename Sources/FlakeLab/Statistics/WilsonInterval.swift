/// The Wilson score interval of a failure rate: the range the true rate lies in, at a confidence.
///
/// A failure rate from a finite run is an estimate; 3 failures in 200 iterations says the rate is
/// somewhere between 0.5% and 4.3% (at 95%), not that it is 1.5%. Wilson's interval stays inside
/// [0, 1] and behaves at 0 and at n failures, where the textbook normal interval collapses to a
/// point; it is the usual choice for proportions near the edges, which is where flaky tests live.
///
/// ```swift
/// let interval = WilsonInterval(failures: 3, iterations: 200, confidence: 0.95)
/// interval.low   // 0.00512…
/// interval.high  // 0.04316…
/// ```
package struct WilsonInterval: Equatable, Sendable {
  package let confidence: Double
  package let low: Double
  package let high: Double

  /// The binomial interval: every iteration an independent trial.
  package init(failures: Int, iterations: Int, confidence: Double) {
    self.init(
      failures: failures, iterations: iterations, effectiveIterations: Double(iterations),
      critical: Normal.twoSidedZ(confidence: confidence), confidence: confidence)
  }

  /// The interval of `failures` in `iterations` as if the run held `effectiveIterations`
  /// independent ones, with `critical` in place of the normal z (see ``FailureRateEstimate``).
  init(
    failures: Int, iterations: Int, effectiveIterations n: Double, critical z: Double,
    confidence: Double
  ) {
    self.confidence = confidence
    guard iterations > 0, n > 0 else {
      (low, high) = (0, 1)
      return
    }
    let rate = Double(failures) / Double(iterations)
    let z2 = z * z
    let denominator = 1 + z2 / n
    let center = (rate + z2 / (2 * n)) / denominator
    let halfWidth = z * (rate * (1 - rate) / n + z2 / (4 * n * n)).squareRoot() / denominator
    // Exact at the edges: no failures means the low end is 0, all failures means the high is 1.
    low = failures == 0 ? 0 : max(0, center - halfWidth)
    high = failures == iterations ? 1 : min(1, center + halfWidth)
  }
}

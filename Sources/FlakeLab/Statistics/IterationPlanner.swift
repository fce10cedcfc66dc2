import Foundation

/// How many iterations a question about a flaky test needs (`flakelab plan`).
package enum IterationPlanner {
  /// Iterations after which a flake failing at `rate` has shown at least one failure with
  /// probability `confidence`: the least n with 1 − (1 − rate)ⁿ ≥ confidence. A 1% flake needs
  /// 299 iterations to show itself with 95% probability.
  package static func iterationsToSeeAFailure(rate: Double, confidence: Double) -> Int {
    guard rate < 1 else { return 1 }
    return Int((log(1 - confidence) / log(1 - rate)).rounded(.up))
  }

  /// Failure-free iterations after which the Wilson interval's high end is at most `rate`, i.e.
  /// the fewest iterations that let `--max-failure-rate rate` hold with no failures seen.
  package static func failureFreeIterationsToProve(rate: Double, confidence: Double) -> Int {
    // With no failures the high end is z² / (n + z²); solve z² / (n + z²) ≤ rate for n.
    let z = Normal.twoSidedZ(confidence: confidence)
    return Int((z * z * (1 - rate) / rate).rounded(.up))
  }

  /// The fewest iterations at which a run failing at `observedRate` would bring the interval's
  /// `side` within `limit`, or nil when no number of iterations would (the rate itself is on the
  /// wrong side). Used to say how many iterations a gate that failed for lack of data needs.
  /// With a `dispersion` φ (and the t `critical` value it came with) a run of n iterations
  /// carries the information of n/φ independent ones, so the answer is φ times larger.
  package static func iterationsForInterval(
    toBring side: FailureRateGate.Side, within limit: Double, observedRate: Double,
    confidence: Double, dispersion: Double = 1, critical: Double? = nil
  ) -> Int? {
    let z = critical ?? Normal.twoSidedZ(confidence: confidence)
    func holds(_ n: Int) -> Bool {
      let failures = Int((observedRate * Double(n)).rounded())
      let interval = WilsonInterval(
        failures: failures, iterations: n, effectiveIterations: Double(n), critical: z,
        confidence: confidence)
      return side == .high ? interval.high <= limit : interval.low >= limit
    }
    switch side {
    case .high where observedRate >= limit, .low where observedRate <= limit: return nil
    default: break
    }
    var high = 1
    while !holds(high) {
      guard high < 1 << 40 else { return nil }
      high *= 2
    }
    var low = high / 2
    while low + 1 < high {
      let middle = (low + high) / 2
      if holds(middle) { high = middle } else { low = middle }
    }
    let scaled = (Double(high) * dispersion).rounded(.up)
    return scaled < 1e15 ? Int(scaled) : nil
  }

  /// Iterations on each side at which a one-sided two-proportion test (``TwoProportionTest``)
  /// at `confidence` finds a rise from `baseline` to `rate` with probability `power`: n =
  /// φ (z₁₋α √(2 p̄ q̄) + z_power √(p₀ q₀ + p₁ q₁))² / (p₁ − p₀)², φ the `dispersion`.
  /// Nil when `rate` is no rise. At 95% and a power of 90%, a race failing 22.5% against never
  /// needs 32 iterations a side; 5% against never, 166.
  package static func iterationsToShowRise(
    from baseline: Double, to rate: Double, confidence: Double, power: Double, dispersion: Double = 1
  ) -> Int? {
    guard rate > baseline else { return nil }
    let mean = (baseline + rate) / 2
    let spread =
      Normal.quantile(confidence) * (2 * mean * (1 - mean)).squareRoot()
      + Normal.quantile(power) * (baseline * (1 - baseline) + rate * (1 - rate)).squareRoot()
    return Int((max(1, dispersion) * spread * spread / ((rate - baseline) * (rate - baseline))).rounded(.up))
  }
}

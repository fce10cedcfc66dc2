/// How much more a run's replicates differ than binomial noise allows: Pearson's χ² over the
/// replicates divided by its degrees of freedom, R − 1, and never below 1.
///
/// If every iteration failed independently with one rate p, replicates of nᵢ iterations would
/// spread with variance nᵢp(1−p), and the statistic would be near 1. Under the global executor
/// the rate itself moves from process to process (load, thread placement), and the statistic
/// says by how much the variance is inflated: 40 means the run carries the information of
/// about a fortieth of its iterations. It is floored at 1 because a spread below binomial noise
/// is chance, not evidence that iterations are worth more than independent ones.
///
/// ```swift
/// // 10 replicates of 1,000 iterations failing 120 to 350 times each (DispersionTests):
/// let failures = [150, 180, 200, 220, 250, 300, 350, 120, 160, 270]
/// Dispersion.pearson(failures.map { ReplicateCounts(iterations: 1000, passed: 1000 - $0, failed: $0) })
/// // 30.56: they spread about 31 times more than binomial noise allows
/// ```
package enum Dispersion {
  /// The dispersion of `replicates`, or nil when fewer than two of them ran an iteration
  /// (skipped ones do not count). A run
  /// where every iteration passed, or none did, shows no spread: 1.
  package static func pearson(_ replicates: [ReplicateCounts]) -> Double? {
    let ran = replicates.filter { $0.ran > 0 }
    guard ran.count >= 2 else { return nil }
    let iterations = ran.reduce(0) { $0 + $1.ran }
    let notPassed = ran.reduce(0) { $0 + $1.notPassed }
    let rate = Double(notPassed) / Double(iterations)
    guard rate > 0, rate < 1 else { return 1 }
    let chiSquare = ran.reduce(0.0) { sum, replicate in
      let n = Double(replicate.ran)
      let expected = n * rate
      let deviation = Double(replicate.notPassed) - expected
      return sum + deviation * deviation / (expected * (1 - rate))
    }
    return max(1, chiSquare / Double(ran.count - 1))
  }
}

import Foundation
import Synchronization

/// The standard normal distribution: the two functions the intervals and tests need.
enum Normal {
  /// P(Z ≤ x).
  static func cdf(_ x: Double) -> Double {
    0.5 * erfc(-x / 2.squareRoot())
  }

  /// The x with P(Z ≤ x) = p, for 0 < p < 1, by bisection on ``cdf(_:)`` to full precision.
  static func quantile(_ p: Double) -> Double {
    precondition(p > 0 && p < 1, "a quantile needs 0 < p < 1")
    var low = -40.0
    var high = 40.0
    for _ in 0..<200 {
      let middle = (low + high) / 2
      if cdf(middle) < p { low = middle } else { high = middle }
      if high - low < 1e-14 { break }
    }
    return (low + high) / 2
  }

  /// The z of a two-sided interval at `confidence`: 1.959964 for 0.95. Each confidence's is
  /// worked out once: a report asks it for every test's interval, a hundred bisection steps each.
  static func twoSidedZ(confidence: Double) -> Double {
    if let known = knownZ.withLock({ $0[confidence] }) { return known }
    let z = quantile(1 - (1 - confidence) / 2)
    knownZ.withLock { $0[confidence] = z }
    return z
  }

  private static let knownZ = Mutex<[Double: Double]>([:])
}

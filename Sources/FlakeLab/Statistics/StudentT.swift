import Foundation

/// Student's t distribution: the critical value of an interval whose spread was itself
/// estimated from few numbers, here the dispersion from a handful of replicates.
enum StudentT {
  /// P(|T| ≤ t) for `degreesOfFreedom` ν: 1 − I_{ν/(ν+t²)}(ν/2, 1/2).
  static func twoSidedProbability(_ t: Double, degreesOfFreedom ν: Double) -> Double {
    1 - IncompleteBeta.regularized(x: ν / (ν + t * t), a: ν / 2, b: 0.5)
  }

  /// The t with P(|T| ≤ t) = `confidence`: 2.262157 for 0.95 and 9 degrees of freedom. By
  /// bisection to full precision; the normal z once ν is past what a t table would list.
  static func twoSidedCritical(confidence: Double, degreesOfFreedom ν: Int) -> Double {
    precondition(ν >= 1, "a t quantile needs at least one degree of freedom")
    guard ν < 100_000 else { return Normal.twoSidedZ(confidence: confidence) }
    var low = 0.0
    // With one degree of freedom and C = 0.999999 the critical value is about 318,310.
    var high = 1e7
    for _ in 0..<300 {
      let middle = (low + high) / 2
      if twoSidedProbability(middle, degreesOfFreedom: Double(ν)) < confidence {
        low = middle
      } else {
        high = middle
      }
      if high - low < 1e-12 * max(1, high) { break }
    }
    return (low + high) / 2
  }
}

/// The regularized incomplete beta function I_x(a, b), by its continued fraction (modified
/// Lentz), on the side of x where the fraction converges fast.
enum IncompleteBeta {
  static func regularized(x: Double, a: Double, b: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    let logBeta: Double = lgamma(a) + lgamma(b) - lgamma(a + b)
    let logFront: Double = a * log(x) + b * log(1 - x) - logBeta
    if x < (a + 1) / (a + b + 2) {
      return exp(logFront) * continuedFraction(x: x, a: a, b: b) / a
    }
    return 1 - exp(logFront) * continuedFraction(x: 1 - x, a: b, b: a) / b
  }

  private static func continuedFraction(x: Double, a: Double, b: Double) -> Double {
    let tiny = 1e-300
    var c = 1.0
    var d = 1 - (a + b) * x / (a + 1)
    if abs(d) < tiny { d = tiny }
    d = 1 / d
    var result = d
    for m in 1...10_000 {
      let m = Double(m)
      let even: Double = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
      d = 1 + even * d
      if abs(d) < tiny { d = tiny }
      c = 1 + even / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      result *= d * c
      let odd: Double = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
      d = 1 + odd * d
      if abs(d) < tiny { d = tiny }
      c = 1 + odd / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      let step = d * c
      result *= step
      if abs(step - 1) < 1e-15 { break }
    }
    return result
  }
}

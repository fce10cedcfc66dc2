import Foundation

/// Fisher's exact test of two counts of failures, the margins fixed: exact where the normal
/// approximation of ``TwoProportionTest`` is not, at the few iterations of a polluter's
/// confirmation (1 failure in 4 passes against none in 60 is p = 0.06 here, where the
/// approximation says 0.00005).
package struct FisherExactTest: Equatable, Sendable {
  private let failures: Int
  private let iterations: Int
  private let baselineFailures: Int
  private let baselineIterations: Int

  package init(baselineFailures: Int, baselineIterations: Int, failures: Int, iterations: Int) {
    self.baselineFailures = baselineFailures
    self.baselineIterations = baselineIterations
    self.failures = failures
    self.iterations = iterations
  }

  /// The chance of `failures` or more among `iterations` if both rates were equal.
  package var pValueOfARise: Double {
    min(1, (failures...max(failures, high)).map(probability).reduce(0, +))
  }

  /// The chance of a table at least as unlikely as this one, either way.
  package var twoSidedPValue: Double {
    let observed = probability(failures)
    return min(1, (low...high).map(probability).filter { $0 <= observed * (1 + 1e-9) }.reduce(0, +))
  }

  /// Whether the failures rose significantly above the baseline's at `confidence`.
  package func roseSignificantly(confidence: Double) -> Bool {
    iterations > 0 && baselineIterations > 0
      && Double(failures) / Double(iterations) > Double(baselineFailures) / Double(baselineIterations)
      && pValueOfARise < 1 - confidence
  }

  private var totalFailures: Int { failures + baselineFailures }
  private var total: Int { iterations + baselineIterations }
  /// The fewest and the most failures the first count could hold, the margins fixed.
  private var low: Int { max(0, totalFailures - baselineIterations) }
  private var high: Int { min(iterations, totalFailures) }

  /// The hypergeometric probability that the first count holds `x` of the failures.
  private func probability(_ x: Int) -> Double {
    func logFactorial(_ n: Int) -> Double { lgamma(Double(n) + 1) }
    return exp(
      logFactorial(iterations) + logFactorial(baselineIterations) + logFactorial(totalFailures)
        + logFactorial(total - totalFailures) - logFactorial(total) - logFactorial(x)
        - logFactorial(iterations - x) - logFactorial(totalFailures - x)
        - logFactorial(baselineIterations - totalFailures + x))
  }
}

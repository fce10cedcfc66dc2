import FlakeLab
import Foundation

/// Fisher's exact test, two-sided, of the table [[a, b], [c, d]] (``FisherExactTest``).
func fisherExact(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Double {
  FisherExactTest(baselineFailures: c, baselineIterations: c + d, failures: a, iterations: a + b).twoSidedPValue
}

/// Holm's step-down correction: which of the hypotheses with these p-values are rejected at
/// `alpha` for the family as a whole. A figure that compares many tests at 5% each calls one in
/// twenty "different" by chance; the bench's verdicts must not.
func holmRejects(_ p: [Double], at alpha: Double = 0.05) -> [Bool] {
  var rejected = Array(repeating: false, count: p.count)
  for (rank, index) in p.indices.sorted(by: { p[$0] < p[$1] }).enumerated() {
    guard p[index] <= alpha / Double(p.count - rank) else { break }
    rejected[index] = true
  }
  return rejected
}

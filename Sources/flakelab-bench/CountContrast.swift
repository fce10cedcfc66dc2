import Foundation

/// Fisher's exact test, two-sided, of the table [[a, b], [c, d]]: the chance of a table at least
/// as unlikely as this one, its margins fixed.
func fisherExact(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Double {
  func logFactorial(_ n: Int) -> Double { lgamma(Double(n) + 1) }
  let (row1, column1, total) = (a + b, a + c, a + b + c + d)
  func probability(_ x: Int) -> Double {
    exp(
      logFactorial(row1) + logFactorial(total - row1) + logFactorial(column1) + logFactorial(total - column1)
        - logFactorial(total) - logFactorial(x) - logFactorial(row1 - x) - logFactorial(column1 - x)
        - logFactorial(total - row1 - column1 + x))
  }
  let observed = probability(a)
  let low = max(0, row1 + column1 - total)
  let high = min(row1, column1)
  let p = (low...high).map(probability).filter { $0 <= observed * (1 + 1e-9) }.reduce(0, +)
  return min(1, p)
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

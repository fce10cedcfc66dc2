import Foundation

/// The Wilcoxon–Mann–Whitney rank-sum test: do two sets of figures come from one distribution?
/// Rates under the global executor are far from normal (a process may land at 0.1% or at 24%),
/// so the bench compares ranks, not means.
enum RankSumTest {
  /// U of `a` (how many pairs `a` wins, ties counting a half) and the two-sided p-value: exact
  /// by counting rank arrangements when there are no ties, else the normal approximation with
  /// the tie correction.
  static func test(_ a: [Double], _ b: [Double]) -> (u: Double, p: Double) {
    let (m, n) = (a.count, b.count)
    var u = 0.0
    for x in a {
      for y in b { u += x > y ? 1 : x == y ? 0.5 : 0 }
    }
    let all = (a + b).sorted()
    let hasTies = zip(all, all.dropFirst()).contains { $0 == $1 }
    let extreme = max(u, Double(m * n) - u)
    if !hasTies {
      // ways[k][v]: arrangements of k of the a's among the first positions giving U = v.
      let counts = exactDistribution(m: m, n: n)
      let total = counts.reduce(0, +)
      let tail = counts.enumerated().reduce(0.0) { $0 + (Double($1.offset) >= extreme ? $1.element : 0) }
      return (u, min(1, 2 * tail / total))
    }
    let mean = Double(m * n) / 2
    let groups = Dictionary(grouping: all, by: { $0 }).values.map { Double($0.count) }
    let total = Double(m + n)
    let tieTerm = groups.reduce(0) { $0 + ($1 * $1 * $1 - $1) } / (total * (total - 1))
    let variance = Double(m * n) / 12 * ((total + 1) - tieTerm)
    guard variance > 0 else { return (u, 1) }
    let z = (extreme - mean - 0.5) / variance.squareRoot()
    return (u, min(1, erfc(z / 2.squareRoot())))
  }

  /// How many orderings of m a's and n b's give each U, 0…mn.
  private static func exactDistribution(m: Int, n: Int) -> [Double] {
    // f(i, j) over U: f(i, j) = f(i − 1, j) shifted by j (the last is an a above j b's) + f(i, j − 1).
    var table = Array(repeating: Array(repeating: [Double](), count: n + 1), count: m + 1)
    for i in 0...m {
      for j in 0...n {
        if i == 0 || j == 0 {
          table[i][j] = [1] + Array(repeating: 0, count: i * j)
          continue
        }
        var row = Array(repeating: 0.0, count: i * j + 1)
        for (v, ways) in table[i - 1][j].enumerated() { row[v + j] += ways }
        for (v, ways) in table[i][j - 1].enumerated() { row[v] += ways }
        table[i][j] = row
      }
    }
    return table[m][n]
  }
}

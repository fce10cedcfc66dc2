/// "Did you mean …?" for names typed on the command line.
package enum Suggestion {
  /// `; did you mean 'isLoading'?` when one of `candidates` is a likely typo of `name`, else "".
  /// `prefix` is put before the suggested name (`--` for options).
  package static func didYouMean(
    _ name: String, among candidates: [String], prefix: String = ""
  ) -> String {
    closest(to: name, among: candidates).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
  }

  /// The one of `candidates` that `name` is likely a typo of, or nil.
  package static func closest(to name: String, among candidates: [String]) -> String? {
    let lowered = name.lowercased()
    let scored = candidates.map { ($0, editDistance(lowered, $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, best.0.count / 3) else { return nil }
    return best.0
  }

  /// Levenshtein distance, with adjacent transpositions counted as one edit ("isLoadnig").
  package static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let substitution = a[i - 1] == b[j - 1] ? 0 : 1
        table[i][j] = min(
          table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + substitution)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }
}

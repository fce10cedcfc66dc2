/// Zeller and Hildebrandt's ddmin, one question at a time: a smallest subset of the candidates
/// that still reproduces, asked as ``question`` and answered with ``answer(_:)``, so that a
/// caller whose checks are processes (``PolluterSearch``) can feed it what they came to.
///
/// It tries each of n parts, then each part's complement, and splits finer when none
/// reproduces. The answer is 1-minimal (``isMinimal``: no element can be left out) unless
/// `limit` checks ran out first.
package struct DeltaDebugging<Element> {
  /// The smallest subset found so far (all candidates at first, which reproduce).
  package private(set) var current: [Element]
  /// The checks answered.
  package private(set) var checks = 0
  /// Whether the search ended with ``current`` 1-minimal; false while it runs or when the
  /// limit stopped it.
  package private(set) var isMinimal = false
  private let limit: Int
  private var granularity = 2
  /// This round's subsets to try, each with the granularity that follows it if it reproduces.
  private var round: [(subset: [Element], next: Int)] = []
  private var position = 0
  private var isOver = false

  package init(_ candidates: [Element], limit: Int) {
    current = candidates
    self.limit = limit
    startRound()
  }

  /// The subset to check next; nil when the search is over.
  package var question: [Element]? {
    isOver ? nil : round[position].subset
  }

  /// The answer to ``question``.
  package mutating func answer(_ reproduces: Bool) {
    guard !isOver else { return }
    checks += 1
    if reproduces {
      (current, granularity) = round[position]
      startRound()
    } else if position + 1 < round.count {
      position += 1
      stopIfOutOfChecks()
    } else if granularity >= current.count {
      finish(minimal: true)
    } else {
      granularity = min(current.count, granularity * 2)
      startRound()
    }
  }

  private mutating func startRound() {
    guard current.count >= 2 else { return finish(minimal: true) }
    let size = (current.count + granularity - 1) / granularity
    let parts = stride(from: 0, to: current.count, by: size).map { Array(current[$0..<min($0 + size, current.count)]) }
    let complements =
      parts.count > 2
      ? parts.indices.map { skipped in parts.indices.filter { $0 != skipped }.flatMap { parts[$0] } } : []
    round = parts.map { ($0, 2) } + complements.map { ($0, max(granularity - 1, 2)) }
    position = 0
    stopIfOutOfChecks()
  }

  private mutating func stopIfOutOfChecks() {
    if checks >= limit { finish(minimal: false) }
  }

  private mutating func finish(minimal: Bool) {
    isOver = true
    isMinimal = minimal
  }
}

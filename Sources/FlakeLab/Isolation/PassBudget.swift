/// `--budget` over suite passes: after its first pass, a series starts no pass that, taking as
/// long as its last one, would end past the screen's share of the budget (``TestBudget``: half
/// once a test has failed, more while none has), so a slow executor's passes stop before a fast
/// one's. A series stopped stays stopped; its tests' passes left are cut by the budget. A series
/// no answer needs (the passes alone) is bound from its first pass.
struct PassBudget {
  let budget: TestBudget
  /// Each series the budget stopped.
  private(set) var stopped: [Bool]
  private var lastPass: [Duration]
  /// The series whose first pass the budget may stop too.
  private let boundFromTheirFirstPass: Set<Int>

  init(series: Int, budget: TestBudget, boundFromTheirFirstPass: Set<Int> = []) {
    self.budget = budget
    self.boundFromTheirFirstPass = boundFromTheirFirstPass
    stopped = Array(repeating: false, count: series)
    lastPass = Array(repeating: .zero, count: series)
  }

  /// Whether a test has failed in a pass so far: the screen's share is then its half.
  private(set) var sawAFailure = false

  /// Whether the series' next pass may start at `now`.
  mutating func allows(series: Int, isFirstPass: Bool, now: ContinuousClock.Instant) -> Bool {
    guard budget.limit != nil, !isFirstPass || boundFromTheirFirstPass.contains(series) else { return true }
    if stopped[series] || !budget.screenMayStart(passLasting: lastPass[series], at: now, afterAFailure: sawAFailure) {
      stopped[series] = true
    }
    return !stopped[series]
  }

  var stoppedEverySeries: Bool { stopped.allSatisfy { $0 } }

  /// A pass of `series` took `duration`; `failed`: a test has failed in it or before.
  mutating func passTook(_ duration: Duration, series: Int, failed: Bool) {
    lastPass[series] = duration
    sawAFailure = sawAFailure || failed
  }
}

/// `--budget` over suite passes: after its first pass, an arm starts no pass that, taking as
/// long as its last one, would end past the deadline, so a slow executor's passes stop before a
/// fast one's. An arm stopped stays stopped; its tests' passes left are cut by the budget. An
/// arm no answer needs (the passes alone) is bound from its first pass.
struct PassBudget {
  let deadline: ContinuousClock.Instant?
  /// Each arm the budget stopped.
  private(set) var stopped: [Bool]
  private var lastPass: [Duration]
  /// The arms whose first pass the budget may stop too.
  private let boundFromTheirFirstPass: Set<Int>

  init(arms: Int, deadline: ContinuousClock.Instant?, boundFromTheirFirstPass: Set<Int> = []) {
    self.deadline = deadline
    self.boundFromTheirFirstPass = boundFromTheirFirstPass
    stopped = Array(repeating: false, count: arms)
    lastPass = Array(repeating: .zero, count: arms)
  }

  /// Whether the arm's next pass may start at `now`.
  mutating func allows(arm: Int, isFirstPass: Bool, now: ContinuousClock.Instant) -> Bool {
    guard let deadline, !isFirstPass || boundFromTheirFirstPass.contains(arm) else { return true }
    if stopped[arm] || now + lastPass[arm] > deadline { stopped[arm] = true }
    return !stopped[arm]
  }

  var stoppedEveryArm: Bool { stopped.allSatisfy { $0 } }

  mutating func passTook(_ duration: Duration, arm: Int) {
    lastPass[arm] = duration
  }
}

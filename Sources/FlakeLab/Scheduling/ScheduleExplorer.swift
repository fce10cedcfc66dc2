/// `flakelab explore`: walks the distinct schedules of one iteration depth-first.
///
/// The first schedule always takes the first ready job. Each later one keeps the choices of the
/// previous schedule up to its deepest choice that still had an untried option, takes that
/// option, and the first ready job after it. Every schedule so reached is distinct, and when no
/// choice has an untried option left, every schedule the scheduler can produce has been run.
/// (The number of schedules grows exponentially with the ready jobs; `--max-schedules` bounds it.)
package enum ScheduleExplorer {
  package struct Result: Sendable {
    package let schedules: Int
    /// True when every schedule was explored, false when the bound stopped the walk.
    package let isComplete: Bool
    package let tally: Tally
    /// The path (`replay --schedule`) and outcome of the first failing schedule.
    package let firstFailure: (path: String, outcome: Outcome)?
    /// The path of the first passing schedule.
    package let firstPass: String?
  }

  @MainActor
  package static func explore(_ variant: Variant, index: Int = 0, maxSchedules: Int) async -> Result {
    var tally = Tally()
    var path: [Int] = []
    var count = 0
    var firstFailure: (path: String, outcome: Outcome)?
    var firstPass: String?
    while true {
      let (outcome, schedule) = await runIteration(
        of: variant, index: index, on: FixedScheduleExecutor(policy: .directed(path)))
      count += 1
      tally.record(outcome, count: 1)
      let choices = schedule?.choices ?? ScheduleChoices()
      if outcome == .passed {
        if firstPass == nil { firstPass = choices.path }
      } else if firstFailure == nil {
        firstFailure = (choices.path, outcome)
      }
      guard let next = nextPath(after: choices) else {
        return Result(
          schedules: count, isComplete: true, tally: tally, firstFailure: firstFailure,
          firstPass: firstPass)
      }
      guard count < maxSchedules else {
        return Result(
          schedules: count, isComplete: false, tally: tally, firstFailure: firstFailure,
          firstPass: firstPass)
      }
      path = next
    }
  }

  /// The next path depth-first after a schedule that made `choices`, or nil when none is left.
  static func nextPath(after choices: ScheduleChoices) -> [Int]? {
    let picks = choices.picks
    guard let deepest = picks.indices.last(where: { picks[$0] + 1 < choices.options[$0] }) else {
      return nil
    }
    return Array(picks[..<deepest]) + [picks[deepest] + 1]
  }
}

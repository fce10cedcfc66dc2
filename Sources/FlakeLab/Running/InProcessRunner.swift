/// Runs a plan's iterations in this process, one run after another, on the main actor.
///
/// The simplest runner, for tests of scenarios and executors: a trap or hang in a scenario takes
/// this process down with it, so the command line uses ``Supervisor`` instead.
package enum InProcessRunner {
  @MainActor
  package static func run(_ run: RunPlan.Run) async -> RunResult {
    var tally = Tally()
    let clock = ContinuousClock()
    let start = clock.now
    await runIterations(of: run.variant, on: run.executor, indices: run.indices, into: &tally)
    let elapsed = start.duration(to: clock.now)
    return RunResult(
      run.key, tally: tally, seconds: elapsed.seconds,
      iterationsAreIndependent: run.executor.iterationsAreIndependent)
  }
}

/// Runs a plan's iterations in this process, one run after another, on the main actor.
///
/// The simplest runner, for tests and benchmarks of the worker loop itself: a trap or hang in a
/// scenario takes this process down with it.
public enum InProcessRunner {
  @MainActor
  public static func run(_ run: RunPlan.Run) async -> RunResult {
    var tally = Tally()
    let clock = ContinuousClock()
    let start = clock.now
    await runIterations(of: run.variant, on: run.executor, indices: run.indices, into: &tally)
    let elapsed = start.duration(to: clock.now)
    return RunResult(
      scenario: run.scenario.name, variant: run.variant.name, executor: run.executor.name,
      tally: tally, seconds: elapsed.seconds)
  }
}

extension Duration {
  /// The duration in seconds, as a floating-point number for reports.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}

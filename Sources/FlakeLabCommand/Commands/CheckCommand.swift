import FlakeLab
import Foundation

/// `flakelab check`: runs every declared claim and judges it, the lab's own CI gate.
struct CheckCommand: Command {
  static let name = "check"
  static let abstract = "Check each variant's declared claims (never fails, can fail, …) statistically."
  static let usage = "check [<selector>...] [--iterations N] [options]"
  static let discussion = """
    Every variant declares, per executor, what its source claims or the lab demonstrates: "never
    fails", "always fails", "can fail" or "can pass". check runs each declared pair and prints a
    verdict: holds, violated (exit 1), or not shown, when a "can" claim did not show in this run;
    a race may need more cores or iterations than this machine gave it. Variants that sleep on the
    wall clock run at most \(realTimeIterationCap) iterations. With no selector, every scenario
    that '\(Program.name) list' shows is checked.
    """
  /// A claim is judged on its whole run, by its verdict: no shards, gates or baseline.
  static let options: [OptionSpec] = {
    let left = Set(([RunOptions.Options.shard.spec] + FailureRateGate.specs).map(\.name))
    return MeasurementOptions.specs.filter { !left.contains($0.name) }
  }()
  static let realTimeIterationCap = 20

  let measurementOptions: MeasurementOptions
  /// Every executor of the catalog, for this run's seed: claims may name any of them.
  let executors: [any IterationExecutor]

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    let variants =
      arguments.positionals.isEmpty
      ? catalog.listed(includingDiagnostics: false).flatMap { scenario in
        scenario.variants.map { (scenario, $0) }
      }
      : try UsageError.mapping { () throws(ScenarioCatalog.LookupError) in
        try catalog.resolve(arguments.positionals)
      }
    let measurementOptions = try MeasurementOptions(arguments, variants: variants)
    self.measurementOptions = measurementOptions
    executors = catalog.executors.map { $0.forRun(seed: measurementOptions.seed) }
  }

  func run() async throws -> ExitStatus {
    var runs: [RunPlan.Run] = []
    for (scenario, variant) in measurementOptions.variants {
      for executor in executors where variant.claims[executor.id] != nil {
        // Sleeps cost real time except under the scheduler, whose time is virtual.
        let iterations =
          variant.realTimeWait == nil || executor.needsDeterministicScheduler
          ? measurementOptions.iterations : min(measurementOptions.iterations, Self.realTimeIterationCap)
        runs.append(
          RunPlan.Run(
            scenario: scenario, variant: variant, executor: executor,
            indices: measurementOptions.shard?.indices(of: iterations) ?? 0..<iterations,
            seed: measurementOptions.seed))
      }
    }
    guard !runs.isEmpty else {
      throw UsageError("no claims are declared for the selected variants")
    }
    let cores = MachineInfo.current.cores
    return try measurementOptions.measure(
      RunPlan(runs: runs),
      judge: { result, run in
        guard let claim = run.variant.claims[run.executor.id] else { return }
        let verdict = Verdict(judging: claim, on: result, cores: cores)
        result.verdict = verdict
        if verdict.status == .violated {
          result.problems.append(
            .claimViolated(verdict, run: result.key))
        }
      }, text: CheckText.render)
  }
}

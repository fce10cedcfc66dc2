import FlakeLab

/// `flakelab run`: runs variants many times under one executor and reports how often and how
/// they failed.
struct RunCommand: Command {
  static let name = "run"
  static let abstract = "Run scenarios many times and report how often, and how, they fail."
  static let usage = "run <selector>... [--iterations N] [--executor NAME] [options]"
  static let discussion = """
    A selector is a scenario (all its variants) or scenario.variant; see '\(Program.name) list'.
    Rates under the global executor depend on the machine's cores and load.
    """
  static let executor = ExecutorChoice.one(
    "Executor, as '\(Program.name) list' shows them", shownDefault: ExecutorID.global.name)
  static let options = [executor.spec] + MeasurementOptions.specs

  let measurementOptions: MeasurementOptions
  let executor: any IterationExecutor

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    measurementOptions = try MeasurementOptions(arguments, command: Self.name, catalog: catalog)
    executor = try ExecutorChoice.parse(
      arguments, one: Self.executor, list: nil, command: Self.name, in: catalog, seed: measurementOptions.seed,
      defaults: [.global])[0]
  }

  func run() async throws -> ExitStatus {
    let plan = RunPlan(
      variants: measurementOptions.variants, executors: [executor], iterations: measurementOptions.iterations,
      shard: measurementOptions.shard, seed: measurementOptions.seed)
    return try measurementOptions.measure(plan, text: ReportText.render)
  }
}

import FlakeLab

/// `flakelab compare`: the same variants under several executors, side by side.
struct CompareCommand: Command {
  static let name = "compare"
  static let abstract = "Compare failure rates of scenarios under several executors."
  static let usage = "compare <selector>... [--executors LIST] [--iterations N] [options]"
  static let discussion = """
    One row per variant, one column per executor. Rates under the global executor depend on the
    machine's cores and load.
    """
  static let executors = ExecutorChoice.list(
    "Comma-separated executors, as '\(Program.name) list' shows them", defaults: ExecutorCatalog.comparedByDefault)
  static let options = [executors.spec] + MeasurementOptions.specs

  let measurementOptions: MeasurementOptions
  let executors: [any IterationExecutor]

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    measurementOptions = try MeasurementOptions(arguments, command: Self.name, catalog: catalog)
    executors = try ExecutorChoice.parse(
      arguments, one: nil, list: Self.executors, command: Self.name, in: catalog, seed: measurementOptions.seed,
      defaults: ExecutorCatalog.comparedByDefault)
  }

  func run() async throws -> ExitStatus {
    let plan = RunPlan(
      variants: measurementOptions.variants, executors: executors, iterations: measurementOptions.iterations,
      shard: measurementOptions.shard, seed: measurementOptions.seed)
    return try measurementOptions.measure(plan) {
      ComparisonText.render($0, executors: executors.map(\.id))
    }
  }
}

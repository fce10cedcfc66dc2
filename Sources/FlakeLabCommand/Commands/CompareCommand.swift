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
  static let options: [OptionSpec] =
    [
      .value(
        "executors", "LIST",
        "Comma-separated executors, as '\(Program.name) list' shows them (default: \(ExecutorCatalog.comparedByDefault.map(\.name).joined(separator: ",")))."
      )
    ] + MeasurementOptions.specs

  let measurement: MeasurementOptions
  let executors: [any IterationExecutor]

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    measurement = try MeasurementOptions(arguments, command: Self.name, catalog: catalog)
    let names =
      arguments.value("executors").map {
        $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      } ?? ExecutorCatalog.comparedByDefault.map(\.name)
    let seed = measurement.seed
    var executors: [any IterationExecutor] = []
    for name in names {
      let executor = try UsageError.mapping { () throws(ScenarioCatalog.LookupError) in
        try catalog.executor(named: name, seed: seed)
      }
      if !executors.contains(where: { $0.name == executor.name }) { executors.append(executor) }
    }
    self.executors = executors
  }

  func run() async throws -> ExitStatus {
    let plan = RunPlan(
      variants: measurement.variants, executors: executors, iterations: measurement.iterations,
      shard: measurement.shard, seed: measurement.seed)
    return try measurement.measure(plan) {
      ComparisonReport.render($0, executors: executors.map(\.name))
    }
  }
}

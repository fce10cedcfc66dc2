import FlakeLab
import Foundation

/// The options `run`, `compare` and `check` share (``RunOptions``), with the scenarios chosen and
/// the library's measurement they set up.
struct MeasurementOptions {
  static let specs = RunOptions.specs(defaultTimeout: defaultTimeout, iterations: RunOptions.Options.iterations)

  /// A scenario's iteration takes microseconds; ten seconds without one finishing is a hang.
  static let defaultTimeout: Duration = .seconds(10)

  let variants: [(Scenario, Variant)]
  let iterations: Int
  /// The library's measurement these options set up.
  let measurement: RateMeasurement
  let output: OutputStage
  let progress: ProgressDisplay?

  var shard: Shard? { measurement.shard }
  var seed: UInt64 { measurement.seed }

  init(
    _ arguments: ParsedArguments, command: String, catalog: ScenarioCatalog,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(UsageError) {
    guard !arguments.positionals.isEmpty else {
      throw UsageError(
        "\(command) needs at least one scenario or scenario.variant (see '\(Program.name) list')")
    }
    let variants = try UsageError.mapping { () throws(ScenarioCatalog.LookupError) in
      try catalog.resolve(arguments.positionals)
    }
    try self.init(arguments, variants: variants, environment: environment)
  }

  /// The options with the variants already chosen (`check` chooses them by their claims).
  init(
    _ arguments: ParsedArguments, variants: [(Scenario, Variant)],
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(UsageError) {
    self.variants = variants
    let given = try RunOptions(
      arguments, defaultTimeout: Self.defaultTimeout, iterations: RunOptions.Options.iterations,
      environment: environment)
    iterations = given.iterations
    var measurement = RateMeasurement(
      timeout: given.timeout, seed: given.seed, workerExecutable: LabExecutables.worker, program: Program.name)
    measurement.jobs = given.jobs
    measurement.replicates = given.replicates
    measurement.shard = given.shard
    measurement.confidence = given.confidence
    measurement.gates = given.gates
    measurement.baseline = given.baseline
    self.measurement = measurement
    output = given.output
    progress = given.progress
  }

  /// Measures `plan` (``RateMeasurement/run(_:judge:onProgress:)``) and finishes with
  /// the shared tail: problems, the report, the file, the exit status.
  @MainActor
  func measure(
    _ plan: RunPlan, judge: (inout RunResult, RunPlan.Run) -> Void = { _, _ in },
    text: @escaping (Report) -> String
  ) throws -> ExitStatus {
    let report = try measurement.run(plan, judge: judge) { progress?.show(ProgressLine.render($0)) }
    progress?.clear()
    return output.finish(CommandOutput(report, baseline: measurement.baseline, text: text))
  }
}

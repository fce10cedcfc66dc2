import FlakeLab
import Foundation

/// The options `run` and `compare` share: what to run, how many times, in how many workers,
/// how to report, and the gates a CI job sets.
struct MeasurementOptions {
  static let specs = specs(defaultTimeout: defaultTimeout, iterations: Options.iterations)

  /// A scenario's iteration takes microseconds; ten seconds without one finishing is a hang.
  static let defaultTimeout: Duration = .seconds(10)

  /// The options, each declared once: parsing, help and defaults derive from these.
  enum Options {
    static let iterations = Option(
      "iterations", "N", "Iterations per variant and executor", default: 1000, parse: ValueParsers.positiveCount)
    static func timeout(default defaultTimeout: Duration) -> Option<Duration> {
      Option(
        "timeout", "DURATION", "Per-iteration limit, e.g. 500ms, 2s, 1m; past it the iteration is timed out",
        default: defaultTimeout, parse: ValueParsers.duration)
    }
    static let jobs = Option(
      "jobs", "N",
      "Worker processes at once, 1 to 256; more workers load the machine, which changes how the global executor behaves",
      default: 1, parse: ValueParsers.jobs)
    static let replicates = Option<Int>.optional(
      "replicates", "R",
      "Worker processes each run is measured in; global rates move between processes, and the spread of the replicates widens the interval",
      shownDefault: "\(RateMeasurement.defaultReplicates) under global, one per job under serial, fifo and seeded",
      parse: ValueParsers.replicates)
    static let shard = Option<Shard>.optional(
      "shard", "INDEX/COUNT",
      "Run only shard INDEX (0-based) of COUNT; also read from TEST_SHARD_INDEX/TEST_TOTAL_SHARDS",
      parse: ValueParsers.shard)
    static let seed = Option<UInt64>.optional(
      "seed", "S", "Seed of the seeded executor's schedules",
      shownDefault: "drawn at random and printed in the report", parse: ValueParsers.seed)
    static let confidence = Option(
      "confidence", "C", "Confidence level of every interval and test, e.g. 0.95 or 99%",
      default: FailureRateEstimate.defaultConfidence, parse: ValueParsers.confidence)
  }

  /// The options, with `defaultTimeout` in `--timeout`'s help and the command's own
  /// `--iterations` (what an iteration is, and its default, differ for `test`).
  static func specs(defaultTimeout: Duration, iterations: Option<Int>) -> [OptionSpec] {
    let run: [OptionSpec] = [
      iterations.spec, Options.timeout(default: defaultTimeout).spec, Options.jobs.spec,
      Options.replicates.spec, Options.shard.spec, Options.seed.spec,
    ]
    let statistics: [OptionSpec] = [Options.confidence.spec]
    return run + [Renderings.reportOption.spec, OutputStage.output.spec] + statistics + FailureRateGate.specs + [ProgressDisplay.noProgress.spec]
  }

  let variants: [(Scenario, Variant)]
  let iterations: Int
  /// The library's measurement these options set up (a command may add its own settings).
  var measurement: RateMeasurement
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
    defaultTimeout: Duration = Self.defaultTimeout, iterations iterationsOption: Option<Int> = Options.iterations,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(UsageError) {
    self.variants = variants
    iterations = try arguments[iterationsOption]
    var measurement = RateMeasurement(
      timeout: try arguments[Options.timeout(default: defaultTimeout)],
      seed: try arguments[Options.seed] ?? UInt64.random(in: 0...UInt64.max),
      workerExecutable: LabExecutables.worker, program: Program.name)
    measurement.jobs = try arguments[Options.jobs]
    measurement.replicates = try arguments[Options.replicates]
    // --shard wins; Bazel's variables are read (and its status file touched) only without it,
    // and only by a command that shards (check runs every claim whole).
    if arguments.declares(Options.shard) {
      if let given = try arguments[Options.shard] {
        measurement.shard = given
      } else {
        measurement.shard = try Self.bazelShard(from: environment)
      }
    }
    output = try OutputStage(arguments, formats: Renderings.reportOption, environment: environment)
    measurement.confidence = try arguments[Options.confidence]
    measurement.gates = try FailureRateGate.parse(arguments)
    measurement.baseline = try arguments[FailureRateGate.baseline]
    self.measurement = measurement
    progress = ProgressDisplay.wanted(arguments, environment: environment)
  }

  /// Bazel's sharding variables, when a test runner sets them.
  private static func bazelShard(from environment: [String: String]) throws(UsageError) -> Shard? {
    guard let index = environment["TEST_SHARD_INDEX"], let count = environment["TEST_TOTAL_SHARDS"]
    else { return nil }
    // Bazel asks sharding-aware tests to touch this file.
    if let statusFile = environment["TEST_SHARD_STATUS_FILE"] {
      _ = FileManager.default.createFile(atPath: statusFile, contents: nil)
    }
    return try ValueParsers.shard("\(index)/\(count)", option: "TEST_SHARD_INDEX/TEST_TOTAL_SHARDS")
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

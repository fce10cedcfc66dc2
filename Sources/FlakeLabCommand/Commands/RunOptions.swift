import FlakeLab
import Foundation

/// The options every command that measures shares (`run`, `compare`, `check`, `test`): how many
/// iterations, the timeout, the workers, the seed, the statistics, the gates and the report.
/// Each is declared once here; a command turns what was given into its own settings.
struct RunOptions {
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
      shownDefault: "\(SupervisedRun.defaultReplicates) under global, one per job under serial, fifo and seeded",
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
    return run + [Renderings.reportOption.spec, OutputStage.output.spec] + statistics + FailureRateGate.specs + [
      ProgressDisplay.noProgress.spec
    ]
  }

  let iterations: Int
  let seed: UInt64
  let timeout: Duration
  let jobs: Int
  /// `--replicates`, or nil for each run's default.
  let replicates: Int?
  let shard: Shard?
  let confidence: Double
  let gates: [FailureRateGate]
  let baseline: Report?
  let output: OutputStage
  let progress: ProgressDisplay?

  init(
    _ arguments: ParsedArguments, defaultTimeout: Duration, iterations iterationsOption: Option<Int>,
    environment: [String: String]
  ) throws(UsageError) {
    iterations = try arguments[iterationsOption]
    timeout = try arguments[Options.timeout(default: defaultTimeout)]
    seed = try arguments[Options.seed] ?? UInt64.random(in: 0...UInt64.max)
    jobs = try arguments[Options.jobs]
    replicates = try arguments[Options.replicates]
    // --shard wins; Bazel's variables are read (and its status file touched) only without it,
    // and only by a command that shards (check runs every claim whole).
    if !arguments.declares(Options.shard) {
      shard = nil
    } else if let given = try arguments[Options.shard] {
      shard = given
    } else {
      shard = try Self.bazelShard(from: environment)
    }
    output = try OutputStage(arguments, formats: Renderings.reportOption, environment: environment)
    confidence = try arguments[Options.confidence]
    gates = try FailureRateGate.parse(arguments)
    baseline = try arguments[FailureRateGate.baseline]
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
}

import FlakeLab
import Foundation

/// The options `run` and `compare` share: what to run, how many times, in how many workers,
/// how to report, and the gates a CI job sets.
struct MeasurementOptions {
  static let specs = specs(defaultTimeout: defaultTimeout)

  /// A scenario's iteration takes microseconds; ten seconds without one finishing is a hang.
  static let defaultTimeout: Duration = .seconds(10)

  /// The options, with `defaultTimeout` in `--timeout`'s help.
  static func specs(defaultTimeout: Duration) -> [OptionSpec] { [
    .value("iterations", "N", "Iterations per variant and executor (default: 1000)."),
    .value(
      "timeout", "DURATION",
      "Per-iteration limit, e.g. 500ms, 2s, 1m; past it the iteration is timed out (default: \(defaultTimeout))."),
    .value(
      "jobs", "N",
      "Worker processes at once, 1 to 256 (default: 1). More workers load the machine, which changes how the global executor behaves."),
    .value(
      "replicates", "R",
      "Worker processes each run is measured in (default: \(defaultReplicates) under global, one per job under serial, fifo and seeded). Global rates move between processes; the spread of the replicates widens the interval."),
    .value(
      "shard", "INDEX/COUNT",
      "Run only shard INDEX (0-based) of COUNT; also read from TEST_SHARD_INDEX/TEST_TOTAL_SHARDS."),
    .value(
      "seed", "S",
      "Seed of the seeded executor's schedules (default: drawn at random and printed in the report)."),
    .value("format", "FORMAT", "Output format: text, json, junit or csv (default: text)."),
    .value("output", "FILE", "Also write the JSON report to FILE (atomically)."),
    .value(
      "confidence", "C", "Confidence level of every interval and test, e.g. 0.95 or 99% (default: \(FailureRateEstimate.defaultConfidence))."),
    .value(
      "max-failure-rate", "R",
      "Exit 1 unless every run is shown to fail at most R (the interval's high end ≤ R)."),
    .value(
      "min-failure-rate", "R",
      "Exit 1 unless every run is shown to fail at least R (the low end ≥ R): the race still shows."),
    .value(
      "baseline", "FILE",
      "Compare with an earlier JSON report; exit 1 if a run's failure rate rose significantly."),
    .flag("no-progress", "Never show the progress line (it is shown only when stderr is a terminal)."),
  ] }

  let variants: [(Scenario, Variant)]
  let iterations: Int
  let timeout: Duration
  let jobs: Int
  /// `--replicates`, or nil for each run's default (``replicates(independent:)``).
  let replicates: Int?
  let shard: Shard?
  let seed: UInt64
  let format: ReportFormat
  let outputPath: String?
  let confidence: Double
  let gates: [FailureRateGate]
  let baseline: Report?
  let showsProgress: Bool

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
    defaultTimeout: Duration = Self.defaultTimeout,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(UsageError) {
    self.variants = variants
    iterations = try arguments.value("iterations", default: 1000, ValueParsers.positiveCount)
    timeout = try arguments.value("timeout", default: defaultTimeout, ValueParsers.duration)
    jobs = try arguments.value("jobs", default: 1, ValueParsers.jobs)
    replicates = try arguments.value("replicates", default: nil, ValueParsers.replicates)
    // --shard wins; Bazel's variables are read (and its status file touched) only without it.
    shard = try arguments.value("shard") == nil
      ? Self.shard(from: environment) : arguments.value("shard", default: nil, ValueParsers.shard)
    seed = try arguments.value("seed", default: UInt64.random(in: 0...UInt64.max), ValueParsers.seed)
    format = try ReportFormat(arguments)
    outputPath = arguments.value("output")
    if let outputPath {
      try UsageError.mapping { () throws(ReportFileError) in try ReportFile.checkWritable(outputPath) }
    }
    confidence = try arguments.value("confidence", default: FailureRateEstimate.defaultConfidence, ValueParsers.confidence)
    gates = try FailureRateGate.parse(arguments)
    baseline = try arguments.value("baseline", default: nil) { path, _ throws(UsageError) in
      try UsageError.mapping { () throws(ReportFileError) in try ReportFile.read(path) }
    }
    // A terminal that cannot move the cursor (TERM=dumb) would show every update as a new line.
    showsProgress =
      !arguments.has("no-progress") && isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
  }

  /// Replicates of a global run unless `--replicates` says otherwise: enough to see how far the
  /// rate moves between processes, few enough that process start-up stays a small share.
  static let defaultReplicates = 10

  /// The replicates of a run: `--replicates`, or by default ``defaultReplicates`` (at least one
  /// per job) where iterations are not independent, and one per job where they are (their
  /// interval needs no replicates, see ``FailureRateEstimate``).
  func replicates(independent: Bool) -> Int {
    replicates ?? (independent ? jobs : max(Self.defaultReplicates, jobs))
  }

  /// Bazel's sharding variables, when a test runner sets them.
  private static func shard(from environment: [String: String]) throws(UsageError) -> Shard? {
    guard let index = environment["TEST_SHARD_INDEX"], let count = environment["TEST_TOTAL_SHARDS"]
    else { return nil }
    // Bazel asks sharding-aware tests to touch this file.
    if let statusFile = environment["TEST_SHARD_STATUS_FILE"] {
      _ = FileManager.default.createFile(atPath: statusFile, contents: nil)
    }
    return try ValueParsers.shard("\(index)/\(count)", option: "TEST_SHARD_INDEX/TEST_TOTAL_SHARDS")
  }

  /// Runs every run of `plan` in `flakelab worker` processes; see ``measure(_:judge:text:)-(SupervisedRun…)``.
  @MainActor
  func measure(
    _ plan: RunPlan, judge: (inout RunResult, RunPlan.Run) -> Void = { _, _ in },
    text: (Report) -> String
  ) throws -> ExitStatus {
    try measure(
      plan.runs.map { SupervisedRun($0, workerExecutable: Self.executablePath) },
      judge: { result, index in judge(&result, plan.runs[index]) }, text: text)
  }

  /// Runs every run in supervised workers, notes each run's problems (gates, baseline, and
  /// whatever `judge` adds, given the run's index), writes `--output`, prints the report, and
  /// returns the exit status.
  @MainActor
  func measure(
    _ runs: [SupervisedRun],
    judge: (inout RunResult, Int) -> Void = { _, _ in }, text: (Report) -> String
  ) throws -> ExitStatus {
    InterruptSignal.install()
    SuspendSignal.install()
    let progress = showsProgress ? ProgressDisplay() : nil
    let supervisor = Supervisor(
      options: .init(jobs: jobs, timeout: timeout, workerExecutable: Self.executablePath),
      onProgress: { progress?.show(ProgressLine.render($0)) })
    let measured = try supervisor.run(
      runs.map { run in
        var run = run
        run.replicates = run.replicates ?? replicates(independent: run.iterationsAreIndependent)
        return run
      })
    var results: [RunResult] = []
    for (index, var result) in measured.enumerated() {
      // An interrupted command reports the runs it got to.
      guard !supervisor.wasInterrupted || result.tally.iterations > 0 else { continue }
      // The statistics stage: the interval once, at the report's confidence, then the verdict.
      result.estimate(atConfidence: confidence)
      judge(&result, index)
      results.append(result)
    }
    progress?.clear()
    // Measuring is over: from here Ctrl-C and SIGTERM end the process at once, even while the
    // report waits on a full pipe.
    InterruptSignal.restoreDefaults()
    var report = Report(
      runs: results, interrupted: supervisor.wasInterrupted, shard: shard, confidence: confidence,
      seed: seed, program: Program.name, timeout: timeout)
    if !supervisor.wasInterrupted {
      ProblemFinder(gates: gates, baseline: baseline).annotate(&report)
    }
    // The report is printed first: a file that cannot be written loses nothing measured.
    print(format.render(report, text: text), terminator: "")
    var fileError: ReportFileError?
    if let outputPath {
      do throws(ReportFileError) {
        try ReportFile.write(JSONReport.render(report), to: outputPath)
      } catch {
        printError("\(Program.name): \(ErrorText.describe(error))")
        fileError = error
      }
    }
    if supervisor.wasInterrupted {
      printError("\(Program.name): interrupted; the report holds the iterations that finished")
      return .interrupted
    }
    return fileError == nil ? ProblemFinder.exitStatus(of: report) : .usage
  }

  /// This executable, which the supervisor starts again as `flakelab worker`.
  static var executablePath: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }
}

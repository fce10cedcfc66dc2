import FlakeLab
import Foundation
import Scenarios

/// The options `run` and `compare` share: what to run, how many times, in how many workers,
/// how to report, and the gates a CI job sets.
struct MeasurementOptions {
  static let specs: [OptionSpec] = [
    .value("iterations", "N", "Iterations per variant and executor (default: 1000)."),
    .value(
      "timeout", "DURATION",
      "Per-iteration limit, e.g. 500ms, 2s, 1m; past it the iteration is timed out (default: 10s)."),
    .value(
      "jobs", "N",
      "Worker processes at once (default: 1). More workers load the machine, which changes how the global executor behaves."),
    .value(
      "shard", "INDEX/COUNT",
      "Run only shard INDEX (0-based) of COUNT; also read from TEST_SHARD_INDEX/TEST_TOTAL_SHARDS."),
    .value("format", "FORMAT", "Output format: text or json (default: text)."),
    .value("output", "FILE", "Also write the JSON report to FILE (atomically)."),
    .value(
      "max-failure-rate", "R",
      "Exit 1 if any run fails more often than R (a fraction like 0.01, or 1%)."),
    .value(
      "min-failure-rate", "R",
      "Exit 1 if any run fails less often than R: proof a race is still reproduced."),
    .flag("no-progress", "Never show the progress line (it is shown only when stderr is a terminal)."),
  ]

  enum Format: String { case text, json }

  let variants: [(Scenario, Variant)]
  let iterations: Int
  let timeout: Duration
  let jobs: Int
  let shard: Shard?
  let format: Format
  let outputPath: String?
  let gates: [FailureRateGate]
  let showsProgress: Bool

  init(
    _ arguments: ParsedArguments, command: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(UsageError) {
    guard !arguments.positionals.isEmpty else {
      throw UsageError(
        "\(command) needs at least one scenario or scenario.variant (see 'flakelab list')")
    }
    variants = try ScenarioCatalog.standard.resolve(arguments.positionals)
    iterations = try arguments.value("iterations", default: 1000, ValueParsers.positiveCount)
    timeout = try arguments.value("timeout", default: .seconds(10), ValueParsers.duration)
    jobs = try arguments.value("jobs", default: 1, ValueParsers.positiveCount)
    shard = try arguments.value("shard", default: try Self.shard(from: environment), ValueParsers.shard)
    format = try arguments.value("format", default: .text) { text, option throws(UsageError) in
      Format(rawValue: try ValueParsers.choice(text, option: option, among: ["text", "json"]))!
    }
    outputPath = arguments.value("output")
    var gates: [FailureRateGate] = []
    if let text = arguments.value("max-failure-rate") {
      gates.append(.init(.atMost(try ValueParsers.rate(text, option: "--max-failure-rate"))))
    }
    if let text = arguments.value("min-failure-rate") {
      gates.append(.init(.atLeast(try ValueParsers.rate(text, option: "--min-failure-rate"))))
    }
    self.gates = gates
    showsProgress = !arguments.has("no-progress") && isatty(STDERR_FILENO) == 1
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

  /// Runs every run of `plan` in supervised workers, writes `--output`, applies the gates, and
  /// returns the report to print with the exit status.
  @MainActor
  func measure(_ plan: RunPlan) throws -> (Report, ExitStatus) {
    InterruptSignal.install()
    let progress = showsProgress ? ProgressDisplay() : nil
    let supervisor = Supervisor(
      options: .init(jobs: jobs, timeout: timeout, workerExecutable: Self.executablePath),
      onProgress: { progress?.show(ProgressLine.render($0)) })
    var results: [RunResult] = []
    for run in plan.runs where !supervisor.wasInterrupted {
      results.append(try supervisor.run(run))
    }
    progress?.clear()
    let report = Report(runs: results, interrupted: supervisor.wasInterrupted, shard: shard)
    if let outputPath {
      try ReportFile.write(JSONReport.render(report), to: outputPath)
    }
    if supervisor.wasInterrupted {
      printError("flakelab: interrupted; the report holds the iterations that finished")
      return (report, .interrupted)
    }
    let violations = results.flatMap { result in gates.compactMap { $0.violation(by: result) } }
    for violation in violations {
      printError("gate not met: \(violation)")
    }
    return (report, violations.isEmpty ? .success : .gateNotMet)
  }

  /// This executable, which the supervisor starts again as `flakelab worker`.
  static var executablePath: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }
}

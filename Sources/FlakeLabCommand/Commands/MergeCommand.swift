import FlakeLab
import Foundation

/// `flakelab merge`: sums the JSON reports of shards into one report, then applies the gates.
struct MergeCommand: Command {
  static let name = "merge"
  static let abstract = "Sum shard reports into one report and apply the gates."
  static let usage = "merge <report.json>... [--format FORMAT] [--output FILE] [gates] [--fail-on-flaky]"
  static let discussion = """
    Runs with the same scenario, variant and executor are added up, so merging the reports of
    every shard gives the counts of the unsharded run. Only the complete shards of one
    measurement merge: a shard given twice or missing, an interrupted shard, shards of another
    count, seed or set of runs are errors. A single unsharded report is gated as it is.
    --fail-on-flaky judges each package test's verdict on the merged runs of flakelab test.
    """
  static let options =
    [Renderings.reportOption.spec, OutputStage.output.spec] + [RunOptions.Options.confidence.spec]
    + FailureRateGate.specs + [FailureRateGate.failOnFlaky.spec]

  let paths: [String]
  let output: OutputStage
  let confidence: Double
  let gates: [FailureRateGate]
  let baseline: Report?
  let failsOnFlaky: Bool
  let executors: Set<ExecutorID>

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    guard !arguments.positionals.isEmpty else {
      throw UsageError("merge needs at least one JSON report")
    }
    paths = arguments.positionals
    output = try OutputStage(arguments, formats: Renderings.reportOption)
    try output.refuseOverwriting(paths)
    confidence = try arguments[RunOptions.Options.confidence]
    gates = try FailureRateGate.parse(arguments)
    baseline = try arguments[FailureRateGate.baseline]
    failsOnFlaky = arguments[FailureRateGate.failOnFlaky]
    executors = Set(catalog.executors.map(\.id))
  }

  func run() async throws -> ExitStatus {
    var reports: [(name: String, report: Report)] = []
    for path in paths {
      reports.append((path, try ReportFile.read(path)))
    }
    var merged = try ReportMerger.merge(reports, executors: executors, confidence: confidence)
    merged.program = Program.name
    merged.judge(gates: gates, baseline: baseline)
    if failsOnFlaky {
      guard merged.runs.contains(where: { $0.test != nil }) else {
        throw UsageError("--fail-on-flaky judges a package's tests, and these reports hold no flakelab test run")
      }
      merged.judgeStability()
    }
    // A report of flakelab test keeps its answer; any other, its table of runs.
    return output.finish(CommandOutput(merged, baseline: baseline) { SuiteAnswerText.render($0, verbose: false) })
  }
}

import FlakeLab
import Foundation

/// `flakelab merge`: sums the JSON reports of shards into one report, then applies the gates.
struct MergeCommand: Command {
  static let name = "merge"
  static let abstract = "Sum shard reports into one report and apply the gates."
  static let usage = "merge <report.json>... [--format FORMAT] [--output FILE] [gates]"
  static let discussion = """
    Runs with the same scenario, variant and executor are added up, so merging the reports of
    every shard gives the counts of the unsharded run. A shard given twice is an error.
    """
  static let options: [OptionSpec] = [
    .value("format", "FORMAT", "Output format: text or json (default: text)."),
    .value("output", "FILE", "Also write the merged JSON report to FILE (atomically)."),
    .value("max-failure-rate", "R", "Exit 1 if any run fails more often than R."),
    .value("min-failure-rate", "R", "Exit 1 if any run fails less often than R."),
  ]

  let paths: [String]
  let json: Bool
  let outputPath: String?
  let gates: [FailureRateGate]

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard !arguments.positionals.isEmpty else {
      throw UsageError("merge needs at least one JSON report")
    }
    paths = arguments.positionals
    json = try arguments.value("format", default: "text") { text, option throws(UsageError) in
      try ValueParsers.choice(text, option: option, among: ["text", "json"])
    } == "json"
    outputPath = arguments.value("output")
    var gates: [FailureRateGate] = []
    if let text = arguments.value("max-failure-rate") {
      gates.append(.init(.atMost(try ValueParsers.rate(text, option: "--max-failure-rate"))))
    }
    if let text = arguments.value("min-failure-rate") {
      gates.append(.init(.atLeast(try ValueParsers.rate(text, option: "--min-failure-rate"))))
    }
    self.gates = gates
  }

  func run() async throws -> ExitStatus {
    var reports: [Report] = []
    for path in paths {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw UsageError("cannot read \(path)")
      }
      reports.append(try JSONReportReader.read(data, name: path))
    }
    let merged = try ReportMerger.merge(reports)
    if let outputPath { try ReportFile.write(JSONReport.render(merged), to: outputPath) }
    print(json ? JSONReport.render(merged) : TextReport.render(merged), terminator: "")
    let violations = merged.runs.flatMap { run in gates.compactMap { $0.violation(by: run) } }
    for violation in violations { printError("gate not met: \(violation)") }
    return violations.isEmpty ? .success : .gateNotMet
  }
}

import FlakeLab
import Scenarios

/// The options `run` and `compare` share: what to run, how many times, how to report, and the
/// gates a CI job sets.
struct MeasurementOptions {
  static let specs: [OptionSpec] = [
    .value("iterations", "N", "Iterations per variant and executor (default: 1000)."),
    .value("format", "FORMAT", "Output format: text or json (default: text)."),
    .value(
      "max-failure-rate", "R",
      "Exit 1 if any run fails more often than R (a fraction like 0.01, or 1%)."),
    .value(
      "min-failure-rate", "R",
      "Exit 1 if any run fails less often than R: proof a race is still reproduced."),
  ]

  enum Format: String { case text, json }

  let variants: [(Scenario, Variant)]
  let iterations: Int
  let format: Format
  let gates: [FailureRateGate]

  init(_ arguments: ParsedArguments, command: String) throws(UsageError) {
    guard !arguments.positionals.isEmpty else {
      throw UsageError(
        "\(command) needs at least one scenario or scenario.variant (see 'flakelab list')")
    }
    variants = try ScenarioCatalog.standard.resolve(arguments.positionals)
    iterations = try arguments.value("iterations", default: 1000) { text, option throws(UsageError) in
      try ValueParsers.positiveCount(text, option: option)
    }
    format = try arguments.value("format", default: .text) { text, option throws(UsageError) in
      Format(rawValue: try ValueParsers.choice(text, option: option, among: ["text", "json"]))!
    }
    var gates: [FailureRateGate] = []
    if let text = arguments.value("max-failure-rate") {
      gates.append(.init(.atMost(try ValueParsers.rate(text, option: "--max-failure-rate"))))
    }
    if let text = arguments.value("min-failure-rate") {
      gates.append(.init(.atLeast(try ValueParsers.rate(text, option: "--min-failure-rate"))))
    }
    self.gates = gates
  }

  /// Runs every run of `plan` and applies the gates: the report to print and the exit status.
  @MainActor
  func measure(_ plan: RunPlan) async -> (Report, ExitStatus) {
    var results: [RunResult] = []
    for run in plan.runs {
      results.append(await InProcessRunner.run(run))
    }
    let report = Report(runs: results)
    let violations = results.flatMap { result in gates.compactMap { $0.violation(by: result) } }
    for violation in violations {
      printError("gate not met: \(violation)")
    }
    return (report, violations.isEmpty ? .success : .gateNotMet)
  }
}

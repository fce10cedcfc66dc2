import FlakeLab

/// Notes on each run what makes the command fail, prints each on stderr, and turns them into
/// the exit status: gates not met and significant rises over the baseline (claims are judged by
/// `check` itself, before this).
struct ProblemFinder {
  let gates: [FailureRateGate]
  let baseline: Report?

  func annotate(_ report: inout Report) {
    let comparisons = baseline.map {
      BaselineComparison.compare(report, with: $0, confidence: report.confidence)
    } ?? []
    for comparison in comparisons {
      printError("baseline: \(comparison.summary)")
    }
    // A baseline that matches no run compared nothing: that is no pass.
    let unmatched = baseline != nil && comparisons.isEmpty
    for (index, run) in report.runs.enumerated() {
      var problems: [Problem] = []
      if unmatched {
        problems.append(.missingFromBaseline(run.key))
      }
      problems += gates.compactMap { $0.violation(by: run) }
      problems += comparisons.filter { $0.roseSignificantly && $0.run == run.key }
        .map(Problem.roseOverBaseline)
      report.note(problems, onRunAt: index)
    }
    for problem in report.runs.flatMap(\.problems) {
      printError("not met: \(ProblemText.describe(problem))")
    }
  }

  static func exitStatus(of report: Report) -> ExitStatus {
    report.runs.contains { !$0.problems.isEmpty } ? .gateNotMet : .success
  }
}

extension FailureRateGate {
  /// The gates set by `--max-failure-rate` and `--min-failure-rate`.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> [FailureRateGate] {
    var gates: [FailureRateGate] = []
    if let text = arguments.value("max-failure-rate") {
      gates.append(.init(.atMost(try ValueParsers.rate(text, option: "--max-failure-rate"))))
    }
    if let text = arguments.value("min-failure-rate") {
      gates.append(.init(.atLeast(try ValueParsers.rate(text, option: "--min-failure-rate"))))
    }
    return gates
  }
}

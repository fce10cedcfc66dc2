/// The human-readable report of `flakelab run`: one row per run, its most frequent outcomes
/// other than a pass beneath it, and the machine the rates were measured on. The failure rate
/// counts every iteration that did not pass: failed, crashed or timed out.
public enum TextReport {
  /// How many distinct failure observations are listed under a run before "and N more".
  static let observationsShown = 3

  public static func render(_ report: Report) -> String {
    var table = TextTable([.left, .left] + Array(repeating: .right, count: 8))
    table.add([
      "run", "executor", "iterations", "passed", "failed", "crashed", "timed out", "failure rate",
      "time", "it/s",
    ])
    var observationLines: [Int: [String]] = [:]
    for (index, result) in report.runs.enumerated() {
      let tally = result.tally
      table.add([
        result.selector, result.executor, Formatting.count(tally.iterations),
        Formatting.count(tally.passed), Formatting.count(tally.failed),
        Formatting.count(tally.crashed), Formatting.count(tally.timedOut),
        Formatting.percent(tally.failureRate), Formatting.seconds(result.seconds),
        Formatting.rate(result.iterationsPerSecond),
      ])
      observationLines[index + 1] = outcomeLines(tally)
    }
    var lines: [String] = []
    for (index, line) in table.lines().enumerated() {
      lines.append(line)
      lines += observationLines[index, default: []]
    }
    return ([MachineLine.render(report), ""] + lines).joined(separator: "\n") + "\n"
  }

  /// `      9,860 × isLoading was false right after the tap`, most frequent first.
  static func outcomeLines(_ tally: Tally) -> [String] {
    let outcomes = tally.outcomesByFrequency
    let width = outcomes.first.map { Formatting.count($0.count).count } ?? 0
    var lines = outcomes.prefix(observationsShown).map { outcome, count in
      let number = Formatting.count(count)
      return "    " + String(repeating: " ", count: width - number.count) + number + " × "
        + OutcomeText.describe(outcome)
    }
    if outcomes.count > observationsShown {
      lines.append("    … and \(outcomes.count - observationsShown) more distinct outcomes")
    }
    return lines
  }
}

/// The first line of every text report, and the reminder that goes with it.
enum MachineLine {
  static func render(_ report: Report) -> String {
    let machine = report.machine
    var lines = [
      "flakelab \(Report.labVersion) · \(machine.cores) cores · \(machine.os) · Swift \(machine.swift)",
      "Rates under the global executor depend on this machine's cores and load.",
    ]
    if let shard = report.shard {
      lines.append("Shard \(shard.index)/\(shard.count): this report holds that share of each run.")
    }
    if report.interrupted {
      lines.append("Interrupted: the counts are of the iterations that finished.")
    }
    return lines.joined(separator: "\n")
  }
}

/// An outcome as a phrase for text reports.
enum OutcomeText {
  static func describe(_ outcome: Outcome) -> String {
    switch outcome {
    case .passed: "passed"
    case .failed(let observation): observation
    case .crashed(let observation): "crashed: \(observation)"
    case .timedOut: "timed out"
    }
  }
}

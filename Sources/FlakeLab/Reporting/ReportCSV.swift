import Foundation

/// One row per run for spreadsheets (`--format csv`), RFC 4180 quoting, a header row first.
/// Columns are only ever added at the end, so scripts that read them by position keep working.
package enum ReportCSV {
  /// The JSON report's names where a column is one of its fields.
  static let columns: [String] = {
    typealias Key = ReportJSON.Key
    return [
      Key.scenario, Key.variant, Key.executor, Key.iterations, Key.passed, Key.failed, Key.crashed,
      Key.timedOut, Key.failureRate, "confidenceLevel", "confidenceLow", "confidenceHigh", Key.seconds,
      Key.claim, Key.verdict, "topOutcome", Key.deadlocked, Key.seed, "confidenceMethod", Key.dispersion,
      Key.replicates, Key.skipped, Key.executorChanged, Key.notRun, Key.stopped,
    ]
  }()

  package static func render(_ report: Report) -> String {
    var rows = [columns.joined(separator: ",")]
    for run in report.runs {
      let tally = run.tally
      let estimate = run.estimate
      let dispersion = estimate.dispersion.map { "\(($0 * 1e6).rounded() / 1e6)" } ?? ""
      let fields = [
        run.scenario, run.variant, run.executor.name, "\(tally.iterations)", "\(tally.passed)",
        "\(tally.failed)", "\(tally.crashed)", "\(tally.timedOut)",
        // A run that only skipped has no rate: empty fields, never 0.
        estimate.hasRate ? "\(tally.failureRate)" : "", "\(report.confidence)",
        estimate.hasRate ? "\(estimate.low)" : "", estimate.hasRate ? "\(estimate.high)" : "",
        "\((run.seconds * 1e6).rounded() / 1e6)",
        run.verdict?.claim.rawValue ?? "", run.verdict?.status.rawValue ?? "",
        tally.outcomesByFrequency.first.map { OutcomeText.describe($0.outcome) } ?? "",
        "\(tally.deadlocked)", report.seed.map { "\($0)" } ?? "", estimate.method.rawValue,
        dispersion, "\(run.replicates.count)", "\(tally.skipped)",
        "\(tally.executorChanged)",
      ]
      let stop: String = run.stop?.rawValue ?? ""
      let cut: [String] = [String(run.notRun), stop]
      rows.append((fields + cut).map(quote).joined(separator: ","))
    }
    return rows.joined(separator: "\r\n") + "\r\n"
  }

  static func quote(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return field
    }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

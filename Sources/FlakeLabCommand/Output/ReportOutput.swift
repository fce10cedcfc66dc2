package import FlakeLab

extension CommandOutput {
  /// A lab's report as the output stage writes it: what the baseline changed and the gates not
  /// met as notes, the report in every format (`text` the command's own), its JSON for the
  /// file, its markdown for the job summary and its annotations.
  package init(_ report: Report, baseline: Report?, text: @escaping (Report) -> String) {
    let renderings = Renderings.report(text: text)
    self.init(render: { renderings.render(report, as: $0) })
    notes =
      Self.baselineNotes(report, baseline: baseline).map { "baseline: \($0)" }
      + report.runs.flatMap(\.problems).map { "not met: \(ProblemText.describe($0))" }
    json = { ReportJSON.render(report) }
    jobSummary = { ReportMarkdown.render(report) }
    annotations = { ReportAnnotations.lines(report, workspace: $0) }
    interrupted = report.interrupted
    status = report.hasProblems ? .gateNotMet : .success
  }

  /// A package's tests are compared test by test, and only where something changed; every other
  /// report run by run. A cut-short report is compared with nothing.
  private static func baselineNotes(_ report: Report, baseline: Report?) -> [String] {
    guard let baseline, !report.interrupted else { return [] }
    guard !report.tests.isEmpty, !baseline.tests.isEmpty else { return report.compared(with: baseline).map(\.summary) }
    let changes = report.comparedTests(with: baseline)
    let both = report.tests.filter { finding in baseline.tests.contains { $0.test == finding.test } }.count
    return changes.isEmpty
      ? ["no test's verdict or suite rate changed significantly (\(both) test\(both == 1 ? "" : "s") in both reports)"]
      : changes.map(\.summary)
  }
}

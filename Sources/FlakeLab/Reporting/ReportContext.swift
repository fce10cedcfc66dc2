/// Where and how a report's runs were measured, derived once: the first lines of every text
/// report (``MachineLine``), markdown's footnote and the HTML page's footer render it. Each fact
/// is nil or false where a report has nothing to say of it.
package struct ReportContext: Equatable {
  package let machine: MachineInfo
  package let confidence: Double
  /// The seed, where runs under the scheduler make it the key to the same schedules.
  package let seed: UInt64?
  /// The per-iteration limit, for a package's tests (a scenario's iterations take microseconds,
  /// and its timeout is a hang's).
  package let timeout: Duration?
  /// `--budget`, where it was spent and cut runs short (every `flakelab test` has one).
  package let budgetSpent: Duration?
  package let layout: TestReference.ProcessLayout?
  package let shard: Shard?
  package let interrupted: Bool

  package init(_ report: Report) {
    machine = report.machine
    confidence = report.confidence
    seed = report.runs.contains { $0.schedule != nil } ? report.seed : nil
    timeout = report.runs.contains { $0.test != nil } ? report.timeout : nil
    let cut = (report.runs + report.tests.flatMap(\.runs)).contains { $0.stop == .budgetSpent }
    budgetSpent = cut ? report.budget : nil
    layout = report.runs.lazy.compactMap(\.test?.layout).first
    shard = report.shard
    interrupted = report.interrupted
  }
}

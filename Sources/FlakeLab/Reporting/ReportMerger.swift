/// Sums shard reports into the report of the whole measurement (`flakelab merge`).
///
/// Only a complete set of shards of one measurement adds up to something true: the same shard
/// twice would double its counts, a missing one would pass a part for the whole, and shards of
/// different seeds or different runs were never one measurement. Each is refused with what is
/// wrong. A single report that is not a shard passes through, to be gated again.
package enum ReportMerger {
  /// Runs with the same scenario, variant and executor are added together; run order follows
  /// first appearance. Seconds add up too: the merged figure is CPU-side work, not wall time.
  ///
  /// - Parameter reports: each report with the name (its path) that messages use.
  /// - Throws: ``UsageError`` when the reports are not the complete shards of one measurement.
  package static func merge(_ reports: [(name: String, report: Report)]) throws(UsageError) -> Report {
    try validate(reports)
    var order: [RunKey] = []
    var merged: [RunKey: RunResult] = [:]
    for run in reports.flatMap(\.report.runs) {
      if var existing = merged[run.key] {
        existing.add(run)
        merged[run.key] = existing
      } else {
        order.append(run.key)
        merged[run.key] = run
      }
    }
    // A seed is claimed only where every shard ran with it.
    let seeds = Set(reports.map(\.report.seed))
    return Report(
      machine: reports.first?.report.machine ?? .current, runs: order.compactMap { merged[$0] },
      interrupted: false, seed: seeds.count == 1 ? seeds.first! : nil)
  }

  private static func validate(_ reports: [(name: String, report: Report)]) throws(UsageError) {
    for (name, report) in reports where report.runs.isEmpty {
      throw UsageError("\(name) has no runs: there is nothing to merge or gate")
    }
    // A package's tests measured in another package, or in another process layout, are
    // another measurement: their global rates differ between layouts.
    let tests = reports.flatMap { entry in entry.report.runs.compactMap { run in run.test.map { (entry.name, $0) } } }
    if let (firstName, first) = tests.first {
      for (name, test) in tests where test.packagePath != first.packagePath {
        throw UsageError(
          "\(name) measured the package at '\(test.packagePath)', \(firstName) the one at '\(first.packagePath)': they are not one measurement")
      }
      for (name, test) in tests where test.layout != first.layout {
        throw UsageError(
          "\(name) ran tests as \(test.layout.rawValue), \(firstName) as \(first.layout.rawValue): their rates are not one measurement")
      }
    }
    if reports.count == 1, reports[0].report.shard == nil { return }
    for (name, report) in reports {
      guard let shard = report.shard else {
        throw UsageError("\(name) is not a shard's report: merge adds up the shards of one measurement")
      }
      guard !report.interrupted else {
        throw UsageError("\(name) (shard \(shard.index)/\(shard.count)) was interrupted: its counts are partial")
      }
    }
    let shards = reports.compactMap(\.report.shard)
    let count = shards[0].count
    guard shards.allSatisfy({ $0.count == count }) else {
      throw UsageError("the reports are shards of different counts (\(Set(shards.map(\.count)).sorted()))")
    }
    var seen = Set<Int>()
    for shard in shards where !seen.insert(shard.index).inserted {
      throw UsageError("shard \(shard.index)/\(shard.count) appears twice")
    }
    let missing = (0..<count).filter { !seen.contains($0) }
    guard missing.isEmpty else {
      throw UsageError(
        "shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(count) "
          + "\(missing.count == 1 ? "is" : "are") missing: a merge of some shards is not the measurement")
    }
    // Schedules depend on the seed; other runs do not, and each shard draws its own.
    let isScheduled = reports.contains { $0.report.runs.contains { $0.schedule != nil } }
    guard !isScheduled || Set(reports.map(\.report.seed)).count == 1 else {
      throw UsageError("the shards ran with different seeds (--seed): their schedules are not one measurement")
    }
    let runs = { (report: Report) in Set(report.runs.map(\.key)) }
    let expected = runs(reports[0].report)
    for (name, report) in reports where runs(report) != expected {
      throw UsageError("\(name) has other runs than \(reports[0].name): they are not shards of one measurement")
    }
  }
}

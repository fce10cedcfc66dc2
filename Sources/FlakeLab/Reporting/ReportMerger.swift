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
  /// - Parameters:
  ///   - reports: each report with the name (its path) that messages use.
  ///   - executors: the executors this flakelab knows; a run under another is refused.
  /// - Throws: ``MergeError`` when the reports are not the complete shards of one measurement.
  package static func merge(
    _ reports: [(name: String, report: Report)], executors: Set<ExecutorID> = Set(ExecutorCatalog.standard.map(\.id)),
    confidence: Double = FailureRateEstimate.defaultConfidence
  ) throws(MergeError) -> Report {
    try validate(reports, executors: executors)
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
    // A seed, a timeout or a budget is claimed only where every report ran with it.
    func shared<Value: Hashable>(_ value: (Report) -> Value?) -> Value? {
      let values = Set(reports.map { value($0.report) })
      return values.count == 1 ? values.first! : nil
    }
    var report = Report(
      machine: reports.first?.report.machine ?? .current, runs: order.compactMap { merged[$0] },
      interrupted: reports.count == 1 && reports[0].report.interrupted, confidence: confidence, seed: shared(\.seed),
      timeout: shared(\.timeout))
    report.budget = shared(\.budget)
    report.tests = findings(of: reports.map(\.report), screen: report.runs, confidence: confidence)
    return report
  }

  /// The findings of `flakelab test` reports, derived again from the merged runs: the screen's,
  /// and each test's diagnosis runs added arm by arm (the n-th run of an arm in one report to
  /// the n-th in another: a test's two randomness replays stay two). The polluters, the races
  /// and the source location are the first report's that has them.
  private static func findings(of reports: [Report], screen: [RunResult], confidence: Double) -> [TestFinding] {
    var tests: [PackageTest] = []
    var drilled: [PackageTest: [RunResult]] = [:]
    var polluters: [PackageTest: Polluters] = [:]
    var locations: [PackageTest: SourceLocation] = [:]
    var races: [PackageTest: RaceEvidence] = [:]
    for finding in reports.flatMap(\.tests) {
      let test = finding.test
      if drilled[test] == nil { tests.append(test) }
      var runs = drilled[test] ?? []
      var ordinal: [String: Int] = [:]
      for run in finding.runs where run.test?.layout != .suite {
        let arm = "\(run.key) \(run.test?.layout.rawValue ?? "")"
        let position = runs.indices.filter { "\(runs[$0].key) \(runs[$0].test?.layout.rawValue ?? "")" == arm }
        let nth = ordinal[arm, default: 0]
        ordinal[arm] = nth + 1
        if nth < position.count { runs[position[nth]].add(run) } else { runs.append(run) }
      }
      drilled[test] = runs
      if polluters[test] == nil { polluters[test] = finding.polluters }
      if locations[test] == nil { locations[test] = finding.location }
      if races[test] == nil { races[test] = finding.races }
    }
    return TestFinding.findings(
      of: tests, runs: screen + tests.flatMap { drilled[$0] ?? [] }, polluters: polluters, races: races,
      locations: locations, confidence: confidence)
  }

  private static func validate(
    _ reports: [(name: String, report: Report)], executors: Set<ExecutorID>
  ) throws(MergeError) {
    for (name, report) in reports {
      guard !report.runs.isEmpty else { throw .noRuns(report: name) }
      var seen = Set<RunKey>()
      for run in report.runs {
        guard seen.insert(run.key).inserted else { throw .runTwice(report: name, run: run.key) }
        guard executors.contains(run.executor) else { throw .unknownExecutor(report: name, run: run.key) }
      }
    }
    // A package's tests measured in another package, or in another process layout, are
    // another measurement: their global rates differ between layouts.
    let tests = reports.flatMap { entry in entry.report.runs.compactMap { run in run.test.map { (entry.name, $0) } } }
    if let (firstName, first) = tests.first {
      for (name, test) in tests where test.packagePath != first.packagePath {
        throw .otherPackage(
          report: name, path: test.packagePath, first: firstName, firstPath: first.packagePath)
      }
      for (name, test) in tests where test.layout != first.layout {
        throw .otherLayout(report: name, layout: test.layout, first: firstName, firstLayout: first.layout)
      }
    }
    if reports.count == 1, reports[0].report.shard == nil { return }
    for (name, report) in reports {
      guard let shard = report.shard else {
        throw .notAShard(report: name)
      }
      guard !report.interrupted else {
        throw .interruptedShard(report: name, shard)
      }
    }
    let shards = reports.compactMap(\.report.shard)
    let count = shards[0].count
    guard shards.allSatisfy({ $0.count == count }) else {
      throw .differentShardCounts(Set(shards.map(\.count)).sorted())
    }
    var seen = Set<Int>()
    for shard in shards where !seen.insert(shard.index).inserted {
      throw .shardTwice(shard)
    }
    let missing = (0..<count).filter { !seen.contains($0) }
    guard missing.isEmpty else {
      throw .missingShards(missing, of: count)
    }
    // Schedules depend on the seed; other runs do not, and each shard draws its own.
    let isScheduled = reports.contains { $0.report.runs.contains { $0.schedule != nil } }
    guard !isScheduled || Set(reports.map(\.report.seed)).count == 1 else {
      throw .differentSeeds
    }
    let runs = { (report: Report) in Set(report.runs.map(\.key)) }
    let expected = runs(reports[0].report)
    for (name, report) in reports where runs(report) != expected {
      throw .otherRuns(report: name, first: reports[0].name)
    }
  }
}

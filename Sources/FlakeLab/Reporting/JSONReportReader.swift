package import Foundation

/// Reads a report written by `--format json` or `--output` back, for `merge` and baselines.
package enum JSONReportReader {
  /// The report in `data`; `name` says which file in error messages.
  package static func read(_ data: Data, name: String) throws(ReportFileError) -> Report {
    guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      document["flakelab"] is String,
      let machine = document["machine"] as? [String: Any],
      let runs = document["runs"] as? [[String: Any]]
    else {
      throw .malformed(path: name, .notAReport)
    }
    var results: [RunResult] = []
    for run in runs {
      guard let scenario = run["scenario"] as? String, let variant = run["variant"] as? String,
        let executor = run["executor"] as? String, let outcomes = run["outcomes"] as? [[String: Any]]
      else {
        throw .malformed(path: name, .runWithoutNames)
      }
      var tally = Tally()
      for entry in outcomes {
        // A run has at most 10^12 iterations, as on the command line, and no negative count: sums
        // over any number of shards then never overflow, and no rate is negative.
        guard let kind = entry["outcome"] as? String, let count = entry["count"] as? Int,
          count >= 0, count <= 1_000_000_000_000 - tally.iterations,
          let outcome = OutcomeCoding.outcome(
            kind: kind, observation: entry["observation"] as? String)
        else {
          throw .malformed(path: name, .outcome(run: "\(scenario).\(variant)"))
        }
        tally.record(outcome, count: count, example: entry["example"] as? String)
      }
      // The count a report states must be the count of its outcomes.
      guard run["iterations"] as? Int == tally.iterations else {
        throw .malformed(path: name, .countsDoNotAddUp(run: "\(scenario).\(variant)"))
      }
      var runSchedule: RunSchedule?
      if let entry = run["schedule"] as? [String: Any] {
        runSchedule = try schedule(entry, name: name)
      }
      // Reports from before replicates hold the run as one.
      let replicates = try (run["replicates"] as? [[String: Any]]).map {
        entries throws(ReportFileError) in
        try entries.map { entry throws(ReportFileError) in
          try replicate(entry, of: tally, name: name, run: "\(scenario).\(variant)")
        }
      }
      if let replicates,
        replicates.reduce(0, { $0 + $1.iterations }) != tally.iterations
          || replicates.reduce(0, { $0 + $1.passed }) != tally.passed
      {
        throw .malformed(path: name, .countsDoNotAddUp(run: "\(scenario).\(variant)"))
      }
      // The report says whether the run's iterations were independent; in one from before it
      // did, how the interval was computed says it, and where that cannot (a single replicate)
      // the cautious answer is no.
      let method = ((run["confidence"] as? [String: Any])?["method"] as? String)
        .flatMap(FailureRateEstimate.Method.init)
      let independent =
        run["iterationsIndependent"] as? Bool ?? (method == .wilson && (replicates?.count ?? 0) > 1)
      var result = RunResult(
        RunKey(scenario: scenario, variant: variant, executor: ExecutorID(executor)), tally: tally,
        seconds: run["seconds"] as? Double ?? 0, iterationsAreIndependent: independent,
        schedule: runSchedule, replicates: replicates)
      result.notRun = max(0, run["notRun"] as? Int ?? 0)
      result.ignoredEvents = max(0, run["ignoredEvents"] as? Int ?? 0)
      if let id = run["test"] as? String {
        guard let framework = (run["framework"] as? String).flatMap(PackageTest.Framework.init),
          let layout = (run["processLayout"] as? String).flatMap(TestReference.ProcessLayout.init)
        else { throw .malformed(path: name, .testRunWithoutLayout(test: id)) }
        result.test = TestReference(
          test: PackageTest(id: id, framework: framework),
          packagePath: run["packagePath"] as? String ?? ".", layout: layout)
      }
      results.append(result)
    }
    var shard: Shard?
    if let entry = document["shard"] as? [String: Any], let index = entry["index"] as? Int,
      let count = entry["count"] as? Int
    {
      do {
        shard = try Shard(index: index, count: count)
      } catch {
        throw .malformed(path: name, .shard(error))
      }
    }
    return Report(
      machine: MachineInfo(
        cores: machine["cores"] as? Int ?? 0, os: machine["os"] as? String ?? "",
        swift: machine["swift"] as? String ?? ""),
      runs: results, interrupted: document["interrupted"] as? Bool ?? false, shard: shard,
      seed: (document["seed"] as? String).flatMap { UInt64($0) },
      timeout: (document["timeoutSeconds"] as? Double).map { .milliseconds(Int64(($0 * 1000).rounded())) })
  }

  /// One replicate's counts, each within what the run itself counted.
  private static func replicate(
    _ entry: [String: Any], of tally: Tally, name: String, run: String
  ) throws(ReportFileError) -> ReplicateCounts {
    let keys = [
      "iterations", "passed", "failed", "crashed", "timedOut", "deadlocked", "skipped", "executorChanged",
    ]
    // Reports from before skipped iterations have no such counts: there were none.
    let optional: Set = ["skipped", "executorChanged"]
    let values = keys.compactMap { entry[$0] as? Int ?? (optional.contains($0) ? 0 : nil) }
    guard values.count == keys.count, values.allSatisfy({ $0 >= 0 && $0 <= tally.iterations }),
      values[1...].reduce(0, +) == values[0]
    else { throw .malformed(path: name, .replicate(run: run)) }
    return ReplicateCounts(
      iterations: values[0], passed: values[1], failed: values[2], crashed: values[3],
      timedOut: values[4], deadlocked: values[5], skipped: values[6], executorChanged: values[7])
  }

  private static func schedule(_ entry: [String: Any], name: String) throws(ReportFileError)
    -> RunSchedule
  {
    guard let seed = (entry["seed"] as? String).flatMap({ UInt64($0) }),
      let fingerprint = (entry["fingerprint"] as? String).flatMap(ScheduleText.parseHex)
    else { throw .malformed(path: name, .schedule) }
    let failing = (entry["failingIterations"] as? [[String: Any]] ?? []).compactMap {
      item -> RunSchedule.FailingIteration? in
      guard let index = item["index"] as? Int,
        let seed = (item["seed"] as? String).flatMap({ UInt64($0) }),
        let fingerprint = (item["fingerprint"] as? String).flatMap(ScheduleText.parseHex),
        let kind = item["outcome"] as? String,
        let outcome = OutcomeCoding.outcome(kind: kind, observation: item["observation"] as? String)
      else { return nil }
      return .init(index: index, seed: seed, fingerprint: fingerprint, outcome: outcome)
    }
    return RunSchedule(
      seed: seed, fingerprint: fingerprint, failingIterations: failing,
      isControlled: entry["controlled"] as? Bool ?? true)
  }
}

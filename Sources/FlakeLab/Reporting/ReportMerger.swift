/// Sums shard reports into the report of the whole measurement (`flakelab merge`).
public enum ReportMerger {
  /// Runs with the same scenario, variant and executor are added together; run order follows
  /// first appearance. Seconds add up too: the merged figure is CPU-side work, not wall time.
  public static func merge(_ reports: [Report]) throws(UsageError) -> Report {
    var seenShards = Set<Shard>()
    for shard in reports.compactMap(\.shard) where !seenShards.insert(shard).inserted {
      throw UsageError("shard \(shard.index)/\(shard.count) appears twice")
    }
    var order: [String] = []
    var merged: [String: RunResult] = [:]
    for run in reports.flatMap(\.runs) {
      let key = "\(run.selector) \(run.executor)"
      if var existing = merged[key] {
        existing.tally.merge(run.tally)
        existing.seconds += run.seconds
        if let schedule = run.schedule { existing.schedule?.merge(schedule) }
        merged[key] = existing
      } else {
        order.append(key)
        merged[key] = run
      }
    }
    return Report(
      machine: reports.first?.machine ?? .current, runs: order.compactMap { merged[$0] },
      interrupted: reports.contains(where: \.interrupted), seed: reports.first?.seed)
  }
}

/// Why reports do not merge into one measurement, with what a message needs; each report is
/// named by the path it was read from. The command line words it.
package enum MergeError: Error, Equatable {
  case noRuns(report: String)
  /// Two reports measured the tests of different packages.
  case otherPackage(report: String, path: String, first: String, firstPath: String)
  /// Two reports ran tests in different process layouts, whose global rates differ.
  case otherLayout(
    report: String, layout: TestReference.ProcessLayout, first: String,
    firstLayout: TestReference.ProcessLayout)
  case notAShard(report: String)
  case interruptedShard(report: String, Shard)
  case differentShardCounts([Int])
  case shardTwice(Shard)
  case missingShards([Int], of: Int)
  /// Scheduled runs whose shards had different seeds, so different schedules.
  case differentSeeds
  case otherRuns(report: String, first: String)
  /// One report holds the same run twice: added up, its counts would be doubled.
  case runTwice(report: String, run: RunKey)
  /// A run under an executor this flakelab does not know: not a report it made.
  case unknownExecutor(report: String, run: RunKey)
}

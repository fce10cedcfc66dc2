/// The executors a run can name with `--executor`.
public enum ExecutorCatalog {
  /// The names of every executor, in the order help texts show them.
  public static let names = ["global", "serial", "seeded", "fifo"]

  /// What `compare` runs when no `--executors` is given.
  public static let comparedByDefault = ["global", "serial"]

  /// Every executor, with `seed` for those of the deterministic scheduler.
  public static func all(seed: UInt64 = 0) -> [any IterationExecutor] {
    [
      GlobalExecutor(), SerialIterationExecutor(), ScheduledExecutor(order: .seeded, seed: seed),
      ScheduledExecutor(order: .fifo, seed: seed),
    ]
  }

  /// The executor called `name`, or an error that lists the valid names.
  public static func named(_ name: String, seed: UInt64 = 0) throws(UsageError)
    -> any IterationExecutor
  {
    if let executor = all(seed: seed).first(where: { $0.name == name }) { return executor }
    throw UsageError(
      "unknown executor '\(name)'" + Suggestion.didYouMean(name, among: names)
        + " (executors: \(names.joined(separator: ", ")))")
  }

  /// Whether runs under the executor called `name` have independent iterations; false for a
  /// name the catalog does not know (a report of another version), the cautious answer.
  public static func iterationsAreIndependent(_ name: String) -> Bool {
    (try? named(name))?.iterationsAreIndependent ?? false
  }

  /// Whether the executor called `name` needs the deterministic scheduler installed in its
  /// process.
  public static func needsScheduler(_ name: String) -> Bool {
    (try? named(name)) is ScheduledExecutor
  }
}

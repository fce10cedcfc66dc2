/// The executors a run can name with `--executor`.
public enum ExecutorCatalog {
  /// Every executor, in the order help texts and `compare` show them.
  public static let all: [any IterationExecutor] = [GlobalExecutor(), SerialIterationExecutor()]

  /// The executor called `name`, or an error that lists the valid names.
  public static func named(_ name: String) throws(UsageError) -> any IterationExecutor {
    if let executor = all.first(where: { $0.name == name }) { return executor }
    throw UsageError(
      "unknown executor '\(name)'" + Suggestion.didYouMean(name, among: all.map(\.name))
        + " (executors: \(all.map(\.name).joined(separator: ", ")))")
  }
}

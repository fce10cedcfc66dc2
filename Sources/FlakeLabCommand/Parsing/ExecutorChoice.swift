import FlakeLab

/// `--executor NAME` and `--executors LIST`: names resolved in the catalog once, here, into the
/// executors a command runs.
enum ExecutorChoice {
  /// The executors `--executor` or `--executors` name, in order and each once, ready for a run
  /// with `seed`; `defaults` when neither is given.
  static func parse(
    _ arguments: ParsedArguments, command: String, in catalog: ScenarioCatalog, seed: UInt64,
    defaults: [ExecutorID]
  ) throws(UsageError) -> [any IterationExecutor] {
    let ids: [ExecutorID] =
      switch (arguments.value("executor"), arguments.value("executors")) {
      case (let name?, nil): [ExecutorID(name)]
      case (nil, let list?):
        list.split(separator: ",", omittingEmptySubsequences: false).map { ExecutorID(String($0)) }
      case (nil, nil): defaults
      case (_?, _?): throw UsageError("\(command) takes --executor or --executors, not both")
      }
    var executors: [any IterationExecutor] = []
    for id in ids where !executors.contains(where: { $0.id == id }) {
      executors.append(
        try UsageError.mapping { () throws(ScenarioCatalog.LookupError) in
          try catalog.executor(id, seed: seed)
        })
    }
    return executors
  }

  /// The standard executors' names, comma-separated, as help texts list them.
  static func names(_ ids: [ExecutorID]) -> String {
    ids.map(\.name).joined(separator: ",")
  }
}

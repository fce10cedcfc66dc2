import FlakeLab

/// `--executor NAME` and `--executors LIST`: names resolved in the catalog once, here, into the
/// executors a command runs.
enum ExecutorChoice {
  /// `--executor NAME`, with `help`.
  static func one(_ help: String, shownDefault: String? = nil) -> Option<ExecutorID?> {
    .optional("executor", "NAME", help, shownDefault: shownDefault) { text, _ in ExecutorID(text) }
  }

  /// `--executors LIST`, comma-separated, with `defaults` shown in its help.
  static func list(_ help: String, defaults: [ExecutorID]) -> Option<[ExecutorID]?> {
    .optional("executors", "LIST", help, shownDefault: names(defaults)) { text, _ in
      text.split(separator: ",", omittingEmptySubsequences: false).map { ExecutorID(String($0)) }
    }
  }

  /// The executors `one` or `list` name, in order and each once, ready for a run with `seed`;
  /// `defaults` when neither is given.
  static func parse(
    _ arguments: ParsedArguments, one: Option<ExecutorID?>?, list: Option<[ExecutorID]?>?,
    command: String, in catalog: ScenarioCatalog, seed: UInt64, defaults: [ExecutorID]
  ) throws(UsageError) -> [any IterationExecutor] {
    let single = try one.flatMap { option throws(UsageError) in try arguments[option] }
    let several = try list.flatMap { option throws(UsageError) in try arguments[option] }
    let ids: [ExecutorID] =
      switch (single, several) {
      case (let id?, nil): [id]
      case (nil, let ids?): ids
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

  /// Executors' names, comma-separated, as help texts list them.
  static func names(_ ids: [ExecutorID]) -> String {
    ids.map(\.name).joined(separator: ",")
  }
}

import FlakeLab

/// `flakelab worker`: the hidden command the supervisor starts; runs one batch of iterations and
/// publishes each outcome on the channel it was handed. Not for people to run.
struct WorkerCommand: Command {
  static let name = WorkerInvocation.command
  static let abstract = "Run a batch of iterations for a supervising flakelab (internal)."
  static let usage = "worker <selector> <executor> <seed> <from> <to>"
  static let discussion =
    "Started by '\(Program.name) run', 'compare' and 'check'; expects the outcome channel on descriptor 3."
  static let options: [OptionSpec] = []
  static let isHidden = true

  let variant: Variant
  /// Resolved once, here: whether the process needs the scheduler is the executor's to say.
  let executor: any IterationExecutor
  let indices: Range<Int>

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    guard let invocation = WorkerInvocation(arguments: arguments.positionals) else {
      throw UsageError("usage: \(Program.name) \(Self.usage)")
    }
    (_, variant) = try UsageError.mapping { () throws(ScenarioCatalog.LookupError) in
      try catalog.variant(invocation.selector)
    }
    executor = try UsageError.mapping { () throws(ScenarioCatalog.LookupError) in
      try catalog.executor(invocation.executor, seed: invocation.seed)
    }
    indices = invocation.indices
  }

  var needsDeterministicScheduler: Bool { executor.needsDeterministicScheduler }

  /// Only where the runtime's executor is the one measured: on one queue the lab fixes the order
  /// of jobs, and so started the serial executor's iterations took 1.13× as long (alternating pairs of whole runs).
  var startsAsAnAsyncMain: Bool { executor.harnessMechanism == .untouched }

  func run() async throws -> ExitStatus {
    try await WorkerEntry.run(variant, on: executor, indices: indices)
    return .success
  }
}

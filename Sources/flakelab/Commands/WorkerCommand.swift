import FlakeLab
import Scenarios

/// `flakelab worker`: the hidden command the supervisor starts; runs one batch of iterations and
/// publishes each outcome on the channel it was handed. Not for people to run.
struct WorkerCommand: Command {
  static let name = WorkerInvocation.command
  static let abstract = "Run a batch of iterations for a supervising flakelab (internal)."
  static let usage = "worker <selector> <executor> <seed> <from> <to>"
  static let discussion = "Started by 'flakelab run' and 'compare'; expects the outcome channel on descriptor 3."
  static let options: [OptionSpec] = []
  static let isHidden = true

  let invocation: WorkerInvocation

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard let invocation = WorkerInvocation(arguments: arguments.positionals) else {
      throw UsageError("usage: flakelab \(Self.usage)")
    }
    self.invocation = invocation
  }

  var needsDeterministicScheduler: Bool {
    ExecutorCatalog.needsScheduler(invocation.executor)
  }

  func run() async throws -> ExitStatus {
    try await WorkerEntry.run(invocation, catalog: .standard)
    return .success
  }
}

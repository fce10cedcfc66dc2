/// The hidden command line of a worker process: which run, which iterations.
///
/// The supervisor builds it; the `flakelab worker` command parses it back. Both sides live here
/// so the two can never disagree.
package struct WorkerInvocation: Equatable, Sendable {
  /// The subcommand name, hidden from help.
  package static let command = "worker"

  package let selector: String
  package let executor: ExecutorID
  /// The run's seed, from which the deterministic scheduler derives each iteration's seed.
  package let seed: UInt64
  package let indices: Range<Int>

  package init(selector: String, executor: ExecutorID, seed: UInt64, indices: Range<Int>) {
    self.selector = selector
    self.executor = executor
    self.seed = seed
    self.indices = indices
  }

  /// The arguments after the executable.
  package var arguments: [String] {
    [
      Self.command, selector, executor.name, String(seed), String(indices.lowerBound),
      String(indices.upperBound),
    ]
  }

  /// Reads the arguments after `worker` back.
  package init?(arguments: [String]) {
    guard arguments.count == 5, let seed = UInt64(arguments[2]), let from = Int(arguments[3]),
      let to = Int(arguments[4]), from <= to
    else { return nil }
    self.init(selector: arguments[0], executor: ExecutorID(arguments[1]), seed: seed, indices: from..<to)
  }
}

/// The hidden command line of a worker process: which run, which iterations.
///
/// The supervisor builds it; the `flakelab worker` command parses it back. Both sides live here
/// so the two can never disagree.
public struct WorkerInvocation: Equatable, Sendable {
  /// The subcommand name, hidden from help.
  public static let command = "worker"

  public let selector: String
  public let executor: String
  public let indices: Range<Int>

  public init(selector: String, executor: String, indices: Range<Int>) {
    self.selector = selector
    self.executor = executor
    self.indices = indices
  }

  /// The arguments after the executable.
  public var arguments: [String] {
    [Self.command, selector, executor, String(indices.lowerBound), String(indices.upperBound)]
  }

  /// Reads the arguments after `worker` back.
  public init?(arguments: [String]) {
    guard arguments.count == 4, let from = Int(arguments[2]), let to = Int(arguments[3]),
      from <= to
    else { return nil }
    self.init(selector: arguments[0], executor: arguments[1], indices: from..<to)
  }
}

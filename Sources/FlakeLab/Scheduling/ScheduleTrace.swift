import Foundation

/// One step of an iteration's schedule, for `replay --trace`.
public struct ScheduleStep: Sendable {
  public enum Kind: String, Sendable {
    /// A job of a main-actor-isolated task.
    case mainActor = "main actor"
    /// A job bound for the default (global) executor.
    case global
  }

  public let number: Int
  /// `task 3`: the runtime's task id, renumbered from 1 in the order tasks first ran in the
  /// iteration, so traces compare across processes; `job` for a job that is not a task.
  public let label: String
  public let kind: Kind
  /// Set when the job was a sleeper whose virtual deadline had come.
  public let firedTimerAt: Duration?
  /// The choice made to run it: the pick and how many jobs were ready; nil when only one was.
  public let choice: (pick: Int, of: Int)?

  public var description: String {
    var line = "step \(number): \(label) (\(kind.rawValue) job)"
    if let fired = firedTimerAt { line += ", a sleeper woken at \(VirtualTime.text(fired))" }
    if let choice { line += ", chosen \(choice.pick + 1) of \(choice.of) ready" }
    return line
  }
}

/// How virtual time reads in reports: `0 s`, `1.000 s`.
enum VirtualTime {
  static func text(_ duration: Duration) -> String {
    let milliseconds = duration.components.seconds * 1000
      + duration.components.attoseconds / 1_000_000_000_000_000
    return milliseconds == 0 ? "0 s" : "\(milliseconds / 1000).\(String(format: "%03d", milliseconds % 1000)) s"
  }
}

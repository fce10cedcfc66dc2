import Foundation

/// One step of an iteration's schedule, for `replay --trace`.
package struct ScheduleStep: Sendable {
  package enum Kind: String, Sendable {
    /// A job of a main-actor-isolated task.
    case mainActor = "main actor"
    /// A job bound for the default (global) executor.
    case global
  }

  package let number: Int
  /// `task 3`: the runtime's task id, renumbered from 1 in the order tasks first ran in the
  /// iteration, so traces compare across processes; `job` for a job that is not a task.
  package let label: String
  package let kind: Kind
  /// Set when the job was a sleeper whose virtual deadline had come.
  package let firedTimerAt: Duration?
  /// The choice made to run it: the pick and how many jobs were ready; nil when only one was.
  package let choice: (pick: Int, of: Int)?

  package var description: String {
    var line = "step \(number): \(label) (\(kind.rawValue) job)"
    if let fired = firedTimerAt { line += ", a sleeper woken at \(VirtualTime.text(fired))" }
    if let choice { line += ", chosen \(choice.pick + 1) of \(choice.of) ready" }
    return line
  }
}

/// Virtual time: how a sleep's delay becomes a deadline, and how it reads in reports (`1.000 s`).
package enum VirtualTime {
  /// `delay` rounded to whole milliseconds. The rounding absorbs the microseconds between a
  /// sleep computing its deadline on the real clock and reaching the scheduler, so equal sleeps
  /// get equal virtual deadlines.
  package static func rounded(_ delay: Duration) -> Duration {
    let milliseconds =
      (Double(delay.components.seconds) * 1000
      + Double(delay.components.attoseconds) * 1e-15).rounded()
    return .milliseconds(Int64(max(0, milliseconds)))
  }

  static func text(_ duration: Duration) -> String {
    let milliseconds =
      duration.components.seconds * 1000
      + duration.components.attoseconds / 1_000_000_000_000_000
    return milliseconds == 0 ? "0 s" : "\(milliseconds / 1000).\(String(format: "%03d", milliseconds % 1000)) s"
  }
}

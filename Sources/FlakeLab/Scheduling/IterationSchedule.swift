/// What the deterministic scheduler saw of one iteration: its choices, steps and trace, and a
/// deadlock if it found one.
///
/// ``IterationExecutor/run(_:_:)`` returns it. An executor of one's own that leaves the order to
/// the runtime returns nil; only the lab's scheduler makes one.
public struct IterationSchedule: Sendable {
  package let choices: ScheduleChoices
  /// Jobs the iteration ran before it finished.
  package let steps: Int
  /// The deadlock observation, when the iteration could never finish.
  package let deadlock: String?
  /// Every step, when tracing was asked for.
  package let trace: [ScheduleStep]
  /// The virtual clock when the iteration ended.
  package let virtualTime: Duration

  package var fingerprint: UInt64 { choices.fingerprint }
}

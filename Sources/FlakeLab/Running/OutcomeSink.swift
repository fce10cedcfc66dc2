/// Where the worker loop puts each iteration's outcome: a ``Tally`` in this process, or the
/// stream a worker process sends to its supervisor.
package protocol OutcomeSink {
  /// `schedule` is the iteration's schedule under the deterministic scheduler, nil otherwise.
  mutating func record(_ outcome: Outcome, at index: Int, schedule: IterationSchedule?)
}

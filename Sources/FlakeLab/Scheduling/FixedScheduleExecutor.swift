/// The deterministic scheduler with one given policy for every iteration: how `replay` reruns a
/// seed or a path, and how `explore` walks schedules.
package struct FixedScheduleExecutor: IterationExecutor {
  package let policy: SchedulePolicy
  /// Whether to keep every step for `replay --trace`.
  package let tracing: Bool

  package init(policy: SchedulePolicy, tracing: Bool = false) {
    self.policy = policy
    self.tracing = tracing
  }

  /// A directed path walks the seeded executor's choices one by one.
  package var id: ExecutorID {
    switch policy {
    case .fifo: .fifo
    case .seeded, .directed: .seeded
    }
  }

  package var summary: String { "the deterministic scheduler with a fixed policy" }

  @MainActor
  package func run(_ iteration: Iteration, _ body: @escaping Variant.Body) async
    -> IterationSchedule?
  {
    await DeterministicScheduler.shared.runIteration(policy: policy, tracing: tracing) {
      await iteration.perform(body)
    }
  }
}

/// The deterministic scheduler with one given policy for every iteration: how `replay` reruns a
/// seed or a path, and how `explore` walks schedules.
public struct FixedScheduleExecutor: IterationExecutor {
  public let policy: SchedulePolicy
  /// Whether to keep every step for `replay --trace`.
  public let tracing: Bool

  public init(policy: SchedulePolicy, tracing: Bool = false) {
    self.policy = policy
    self.tracing = tracing
  }

  public var name: String {
    switch policy {
    case .fifo: "fifo"
    case .seeded: "seeded"
    case .directed: "directed"
    }
  }

  public var summary: String { "the deterministic scheduler with a fixed policy" }

  @MainActor
  public func run(_ iteration: Iteration, _ body: @escaping Variant.Body) async
    -> IterationSchedule?
  {
    await DeterministicScheduler.shared.runIteration(policy: policy, tracing: tracing) {
      await iteration.perform(body)
    }
  }
}

/// Runs each iteration inside ``withSerialExecutor(_:)-(()async throws->Result)``: every job the
/// runtime would send to the global pool goes to the main actor's serial queue instead, and the
/// runtime is restored after the iteration, also when it fails.
public struct SerialIterationExecutor: IterationExecutor {
  public var name: String { "serial" }
  public var summary: String { "every global job goes to the main actor's serial queue" }

  public init() {}

  @MainActor
  public func run(_ iteration: Iteration, _ body: @escaping @Sendable () async -> Void) async
    -> IterationSchedule?
  {
    await withSerialExecutor { await body() }
    return nil
  }
}

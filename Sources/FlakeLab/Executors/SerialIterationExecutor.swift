/// Runs each iteration as `withSerialExecutor(_:)` would: every job
/// the runtime would send to the global pool goes to the main actor's serial queue instead, and
/// the runtime is restored after the iteration, also when it fails (a failing iteration returns
/// normally: its checks and throws are recorded by the ``Iteration``).
public struct SerialIterationExecutor: IterationExecutor {
  public var id: ExecutorID { .serial }
  public var summary: String { "every global job goes to the main actor's serial queue" }
  /// One job at a time on one queue, in the order the code enqueues them.
  public var iterationsAreIndependent: Bool { true }
  public var harnessMechanism: HarnessMechanism? { .mainQueueRedirect }

  public init() {}

  @MainActor
  public func run(_ iteration: Iteration, _ body: @escaping Variant.Body) async
    -> IterationSchedule?
  {
    // withSerialExecutor's own steps, inline: this is the per-iteration path.
    let previous = GlobalEnqueueHook.current
    GlobalEnqueueHook.current = GlobalEnqueueHook.mainActorRedirect
    await iteration.perform(body)
    GlobalEnqueueHook.current = previous
    return nil
  }
}

extension ExecutorID {
  /// Every global job on the main actor's queue (``SerialIterationExecutor``).
  public static let serial = ExecutorID("serial")
}

/// Swift's default global executor, untouched: tasks run on the cooperative thread pool, as they
/// do in a user's tests. How often a racy test fails under it depends on the machine's cores and
/// load, which is why reports carry the core count.
public struct GlobalExecutor: IterationExecutor {
  public var id: ExecutorID { .global }
  public var summary: String { "Swift's default executor: a thread pool, in no fixed order" }
  /// A test process needs nothing: the runtime's own executor is the one measured.
  public var harnessMechanism: HarnessMechanism? { .untouched }

  public init() {}

  @MainActor
  public func run(_ iteration: Iteration, _ body: @escaping Variant.Body) async
    -> IterationSchedule?
  {
    await iteration.perform(body)
    return nil
  }
}

extension ExecutorID {
  /// Swift's default executor (``GlobalExecutor``).
  public static let global = ExecutorID("global")
}

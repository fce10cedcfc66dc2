import FlakeLab

extension ExecutorID {
  static let detached = ExecutorID("detached")
}

/// Runs each iteration's body in a detached task, off the main actor, as Swift Testing runs a
/// test that is not `@MainActor`: an executor of this lab's own, beside FlakeLab's.
struct DetachedExecutor: IterationExecutor {
  var id: ExecutorID { .detached }
  var summary: String { "the body in a detached task, off the main actor" }

  @MainActor
  func run(_ iteration: Iteration, _ body: @escaping Variant.Body) async -> IterationSchedule? {
    await Task.detached { await iteration.perform(body) }.value
    return nil
  }
}

/// Runs `operation` with every job bound for the global executor sent to the main actor instead.
///
/// Swift's global executor runs tasks on a thread pool, in an order nobody controls, so an async
/// test that checks an intermediate state (`isLoading` right after a tap) passes or fails by luck.
/// Inside this scope, tasks, task-group children and `Task.yield()` resumptions all queue on the
/// main actor's one serial queue and run one at a time in the order they were enqueued:
///
/// ```swift
/// await withSerialExecutor {
///   let task = Task { await model.getFactButtonTapped() }
///   await Task.yield()
///   #expect(model.isLoading)   // the task has run up to its first suspension
///   await task.value
/// }
/// ```
///
/// The previous state is restored when the operation returns or throws. This is the behaviour of
/// swift-concurrency-extras' `withMainSerialExecutor`, written on the toolchain alone.
///
/// > Warning: The main queue must be drained for anything to run: by an async `@main`,
/// > `dispatchMain()`, or XCTest's main run loop. The redirection is process-wide, so work other
/// > code starts meanwhile is serialized too; and a serial order hides races that real users hit,
/// > so keep it to tests whose subject is not concurrency itself (`flakelab run toggleRace`
/// > shows what it hides).
///
/// - Parameter operation: the test, or the part of it, to run serially.
/// - Returns: what `operation` returns.
/// - Throws: what `operation` throws, after the runtime is restored.
@MainActor
public func withSerialExecutor<Result>(
  _ operation: @MainActor () async throws -> Result
) async rethrows -> Result {
  let previous = GlobalEnqueueHook.current
  GlobalEnqueueHook.current = GlobalEnqueueHook.mainActorRedirect
  defer { GlobalEnqueueHook.current = previous }
  return try await operation()
}

/// The synchronous form of `withSerialExecutor(_:)`, for wrapping a
/// whole XCTest invocation:
///
/// ```swift
/// override func invokeTest() {
///   withSerialExecutor { super.invokeTest() }
/// }
/// ```
///
/// - Parameter operation: the synchronous work during which async jobs run serially.
/// - Returns: what `operation` returns.
/// - Throws: what `operation` throws, after the runtime is restored.
public func withSerialExecutor<Result>(_ operation: () throws -> Result) rethrows -> Result {
  let previous = GlobalEnqueueHook.current
  GlobalEnqueueHook.current = GlobalEnqueueHook.mainActorRedirect
  defer { GlobalEnqueueHook.current = previous }
  return try operation()
}

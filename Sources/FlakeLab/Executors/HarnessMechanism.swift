/// How the harness `flakelab test` preloads into a package's test binary puts that process under
/// an executor (``IterationExecutor/harnessMechanism``).
///
/// A test binary runs its own tests, not a variant's body, so an executor's ``IterationExecutor/run(_:_:)``
/// cannot run there: the harness can only install one of these mechanisms before the first task
/// exists. An executor that declares none runs scenarios only.
public enum HarnessMechanism: String, Sendable, CaseIterable {
  /// Nothing to install: the runtime's own global executor.
  case untouched
  /// The runtime's global-enqueue hook sends every global job to the main actor's queue.
  case mainQueueRedirect
  /// The harness's scheduler on the main thread, first in, first out.
  case fifoScheduler
  /// The harness's scheduler on the main thread, in an order seeded per iteration.
  case seededScheduler
}

extension HarnessMechanism {
  /// Whether a suite pass may run tests side by side under this mechanism, as `swift test` runs
  /// Swift Testing's: not when every job goes to one queue, which runs one test at a time.
  package var runsTestsInParallel: Bool { self == .untouched }
}

@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import Foundation

/// The main and default executors the deterministic scheduler installs: both hand every job,
/// and every sleeper, to ``DeterministicScheduler``; the main executor's run loop runs them.
final class LabMainExecutor: MainExecutor, SchedulingExecutor, @unchecked Sendable {
  static let shared = LabMainExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    DeterministicScheduler.shared.enqueue(UnownedJob(job), kind: .mainActor)
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
  ) {
    DeterministicScheduler.shared.enqueue(
      UnownedJob(job), kind: .mainActor, after: delay as? Duration ?? .zero)
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
  ) {
    DeterministicScheduler.shared.enqueue(
      UnownedJob(job), kind: .mainActor,
      after: clock.now.duration(to: instant) as? Duration ?? .zero)
  }

  func run() throws {
    DeterministicScheduler.shared.run(
      main: asUnownedSerialExecutor(), global: LabDefaultExecutor.shared.asUnownedTaskExecutor())
  }

  func stop() {}

  func isIsolatingCurrentContext() -> Bool? {
    Thread.isMainThread
  }
}

final class LabDefaultExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
  static let shared = LabDefaultExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    DeterministicScheduler.shared.enqueue(UnownedJob(job), kind: .global)
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
  ) {
    DeterministicScheduler.shared.enqueue(
      UnownedJob(job), kind: .global, after: delay as? Duration ?? .zero)
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
  ) {
    DeterministicScheduler.shared.enqueue(
      UnownedJob(job), kind: .global, after: clock.now.duration(to: instant) as? Duration ?? .zero)
  }
}

enum LabExecutorFactory: ExecutorFactory {
  static var mainExecutor: any MainExecutor { LabMainExecutor.shared }
  static var defaultExecutor: any TaskExecutor { LabDefaultExecutor.shared }
}

@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import Foundation

/// An executor that hands every job, and every sleeper, to ``DeterministicScheduler``, marked
/// with the kind of job it receives.
protocol SchedulerFeedingExecutor: SchedulingExecutor {
  var jobKind: ScheduleStep.Kind { get }
}

extension SchedulerFeedingExecutor {
  func enqueue(_ job: consuming ExecutorJob) {
    DeterministicScheduler.shared.enqueue(UnownedJob(job), kind: jobKind)
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
  ) {
    DeterministicScheduler.shared.enqueue(
      UnownedJob(job), kind: jobKind, after: delay as? Duration ?? .zero)
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
  ) {
    DeterministicScheduler.shared.enqueue(
      UnownedJob(job), kind: jobKind, after: clock.now.duration(to: instant) as? Duration ?? .zero)
  }
}

/// The main executor the scheduler installs; its run loop is the scheduler's.
final class LabMainExecutor: MainExecutor, SchedulerFeedingExecutor, @unchecked Sendable {
  static let shared = LabMainExecutor()
  let jobKind = ScheduleStep.Kind.mainActor

  func run() throws {
    DeterministicScheduler.shared.run(
      main: asUnownedSerialExecutor(), global: LabDefaultExecutor.shared.asUnownedTaskExecutor())
  }

  func stop() {}

  func isIsolatingCurrentContext() -> Bool? {
    Thread.isMainThread
  }
}

/// The default (global) executor the scheduler installs.
final class LabDefaultExecutor: TaskExecutor, SchedulerFeedingExecutor, @unchecked Sendable {
  static let shared = LabDefaultExecutor()
  let jobKind = ScheduleStep.Kind.global
}

enum LabExecutorFactory: ExecutorFactory {
  static var mainExecutor: any MainExecutor { LabMainExecutor.shared }
  static var defaultExecutor: any TaskExecutor { LabDefaultExecutor.shared }
}

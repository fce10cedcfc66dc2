import Foundation
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

/// Where the lab's executors hand their jobs: the lab's own scheduler, or the one the harness
/// runs in a package's test process.
package protocol JobScheduler: AnyObject, Sendable {
  func enqueue(_ job: UnownedJob, kind: ScheduleStep.Kind)
  func enqueue(_ job: UnownedJob, kind: ScheduleStep.Kind, after delay: Duration)
}

/// An executor that hands every job, and every sleeper, to its ``JobScheduler``, marked with the
/// kind of job it receives.
package protocol SchedulerFeedingExecutor: SchedulingExecutor {
  var jobKind: ScheduleStep.Kind { get }
  var scheduler: any JobScheduler { get }
}

extension SchedulerFeedingExecutor {
  package func enqueue(_ job: consuming ExecutorJob) {
    scheduler.enqueue(UnownedJob(job), kind: jobKind)
  }

  package func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
  ) {
    scheduler.enqueue(UnownedJob(job), kind: jobKind, after: delay as? Duration ?? .zero)
  }

  package func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
  ) {
    scheduler.enqueue(
      UnownedJob(job), kind: jobKind, after: clock.now.duration(to: instant) as? Duration ?? .zero)
  }
}

/// The main executor the scheduler installs; its run loop is the scheduler's.
final class LabMainExecutor: MainExecutor, SchedulerFeedingExecutor, @unchecked Sendable {
  static let shared = LabMainExecutor()
  let jobKind = ScheduleStep.Kind.mainActor
  var scheduler: any JobScheduler { DeterministicScheduler.shared }

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
  var scheduler: any JobScheduler { DeterministicScheduler.shared }
}

enum LabExecutorFactory: ExecutorFactory {
  static var mainExecutor: any MainExecutor { LabMainExecutor.shared }
  static var defaultExecutor: any TaskExecutor { LabDefaultExecutor.shared }
}

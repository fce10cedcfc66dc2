import Dispatch
import FlakeLab
import Foundation
import Synchronization
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

/// The `fifo` and `seeded` executors inside a user's test process: every job, main-actor and
/// global alike, runs one at a time on the main queue, the next one chosen first-in first-out
/// or by a seeded generator.
///
/// Sleeps run in real time. A user's test talks to things the scheduler cannot see (sockets,
/// Dispatch, threads of its own), which wake its tasks when they are done; virtual time would
/// run a five-second timeout out before a reply that takes twenty milliseconds, and report a
/// failure the lab invented. So the schedule is the scheduler's only as long as nothing else
/// wakes a task: when a job is enqueued from a thread outside the scheduler, or a sleeper wakes
/// while other jobs wait, the order depends on timing, and the process tells the supervisor once
/// (`scheduleUncontrolled`) that its failing iterations cannot be replayed by seed.
///
/// The lab's own scheduler runs its main loop itself; here the test framework owns the main
/// thread (XCTest spins its run loop and never calls an executor's `run()`). So every enqueued
/// job posts one block to the main queue, and each block runs one ready job, the one the policy
/// picks at that moment. Both frameworks drain the main queue, so both run this way.
///
/// Each iteration is scheduled with its own seed, `SplitMix64.iterationSeed(runSeed:index:)`,
/// reset when the iteration starts, so one failing iteration can be replayed alone.
final class MainQueueScheduler: JobScheduler, @unchecked Sendable {
  static let shared = MainQueueScheduler()

  private struct State {
    var ready = ReadyJobs()
    var generator: SplitMix64?
    var enqueuedJobs = 0
    /// Set once something outside the scheduler decided when a job became ready.
    var isUncontrolled = false
    var hasToldUncontrolled = false
  }

  private let state = Mutex(State())
  nonisolated(unsafe) private var configuration: HarnessConfiguration?
  /// Set for Swift Testing under `seeded`: where iteration starts are seen.
  nonisolated(unsafe) var iterationWatch: SwiftTestingIterationWatch?

  /// Makes this scheduler the process's main and default executor. Call before any task exists.
  static func install(_ configuration: HarnessConfiguration) {
    shared.configuration = configuration
    _ = HarnessMainExecutor.mainQueueKey  // marks the main queue before any job can ask
    _createExecutors(factory: HarnessExecutorFactory.self)
    if configuration.mechanism == .seededScheduler, configuration.framework == .swiftTesting,
      !configuration.isProbe
    {
      shared.iterationWatch = SwiftTestingIterationWatch(
        testIDs: configuration.testIDs, channel: configuration.channel
      ) { run in
        shared.beginIteration(configuration.firstIndex + run)
      }
    }
  }

  var enqueuedJobs: Int { state.withLock { $0.enqueuedJobs } }

  /// Reseeds the generator for the iteration with global index `index`.
  func beginIteration(_ index: Int) {
    guard let configuration, configuration.mechanism == .seededScheduler else { return }
    let seed = SplitMix64.iterationSeed(runSeed: configuration.seed, index: index)
    state.withLock { $0.generator = SplitMix64(seed: seed) }
  }

  package func enqueue(_ job: UnownedJob, kind: ScheduleStep.Kind) {
    // The main thread (XCTest's, before its run loop turns) and main-queue blocks are the
    // scheduler's; any other thread is a socket, a Dispatch queue or a thread of the test's.
    let isOutside = !Self.isOnSchedulerThread
    state.withLock {
      $0.ready.append(job, kind: kind)
      $0.enqueuedJobs += 1
      if isOutside { $0.isUncontrolled = true }
    }
    DispatchQueue.main.async { MainQueueScheduler.shared.runOne() }
  }

  /// A sleeper becomes ready when its time has passed, in real time.
  package func enqueue(_ job: UnownedJob, kind: ScheduleStep.Kind, after delay: Duration) {
    let (seconds, attoseconds) = delay.components
    let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
    let wake = { @Sendable in
      MainQueueScheduler.shared.state.withLock {
        // Whether it comes before or after the jobs already waiting is a matter of timing.
        if !$0.ready.isEmpty { $0.isUncontrolled = true }
        $0.ready.append(job, kind: kind)
      }
      MainQueueScheduler.shared.runOne()
    }
    DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds)), execute: wake)
  }

  private static var isOnSchedulerThread: Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: HarnessMainExecutor.mainQueueKey) == true
  }

  /// Runs the ready job the policy picks.
  private func runOne() {
    iterationWatch?.pump()
    tellUncontrolledOnce()
    let next = state.withLock { state in state.ready.takeNext(using: &state.generator) }
    next?.run(
      seededOrder: configuration?.mechanism == .seededScheduler,
      main: HarnessMainExecutor.shared.asUnownedSerialExecutor(),
      global: HarnessDefaultExecutor.shared.asUnownedTaskExecutor())
  }

  /// Tells the supervisor, once, that this process's schedule was not the scheduler's alone.
  /// Written from a main-queue block, between jobs, where no event of the test's is half
  /// written.
  private func tellUncontrolledOnce() {
    let tell = state.withLock { state -> Bool in
      guard state.isUncontrolled, !state.hasToldUncontrolled else { return false }
      state.hasToldUncontrolled = true
      return true
    }
    if tell { EventOutput.write(.scheduleUncontrolled) }
  }
}

final class HarnessMainExecutor: MainExecutor, SchedulerFeedingExecutor, @unchecked Sendable {
  static let shared = HarnessMainExecutor()
  let jobKind = ScheduleStep.Kind.mainActor
  var scheduler: any JobScheduler { MainQueueScheduler.shared }

  /// Called by an async `main` (Swift Testing's runner); jobs run from main-queue blocks.
  func run() throws {
    dispatchMain()
  }

  func stop() {}

  /// On the main queue, wherever it runs: after `dispatchMain()` on Linux, Dispatch drains the
  /// main queue on a thread of its own, not the main thread.
  func isIsolatingCurrentContext() -> Bool? {
    DispatchQueue.getSpecific(key: Self.mainQueueKey) ?? false
  }

  static let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()
}

final class HarnessDefaultExecutor: TaskExecutor, SchedulerFeedingExecutor, @unchecked Sendable {
  static let shared = HarnessDefaultExecutor()
  let jobKind = ScheduleStep.Kind.global
  var scheduler: any JobScheduler { MainQueueScheduler.shared }
}

enum HarnessExecutorFactory: ExecutorFactory {
  static var mainExecutor: any MainExecutor { HarnessMainExecutor.shared }
  static var defaultExecutor: any TaskExecutor { HarnessDefaultExecutor.shared }
}

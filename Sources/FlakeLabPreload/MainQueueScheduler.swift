@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import Dispatch
import FlakeLab
import Foundation
import Synchronization

/// The `fifo` and `seeded` executors inside a user's test process: every job, main-actor and
/// global alike, runs one at a time on the main queue, the next one chosen first-in first-out
/// or by a seeded generator, with sleeps in virtual time.
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

  private struct ReadyJob {
    let job: UnownedJob
    let kind: ScheduleStep.Kind
  }

  private struct Sleeper {
    let deadline: Duration
    let sequence: Int
    let job: ReadyJob
  }

  private struct State {
    var ready: [ReadyJob] = []
    var sleepers: [Sleeper] = []
    var sequence = 0
    var now: Duration = .zero
    var generator: SplitMix64?
    var enqueuedJobs = 0
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
    if configuration.executor == .seeded, configuration.test.framework == .swiftTesting,
      !configuration.isProbe
    {
      shared.iterationWatch = SwiftTestingIterationWatch(
        testID: configuration.test.id, channel: configuration.channel
      ) { started in
        shared.beginIteration(configuration.firstIndex + started)
      }
    }
  }

  var enqueuedJobs: Int { state.withLock { $0.enqueuedJobs } }

  /// Reseeds the generator for the iteration with global index `index`.
  func beginIteration(_ index: Int) {
    guard let configuration, configuration.executor == .seeded else { return }
    let seed = SplitMix64.iterationSeed(runSeed: configuration.seed, index: index)
    state.withLock { $0.generator = SplitMix64(seed: seed) }
  }

  package func enqueue(_ job: UnownedJob, kind: ScheduleStep.Kind) {
    state.withLock {
      $0.ready.append(ReadyJob(job: job, kind: kind))
      $0.enqueuedJobs += 1
    }
    DispatchQueue.main.async { MainQueueScheduler.shared.runOne() }
  }

  package func enqueue(_ job: UnownedJob, kind: ScheduleStep.Kind, after delay: Duration) {
    state.withLock {
      $0.sequence += 1
      $0.sleepers.append(
        Sleeper(
          deadline: $0.now + VirtualTime.rounded(delay), sequence: $0.sequence,
          job: ReadyJob(job: job, kind: kind)))
    }
    DispatchQueue.main.async { MainQueueScheduler.shared.wakeSleepersWhenIdle() }
  }

  /// Runs the ready job the policy picks.
  private func runOne() {
    iterationWatch?.pump()
    let next = state.withLock { state -> ReadyJob? in
      guard !state.ready.isEmpty else { return nil }
      var index = 0
      if state.ready.count > 1, var generator = state.generator {
        index = Int(generator.next(upperBound: UInt64(state.ready.count)))
        state.generator = generator
      }
      return state.ready.remove(at: index)
    }
    guard let next else { return }
    if next.kind == .global, configuration?.executor == .seeded {
      next.job.runSynchronously(on: HarnessDefaultExecutor.shared.asUnownedTaskExecutor())
    } else {
      // Under fifo global jobs run on the main actor, as the serial executor runs them.
      next.job.runSynchronously(on: HarnessMainExecutor.shared.asUnownedSerialExecutor())
    }
  }

  /// Virtual time: once nothing is ready, the earliest sleepers wake at once.
  private func wakeSleepersWhenIdle() {
    let woken = state.withLock { state -> Int? in
      guard !state.sleepers.isEmpty else { return 0 }
      guard state.ready.isEmpty else { return nil }
      let deadline = state.sleepers.map(\.deadline).min()!
      state.now = max(state.now, deadline)
      let due = state.sleepers.filter { $0.deadline == deadline }.sorted { $0.sequence < $1.sequence }
      state.sleepers.removeAll { $0.deadline == deadline }
      state.ready += due.map(\.job)
      return due.count
    }
    guard let woken else {
      // Jobs are ready: try again after them.
      DispatchQueue.main.async { MainQueueScheduler.shared.wakeSleepersWhenIdle() }
      return
    }
    for _ in 0..<woken { DispatchQueue.main.async { MainQueueScheduler.shared.runOne() } }
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

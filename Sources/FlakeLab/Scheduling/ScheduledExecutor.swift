/// The executors of the deterministic scheduler: every job of an iteration runs one at a time,
/// in an order chosen by a seeded generator (`seeded`) or first-in, first-out (`fifo`, which
/// gives the serial executor's results), with sleeps in virtual time.
///
/// Only usable in a process where `DeterministicScheduler.install()` ran; the lab's workers
/// for these executors are such processes.
public struct ScheduledExecutor: IterationExecutor {
  /// How the scheduler picks among the jobs that are ready.
  public enum Order: Sendable {
    /// By a generator seeded per iteration: many interleavings, each replayable.
    case seeded
    /// First in, first out: the serial executor's order, in virtual time.
    case fifo
  }

  public let order: Order
  /// The run's seed; each iteration's own seed is derived from it and its index.
  public let seed: UInt64

  /// An executor of the deterministic scheduler.
  ///
  /// - Parameters:
  ///   - order: how ready jobs are picked.
  ///   - seed: the run's seed; ``forRun(seed:)`` sets it for a run.
  public init(order: Order, seed: UInt64 = 0) {
    self.order = order
    self.seed = seed
  }

  public var id: ExecutorID {
    switch order {
    case .seeded: .seeded
    case .fifo: .fifo
    }
  }
  /// One job at a time, in an order fixed by the iteration's seed (or first-in, first-out).
  public var iterationsAreIndependent: Bool { true }

  public var needsDeterministicScheduler: Bool { true }

  public var harnessMechanism: HarnessMechanism? {
    switch order {
    case .seeded: .seededScheduler
    case .fifo: .fifoScheduler
    }
  }

  /// This executor with the run's seed, from which each iteration's seed derives.
  ///
  /// - Parameter seed: the run's seed.
  /// - Returns: the executor for that run.
  public func forRun(seed: UInt64) -> ScheduledExecutor {
    ScheduledExecutor(order: order, seed: seed)
  }

  public var summary: String {
    switch order {
    case .seeded:
      "one job at a time in a seeded random order, virtual time; replayable by seed"
    case .fifo:
      "one job at a time first-in first-out, virtual time: the serial executor's order"
    }
  }

  /// The policy of the iteration with `index`.
  package func policy(forIteration index: Int) -> SchedulePolicy {
    switch order {
    case .seeded: .seeded(SplitMix64.iterationSeed(runSeed: seed, index: index))
    case .fifo: .fifo
    }
  }

  @MainActor
  public func run(_ iteration: Iteration, _ body: @escaping Variant.Body) async
    -> IterationSchedule?
  {
    await DeterministicScheduler.shared.runIteration(
      policy: policy(forIteration: iteration.index)
    ) { await iteration.perform(body) }
  }
}

extension ExecutorID {
  /// The deterministic scheduler in a seeded order (``ScheduledExecutor``).
  public static let seeded = ExecutorID("seeded")
  /// The deterministic scheduler, first in first out (``ScheduledExecutor``).
  public static let fifo = ExecutorID("fifo")
}

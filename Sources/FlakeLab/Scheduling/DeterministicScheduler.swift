import Foundation
import Synchronization
@_spi(ExperimentalCustomExecutors) import _Concurrency

/// Runs every job of an iteration, main-actor jobs and global jobs alike, one at a time on the
/// main thread, in an order its ``SchedulePolicy`` chooses, with sleeps in virtual time.
///
/// The serial executor makes a test deterministic by choosing one order. This scheduler chooses
/// among the orders the runtime allows: whenever two or more jobs are ready, a seeded generator
/// (or FIFO, or a directed path) picks one. The same seed gives the same choices, hence the same
/// schedule and outcome; the choices' hash is the iteration's fingerprint.
///
/// - Virtual time: a sleeper's deadline is its duration past the virtual now (millisecond
///   resolution). When no job is ready, time jumps to the earliest deadline.
/// - Deadlock: when nothing is ready, no sleeper is pending and the iteration has not finished,
///   it never will; the iteration ends at once as deadlocked, with no wall-clock wait.
/// - Isolation: after the test returns, whatever it left ready or sleeping runs first-in,
///   first-out (within a step budget), so one iteration's leftovers never shape the next.
///
/// It interleaves only at suspension points: synchronous code runs to its next `await` without
/// preemption, so a data race inside synchronous code (`toggleRace`) cannot show under it.
///
/// Installed process-wide, before the first task exists, with ``install()``; the lab does this in
/// the processes that use it (workers of the `seeded` and `fifo` executors, `replay`, `explore`).
package final class DeterministicScheduler: JobScheduler, @unchecked Sendable {
  /// The scheduler of this process, once ``install()`` has run.
  package static let shared = DeterministicScheduler()

  /// Jobs that may run after the test returned, before leftovers are dropped.
  static let drainBudget = 100_000

  private struct Sleeper {
    let deadline: Duration
    let sequence: Int
    let job: UnownedJob
    let kind: ScheduleStep.Kind
  }

  /// What other threads may touch: jobs can be enqueued from anywhere.
  private struct Queues {
    var ready = ReadyJobs()
    var sleepers: [Sleeper] = []
    var sequence = 0
    var now: Duration = .zero
  }

  private enum Phase: Equatable {
    case idle
    case running
    case draining(budget: Int)
  }

  private let queues = Mutex(Queues())

  // The rest is only touched on the main thread, by the run loop and the jobs it runs.
  private var isInstalled = false
  private var phase = Phase.idle
  private var policy = SchedulePolicy.fifo
  private var generator = SplitMix64(seed: 0)
  private var choices = ScheduleChoices()
  private var driver: UnsafeContinuation<IterationSchedule, Never>?
  private var steps = 0
  private var tasksSeen: [UInt: Int] = [:]
  private var tracing = false
  private var trace: [ScheduleStep] = []
  private var bodyFinished = false

  private init() {}

  /// Makes this scheduler the process's main and default executor. Call first thing in a
  /// synchronous `main`, before any task exists, then ``runMainLoop()``.
  package static func install() {
    _createExecutors(factory: LabExecutorFactory.self)
    shared.isInstalled = true
  }

  /// Whether ``install()`` ran in this process.
  package static var isInstalled: Bool { shared.isInstalled }

  /// Runs jobs until the process exits.
  package static func runMainLoop() -> Never {
    do {
      try MainActor.executor.run()
    } catch {
      fatalError("the lab's main executor stopped: \(error)")
    }
    exit(0)
  }

  // MARK: Iterations

  /// Runs `body` as one iteration under `policy`, in a task of its own, and returns its
  /// schedule when it has finished, or deadlocked.
  @MainActor
  package func runIteration(
    policy: SchedulePolicy, tracing: Bool = false, _ body: @escaping @Sendable () async -> Void
  ) async -> IterationSchedule {
    precondition(isInstalled, "the deterministic scheduler is not installed in this process")
    precondition(phase == .idle, "iterations do not nest")
    self.policy = policy
    if case .seeded(let seed) = policy { generator = SplitMix64(seed: seed) }
    choices = ScheduleChoices()
    steps = 0
    tasksSeen = [:]
    self.tracing = tracing
    trace = []
    bodyFinished = false
    phase = .running
    return await withUnsafeContinuation { continuation in
      driver = continuation
      Task { @MainActor in
        await body()
        DeterministicScheduler.shared.finishBody()
      }
    }
  }

  @MainActor
  private func finishBody() {
    bodyFinished = true
    phase = .draining(budget: Self.drainBudget)
  }

  /// Ends the iteration and hands its schedule to the waiting driver (whose resumption is then
  /// the next job).
  private func finishIteration(deadlocked: Bool) {
    let deadlock: String? =
      deadlocked
      ? "deadlocked: after \(steps) steps nothing was ready and no sleeper pending, so the test "
        + "could never finish; its task is suspended for good (a continuation that is never "
        + "resumed is the common cause); \(tasksSeen.count) task\(tasksSeen.count == 1 ? "" : "s") "
        + "ran in the iteration"
      : nil
    phase = .idle
    let schedule = IterationSchedule(
      choices: choices, steps: steps, deadlock: deadlock, trace: trace,
      virtualTime: queues.withLock { $0.now })
    let waiting = driver
    driver = nil
    waiting?.resume(returning: schedule)
  }

  // MARK: The executors' side

  package func enqueue(_ job: UnownedJob, kind: ScheduleStep.Kind) {
    queues.withLock { $0.ready.append(job, kind: kind) }
  }

  package func enqueue(_ job: UnownedJob, kind: ScheduleStep.Kind, after delay: Duration) {
    queues.withLock {
      $0.sequence += 1
      $0.sleepers.append(
        Sleeper(
          deadline: $0.now + VirtualTime.rounded(delay), sequence: $0.sequence, job: job, kind: kind))
    }
  }

  /// The run loop of the main executor: one job at a time, until nothing at all is left.
  ///
  /// Under `fifo`, global jobs run on the main actor's executor, as the serial executor's hook
  /// runs them: a task resumed that way is already on the main actor, so its hop back there is
  /// elided, exactly as under `serial`. Under the other policies they run on the generic
  /// executor, as the global executor runs them, and each hop is a job of its own, a point where
  /// another job can come first.
  func run(main: UnownedSerialExecutor, global: UnownedTaskExecutor) {
    while let next = nextJob() {
      next.run(seededOrder: policy.isSeededOrder, main: main, global: global)
    }
  }

  private enum Step {
    case run(ReadyJobs.Job)
    case finish(deadlocked: Bool)
    case quiet
  }

  private func nextJob() -> ReadyJobs.Job? {
    while true {
      switch takeStep() {
      case .run(let job): return job
      case .finish(let deadlocked): finishIteration(deadlocked: deadlocked)
      case .quiet: return nil
      }
    }
  }

  private func takeStep() -> Step {
    queues.withLock { queues -> Step in
      // Sleepers wake while an iteration runs or drains; an idle scheduler leaves them be.
      if queues.ready.isEmpty, !queues.sleepers.isEmpty, phase != .idle {
        let deadline = queues.sleepers.map(\.deadline).min()!
        queues.now = max(queues.now, deadline)
        let due = queues.sleepers.filter { $0.deadline == deadline }.sorted { $0.sequence < $1.sequence }
        queues.sleepers.removeAll { $0.deadline == deadline }
        for sleeper in due { queues.ready.append(sleeper.job, kind: sleeper.kind, firedAt: sleeper.deadline) }
      }
      guard !queues.ready.isEmpty else {
        switch phase {
        case .running: return .finish(deadlocked: true)
        case .draining: return .finish(deadlocked: false)
        case .idle: return .quiet
        }
      }
      if case .draining(let budget) = phase {
        guard budget > 0 else {
          queues.ready.removeAll()
          queues.sleepers.removeAll()
          return .finish(deadlocked: false)
        }
        phase = .draining(budget: budget - 1)
      }
      let index = pick(among: queues.ready.count)
      let job = queues.ready.take(at: index)
      if phase == .running { record(job, pick: index, of: queues.ready.count + 1) }
      return .run(job)
    }
  }

  private func pick(among count: Int) -> Int {
    guard phase == .running, count > 1 else { return 0 }
    let index: Int
    switch policy {
    case .fifo: index = 0
    case .seeded: index = generator.choice(among: count)
    case .directed(let path):
      let position = choices.picks.count
      index = position < path.count ? min(path[position], count - 1) : 0
    }
    choices.append(pick: index, of: count)
    return index
  }

  private func record(_ job: ReadyJobs.Job, pick: Int, of count: Int) {
    steps += 1
    let identity = UInt(bitPattern: unsafeBitCast(job.job, to: Int.self))
    if tasksSeen[identity] == nil { tasksSeen[identity] = tasksSeen.count + 1 }
    guard tracing else { return }
    trace.append(
      ScheduleStep(
        number: steps, label: "task \(tasksSeen[identity]!)", kind: job.kind,
        firedTimerAt: job.firedAt, choice: count > 1 ? (pick, count) : nil))
  }
}

import Foundation

/// Runs a plan's iterations in worker processes, so that a crash or a hang inside a scenario is
/// an outcome to report instead of the end of the run.
///
/// Each run's iterations are split among `jobs` workers, each a batch of consecutive indices.
/// The supervisor polls every worker's ``OutcomeChannel`` every few milliseconds. When a worker
/// dies, the iteration it was running is recorded as `crashed` (with the signal and the last
/// lines it printed) and a new worker takes the rest of its batch. When a worker's count has not
/// moved for longer than the timeout, it is killed and that iteration is `timedOut`. Counts are
/// exact: `passed + failed + crashed + timedOut` equals the iterations run.
public final class Supervisor {
  public struct Options: Sendable {
    /// Workers running at once.
    public var jobs: Int
    /// How long one iteration may take before it is recorded as timed out.
    public var timeout: Duration
    /// The `flakelab` executable, started with the hidden `worker` command.
    public var workerExecutable: String
    /// Whether `timeout` is only the ceiling of a limit that follows the run's own pace (see
    /// ``adaptiveLimit(ceiling:meanIteration:)``).
    public var adaptsTimeout: Bool

    public init(
      jobs: Int = 1, timeout: Duration = .seconds(10), workerExecutable: String,
      adaptsTimeout: Bool = false
    ) {
      self.jobs = jobs
      self.timeout = timeout
      self.workerExecutable = workerExecutable
      self.adaptsTimeout = adaptsTimeout
    }
  }

  /// What a run looks like while it is under way, for progress displays.
  public struct Progress: Sendable {
    public let selector: String
    public let executor: String
    public let done: Int
    public let total: Int
    public let notPassed: Int
    public let elapsed: Duration
  }

  /// The lab failed to run a worker at all (not the scenario's doing).
  public struct WorkerStartFailure: Error, CustomStringConvertible {
    public let description: String
  }

  static let pollInterval: useconds_t = 2_000

  public let options: Options
  private let onProgress: (Progress) -> Void

  public init(options: Options, onProgress: @escaping (Progress) -> Void = { _ in }) {
    self.options = options
    self.onProgress = onProgress
  }

  /// Whether a run was cut short by Ctrl-C or SIGTERM; its result holds what finished before.
  public private(set) var wasInterrupted = false

  /// How long a worker may take to start (load, find its test, announce itself) before the lab
  /// gives up on it. Start-up never counts against the per-iteration timeout.
  static let startLimit: Duration = .seconds(60)

  /// Runs every iteration of a scenario run in `flakelab worker` processes.
  public func run(_ run: RunPlan.Run) throws -> RunResult {
    try self.run(SupervisedRun(run, workerExecutable: options.workerExecutable))
  }

  /// The shortest limit an adaptive timeout sets, and how many mean iterations it allows.
  static let adaptiveFloor: Duration = .milliseconds(250)
  static let adaptiveFactor = 100

  /// A hang limit that follows the run's pace: `adaptiveFactor` times the mean iteration so far,
  /// at least `adaptiveFloor`, at most `ceiling` (and `ceiling` until the pace is known). A test
  /// whose iterations take a millisecond is not left hanging for ten seconds twenty times.
  public static func adaptiveLimit(ceiling: Duration, meanIteration: Duration?) -> Duration {
    guard let meanIteration else { return ceiling }
    return min(ceiling, max(adaptiveFloor, meanIteration * adaptiveFactor))
  }

  /// Runs every iteration of `run` and returns the counts; stops early when interrupted.
  public func run(_ run: SupervisedRun) throws -> RunResult {
    let clock = ContinuousClock()
    let start = clock.now
    var tally = Tally()
    var schedule = run.isScheduled ? RunSchedule(seed: run.seed) : nil
    var pending = run.iterationsPerWorker.map { Self.batches(of: run.indices, size: $0) }
      ?? Self.batches(of: run.indices, count: options.jobs)
    var active: [WorkerProcess] = []
    var lastReport = start
    // Time ended workers spent on the iterations they finished, and how many: the run's pace.
    var pace: (busy: Duration, iterations: Int) = (.zero, 0)

    // Whatever ends the run, no worker is left behind: an error kills and reaps every worker.
    do {
      while !pending.isEmpty || !active.isEmpty {
        if InterruptSignal.isRaised {
          wasInterrupted = true
          for worker in active {
            worker.kill()
            let status = worker.reap(waiting: true) ?? 0
            worker.collectFinal(status: status, into: &tally, schedule: &schedule)
          }
          break
        }
        if SuspendSignal.takeRaised() { SuspendSignal.suspend(active) }
        while active.count < options.jobs, !pending.isEmpty {
          let indices = pending.removeFirst()
          active.append(try WorkerProcess(run.launch(indices), indices: indices))
        }
        usleep(Self.pollInterval)
        let limit = timeoutLimit(
          busy: active.reduce(pace.busy) { $0 + $1.busyTime },
          iterations: active.reduce(pace.iterations) { $0 + $1.completed })
        var stillActive: [WorkerProcess] = []
        for worker in active {
          worker.poll(into: &tally, schedule: &schedule)
          if let status = worker.reap() {
            worker.collectFinal(status: status, into: &tally, schedule: &schedule)
            pace = (pace.busy + worker.busyTime, pace.iterations + worker.completed)
            if let rest = try settle(worker, of: run, status: status, into: &tally) {
              pending.insert(rest, at: 0)
            }
          } else if worker.isReady ? clock.now - worker.lastProgress > limit
            : clock.now - worker.startedAt > Self.startLimit
          {
            worker.wasTimedOut = true
            worker.kill()
            stillActive.append(worker)
          } else {
            stillActive.append(worker)
          }
        }
        active = stillActive
        if clock.now - lastReport > .milliseconds(100) {
          lastReport = clock.now
          onProgress(progress(of: run, tally: tally, active: active, elapsed: clock.now - start))
        }
      }
    } catch {
      for worker in active {
        worker.kill()
        _ = worker.reap(waiting: true)
      }
      throw error
    }
    var result = RunResult(
      scenario: run.scenario, variant: run.variant, executor: run.executor,
      tally: tally, seconds: (clock.now - start).seconds, schedule: schedule)
    result.test = run.test
    return result
  }

  /// Records how `worker` ended, beyond what it published, and returns the part of its batch
  /// still to run, if any.
  private func settle(
    _ worker: WorkerProcess, of run: SupervisedRun, status: Int32, into tally: inout Tally
  ) throws -> Range<Int>? {
    let indices = worker.indices
    let stopped = worker.currentIndex
    guard stopped < indices.upperBound else { return nil }
    guard worker.isReady else {
      let why = worker.wasTimedOut ? "no sign of life after \(Self.startLimit)" : Self.describe(status: status)
      throw WorkerStartFailure(
        description: "a worker for \(run.selector) did not start: \(why). " + worker.lastOutputLines(4))
    }
    if worker.wasTimedOut {
      tally.record(.timedOut, count: 1)
    } else {
      let printed = worker.lastOutputLines()
      tally.record(
        .crashed(
          observation: Self.describe(status: status) + (printed.isEmpty ? "" : ": \(printed)")),
        count: 1)
    }
    return stopped + 1 < indices.upperBound ? (stopped + 1)..<indices.upperBound : nil
  }

  private func progress(
    of run: SupervisedRun, tally: Tally, active: [WorkerProcess], elapsed: Duration
  ) -> Progress {
    Progress(
      selector: run.selector, executor: run.executor,
      done: Self.finished(tally: tally, active: active), total: run.indices.count,
      notPassed: tally.notPassed, elapsed: elapsed)
  }

  /// Iterations finished so far: those counted, and the passes of workers still running.
  private static func finished(tally: Tally, active: [WorkerProcess]) -> Int {
    tally.iterations + active.reduce(0) { $0 + $1.completed - $1.failures }
  }

  /// How long a ready worker may go without finishing an iteration, given the time workers
  /// spent on the iterations they finished.
  private func timeoutLimit(busy: Duration, iterations: Int) -> Duration {
    guard options.adaptsTimeout else { return options.timeout }
    let mean = iterations >= 10 ? busy / iterations : nil
    return Self.adaptiveLimit(ceiling: options.timeout, meanIteration: mean)
  }

  /// `signal 4 (SIGILL)`, `exited with status 3`.
  static func describe(status: Int32) -> String {
    let signalNumber = status & 0x7f
    if signalNumber == 0 {
      return "exited with status \((status >> 8) & 0xff)"
    }
    let names: [Int32: String] = [
      SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS",
      SIGFPE: "SIGFPE", SIGSEGV: "SIGSEGV", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
    ]
    return "signal \(signalNumber)" + (names[signalNumber].map { " (\($0))" } ?? "")
  }

  /// `indices` cut into consecutive batches of `size` (the last may be shorter).
  static func batches(of indices: Range<Int>, size: Int) -> [Range<Int>] {
    stride(from: indices.lowerBound, to: indices.upperBound, by: size).map {
      $0..<min($0 + size, indices.upperBound)
    }
  }

  /// `indices` cut into `count` consecutive batches of near-equal size (fewer if it is short).
  static func batches(of indices: Range<Int>, count: Int) -> [Range<Int>] {
    let total = indices.count
    let parts = max(1, min(count, total))
    return (0..<parts).compactMap { part in
      let lower = indices.lowerBound + total * part / parts
      let upper = indices.lowerBound + total * (part + 1) / parts
      return lower < upper ? lower..<upper : nil
    }
  }
}

/// Where the jobs of an iteration run: the pluggable piece between the worker loop and a scenario.
///
/// The worker calls ``run(_:_:)`` once per iteration, on the main actor. An executor sets up the
/// runtime for the iteration, runs it, and puts everything back, whether the iteration passed or
/// not. Executors are chosen by ``id`` on the command line (`--executor serial`), from the
/// executors of the ``ScenarioCatalog`` a lab was built with; a lab of one's own adds its own
/// with one type and one catalog entry.
///
/// ```swift
/// extension ExecutorID {
///   static let detached = ExecutorID("detached")
/// }
///
/// /// The body in a detached task, off the main actor.
/// struct DetachedExecutor: IterationExecutor {
///   var id: ExecutorID { .detached }
///   var summary: String { "the body in a detached task, off the main actor" }
///
///   @MainActor
///   func run(_ iteration: Iteration, _ body: @escaping Variant.Body) async -> IterationSchedule? {
///     await Task.detached { await iteration.perform(body) }.value
///     return nil
///   }
/// }
/// ```
public protocol IterationExecutor: Sendable {
  /// The executor's identity, declared once beside its type.
  var id: ExecutorID { get }
  /// One line for `--help` and `list`.
  var summary: String { get }
  /// Whether iterations under this executor are independent trials of one failure rate, so
  /// that the binomial interval is right for a run (`FailureRateEstimate`). An executor that
  /// leaves the order to the machine, as the global executor does, is not.
  var iterationsAreIndependent: Bool { get }
  /// Whether this executor runs on the deterministic scheduler, which must be installed in the
  /// worker process before its first task exists (`DeterministicScheduler.install()`).
  var needsDeterministicScheduler: Bool { get }
  /// How `flakelab test`'s harness puts a package's test process under this executor; nil when
  /// it cannot (the executor runs a variant's body, which a test binary does not have).
  var harnessMechanism: HarnessMechanism? { get }

  /// This executor for a run with `seed`, for executors whose schedules derive from it.
  ///
  /// - Parameter seed: the run's seed (`--seed`, or one drawn at random and reported).
  /// - Returns: the executor to run the run's iterations with; `self` unless it uses the seed.
  func forRun(seed: UInt64) -> Self

  /// Runs one iteration, and puts the runtime back as it was, pass or fail.
  ///
  /// - Parameters:
  ///   - iteration: the iteration to run; `iteration.perform(body)` runs the body and records
  ///     its failed checks and throws.
  ///   - body: the variant's test body.
  /// - Returns: the schedule the iteration ran in when this executor chooses it (the
  ///   deterministic scheduler), nil when the runtime does.
  @MainActor
  func run(_ iteration: Iteration, _ body: @escaping Variant.Body) async -> IterationSchedule?
}

extension IterationExecutor {
  /// The name on the command line and in reports.
  public var name: String { id.name }

  /// Unless an executor fixes the order of every job, a run's rate may move between processes.
  public var iterationsAreIndependent: Bool { false }

  public var needsDeterministicScheduler: Bool { false }

  /// An executor of a lab's own runs scenarios only.
  public var harnessMechanism: HarnessMechanism? { nil }

  /// Most executors have no use for the run's seed.
  public func forRun(seed: UInt64) -> Self { self }
}

extension IterationExecutor where Self == GlobalExecutor {
  /// Swift's default executor, untouched.
  public static var global: GlobalExecutor { GlobalExecutor() }
}

extension IterationExecutor where Self == SerialIterationExecutor {
  /// Every global job goes to the main actor's serial queue for the iteration.
  public static var serial: SerialIterationExecutor { SerialIterationExecutor() }
}

/// The diagnosis stage of `flakelab test`: each test that failed in the screen runs alone in
/// arms that each change one factor, so that the contrasts between them say why it fails
/// (``Diagnostician``): warm repetitions under global, serial and seeded (the order of jobs),
/// fresh processes under global and serial (first runs, on many threads and on one queue),
/// warm repetitions under global with busy threads competing (time).
///
/// What runs, how far and when to stop is ``DrillDownPlan``'s to decide: settling an arm after
/// its first iterations, running undecided contrasts on, the randomness replays, the second
/// seed, the polluters to seek. This runner starts what the plan asks, in worker processes, and
/// feeds it what they came to.
package struct DrillDown {
  /// One way of running a test alone.
  package struct Arm {
    let executor: any IterationExecutor
    let layout: TestReference.ProcessLayout
    let iterations: Int

    package init(executor: any IterationExecutor, layout: TestReference.ProcessLayout, iterations: Int) {
      self.executor = executor
      self.layout = layout
      self.iterations = iterations
    }

    /// Its order of jobs, where the harness sets one.
    var order: JobOrder? { executor.harnessMechanism?.jobOrder }

    /// Fresh processes on the FIFO queue list their failing iterations: the seeds the
    /// randomness replay runs again.
    var listsFailingSeeds: Bool { layout == .fresh && order == .fifo }
  }

  package let arms: [Arm]

  /// What the stage found: the arms' results, test by test and arm by arm, then the
  /// randomness replays; the polluters found; whether Ctrl-C cut it short.
  package struct Findings {
    package var results: [RunResult]
    package var polluters: [PackageTest: Polluters] = [:]
    package var interrupted: Bool
  }
  /// The executors a test runs alone under: one of each order of jobs (``JobOrder``).
  package static let executors: [ExecutorID] = [.global, .serial, .seeded]

  /// The drill-down `flakelab test` runs after a screen of `screenPasses` passes under
  /// `executors` (``executors``, as the catalog made them), those whose harness mechanism the
  /// probe saw take effect: warm repetitions under each, twice the screen's passes, so that
  /// alone a test runs at least as often as in the screen under executors of either kind (which
  /// `interference` asks); fresh processes, a process each, as many as the screen's passes,
  /// under the one that runs jobs in parallel and the FIFO one (first runs, and the seeds the
  /// randomness replay runs again); and the parallel one's repetitions again, stressed.
  package static func standard(
    screenPasses: Int, executors: [any IterationExecutor], probe: HarnessProbe, measurement: RateMeasurement,
    package: TestPackage, preload: String
  ) -> DrillDown {
    let usable = executors.filter { probe.supports($0.harnessMechanism ?? .untouched) }
    let order = { (order: JobOrder) in usable.first { $0.harnessMechanism?.jobOrder == order } }
    let warm = usable.map { Arm(executor: $0, layout: .repetitions, iterations: screenPasses * 2) }
    let fresh = [order(.parallel), order(.fifo)].compactMap { $0 }.map {
      Arm(executor: $0, layout: .fresh, iterations: screenPasses)
    }
    let stressed = order(.parallel).map { [Arm(executor: $0, layout: .stressed, iterations: screenPasses * 2)] } ?? []
    return DrillDown(
      arms: warm + fresh + stressed, measurement: measurement, package: package, probe: probe, preload: preload)
  }

  let measurement: RateMeasurement
  let package: TestPackage
  let probe: HarnessProbe
  let preload: String

  package init(
    arms: [Arm], measurement: RateMeasurement, package: TestPackage, probe: HarnessProbe, preload: String
  ) {
    self.arms = arms
    self.measurement = measurement
    self.package = package
    self.probe = probe
    self.preload = preload
  }

  /// Runs the plan for `tests` (``DrillDownPlan/init(arms:tests:failingEverywhere:screen:suite:measurement:)``
  /// says what each argument decides). No worker starts after `deadline`.
  package func run(
    _ tests: [PackageTest], failingEverywhere: Set<PackageTest> = [], screen: [RunResult] = [],
    suite: [PackageTest] = [], deadline: ContinuousClock.Instant? = nil,
    onProgress: @escaping (Supervisor.Progress) -> Void = { _ in }
  ) throws -> Findings {
    // Each test's share of the workers' time left: what the undecided contrasts may spend.
    let share = deadline.map { deadline in
      max(0, (deadline - .now) / .seconds(1)) * Double(measurement.jobs) / Double(max(1, tests.count))
    }
    var plan = DrillDownPlan(
      arms: arms, tests: tests, failingEverywhere: failingEverywhere, screen: screen, suite: suite,
      measurement: measurement, share: share)
    let supervisor = Supervisor(
      options: .init(
        jobs: measurement.jobs, timeout: measurement.timeout, workerExecutable: measurement.workerExecutable,
        deadline: deadline),
      onProgress: onProgress)
    var action: DrillDownPlan.Action? = plan.start()
    while let next = action {
      switch next {
      case .launch(let launches):
        let runs = try supervisor.run(launches.map(supervised))
        let inTime = deadline.map { ContinuousClock.now < $0 } ?? true
        action = plan.ran(runs, interrupted: supervisor.wasInterrupted, inTime: inTime)
      case .searchPolluters(let victims):
        let search = PolluterSearch(
          measurement: measurement, package: package, preload: preload, deadline: deadline, onProgress: onProgress)
        let (polluters, interrupted) = try search.run(victims)
        return Findings(results: plan.results, polluters: polluters, interrupted: interrupted)
      }
    }
    return Findings(results: plan.results, interrupted: plan.interrupted)
  }

  /// The worker run that carries out `launch`.
  private func supervised(_ launch: DrillDownPlan.Launch) -> SupervisedRun {
    var run = TestLaunch.run(
      launch.test, of: package, executor: launch.arm.executor, indices: launch.indices,
      seed: launch.isSecondSeed ? SecondSeed.seed(after: measurement.seed) : measurement.seed, layout: launch.layout,
      probe: probe, preload: preload, isConfirmation: launch.isSecondSeed)
    run.replicates = launch.replicates
    run.isScheduled = launch.isScheduled
    return run
  }
}

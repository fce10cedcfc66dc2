/// The diagnosis stage of `flakelab test`: each test that failed in the screen runs alone, as
/// warm repetitions under global, serial and seeded and in fresh processes under global, so
/// that the contrasts between those arms say why it fails (``Diagnostician``).
///
/// Each arm first runs ``Supervisor/settledLimit`` iterations; an arm whose iterations all
/// timed out, or all failed after a wait of ``PassSupervisor/slowFailure`` or more, or all
/// failed for a test that failed every pass of the screen, has its answer and stops there (a test that blocks under serial needs a few iterations, not
/// hundreds, at a wait apiece). The others run the rest: an arm that fails fast costs little,
/// and three failures in a row are no rate (a test that fails half the time does so one time
/// in eight). A stopped arm reads 3 of 3 whatever its rate, so ``Diagnostician`` keeps it out
/// of the contrasts of rates.
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
  }

  package let arms: [Arm]
  /// Run twice with the same seeds for a test that may depend on randomness
  /// (``Diagnostician/mayDependOnRandomness(_:)``): fresh processes on one queue, where the
  /// seed decides every random value and hash order, so that the same processes fail again if
  /// the randomness decides the test (``Diagnostician/randomDraw(_:confidence:)``).
  package let randomnessReplay: Arm?
  /// The processes of each randomness replay: enough that a test failing in 2 of them, or in
  /// all but 2, is told from chance at the report's error shared among the contrasts (1 in
  /// C(16, 2) = 120).
  package static let randomnessProcesses = 16
  let measurement: RateMeasurement
  let package: TestPackage
  let probe: HarnessProbe
  let preload: String

  package init(
    arms: [Arm], randomnessReplay: Arm? = nil, measurement: RateMeasurement, package: TestPackage, probe: HarnessProbe,
    preload: String
  ) {
    self.arms = arms
    self.randomnessReplay = randomnessReplay
    self.measurement = measurement
    self.package = package
    self.probe = probe
    self.preload = preload
  }

  /// Runs every arm for each of `tests`; the results come test by test, arm by arm. Whether
  /// Ctrl-C cut the stage short is in the second value. No worker starts after `deadline`.
  ///
  /// - Parameter failingEverywhere: the tests that failed in every iteration of the screen: for
  ///   those, three failures alone settle an arm however fast (a broken test has no rate to
  ///   contrast, and a suite with many would otherwise run every arm whole).
  /// - Parameter screen: the screen's runs, which with the arms' decide the randomness replays.
  package func run(
    _ tests: [PackageTest], failingEverywhere: Set<PackageTest> = [], screen: [RunResult] = [],
    deadline: ContinuousClock.Instant? = nil,
    onProgress: @escaping (Supervisor.Progress) -> Void = { _ in }
  ) throws -> (results: [RunResult], interrupted: Bool) {
    let plans = tests.flatMap { test in arms.map { (test: test, arm: $0) } }
    func runs(_ indices: (Arm) -> Range<Int>, replicates: (Arm) -> Int, of chosen: [Int]) -> [SupervisedRun] {
      chosen.map { index in
        let (test, arm) = plans[index]
        var run = TestLaunch.run(
          test, of: package, executor: arm.executor, indices: indices(arm), seed: measurement.seed,
          freshProcess: arm.layout == .fresh, probe: probe, preload: preload)
        run.replicates = replicates(arm)
        return run
      }
    }
    let supervisor = Supervisor(
      options: .init(
        jobs: measurement.jobs, timeout: measurement.timeout, workerExecutable: measurement.workerExecutable,
        deadline: deadline),
      onProgress: onProgress)
    let settle = Supervisor.settledLimit
    let all = Array(plans.indices)
    var results = try supervisor.run(
      runs({ 0..<min(settle, $0.iterations) }, replicates: { _ in 1 }, of: all))
    guard !supervisor.wasInterrupted else {
      for index in results.indices {
        results[index].notRun = plans[index].arm.iterations - results[index].tally.iterations
        results[index].stop = results[index].stop ?? .interrupted
      }
      return (results, true)
    }
    let open = all.filter { index in
      let tally = results[index].tally
      let waitedEachTime = results[index].seconds >= Double(tally.ran) * PassSupervisor.slowFailure.seconds
      let settles = waitedEachTime || failingEverywhere.contains(plans[index].test)
      let settled = results[index].stop != nil || (tally.ran >= settle && tally.notPassed == tally.ran && settles)
      if settled {
        results[index].stop = results[index].stop ?? .everyIterationFailed
        results[index].notRun = plans[index].arm.iterations - tally.iterations
      }
      return !settled && plans[index].arm.iterations > settle
    }
    let rest = try supervisor.run(
      runs(
        { settle..<$0.iterations },
        replicates: { measurement.replicates(independent: $0.executor.iterationsAreIndependent) }, of: open))
    for (index, result) in zip(open, rest) {
      results[index].add(result)
      if supervisor.wasInterrupted, results[index].stop == nil {
        results[index].notRun = plans[index].arm.iterations - results[index].tally.iterations
        results[index].stop = results[index].notRun > 0 ? .interrupted : nil
      }
    }
    guard !supervisor.wasInterrupted, let replay = randomnessReplay else { return (results, supervisor.wasInterrupted) }
    let candidates = tests.filter { test in
      Diagnostician.mayDependOnRandomness((screen + results).filter { $0.test?.test == test })
    }
    let replays = candidates.flatMap { test in
      (0..<2).map { _ in
        var run = TestLaunch.run(
          test, of: package, executor: replay.executor, indices: 0..<replay.iterations, seed: measurement.seed,
          freshProcess: true, probe: probe, preload: preload)
        run.isScheduled = true
        run.replicates = measurement.replicates(independent: true)
        return run
      }
    }
    results += try supervisor.run(replays)
    return (results, supervisor.wasInterrupted)
  }
}

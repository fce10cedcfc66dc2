/// The diagnosis stage of `flakelab test`: each test that failed in the screen runs alone in
/// arms that each change one factor, so that the contrasts between them say why it fails
/// (``Diagnostician``): warm repetitions under global, serial and seeded (the order of jobs),
/// fresh processes under global and serial (first runs, on many threads and on one queue),
/// warm repetitions under global with busy threads competing (time).
///
/// Each arm first runs ``RunSettling/limit`` iterations; an arm whose iterations all
/// timed out, or all failed after a wait of ``PassSupervisor/slowFailure`` or more, has its
/// answer and stops there (a test that blocks under serial needs a few iterations, not
/// hundreds, at a wait apiece); so does one whose iterations all failed, for a test that failed
/// every pass of the screen and no iteration of any arm (broken, it has no rate to contrast).
/// The others run the rest: an arm that fails fast costs little, and three failures in a row
/// are no rate (a test that fails half the time does so one time in eight). A stopped arm reads
/// 3 of 3 whatever its rate, so ``Diagnostician`` keeps it out of the contrasts of rates.
///
/// Then the tests the arms leave to chance or to neighbours get the runs that tell: the replay
/// of the seeds that failed them on one queue, and as many that passed, for a test the random
/// seed may decide; and for a test that failed beside others far more than alone, the search
/// for its polluters (``PolluterSearch``).
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

    /// Fresh processes on the FIFO queue list their failing iterations: the seeds the
    /// randomness replay runs again.
    var listsFailingSeeds: Bool { layout == .fresh && executor.harnessMechanism?.jobOrder == .fifo }
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

  /// Runs every arm for each of `tests`, then the replays and searches their results call
  /// for. No worker starts after `deadline`.
  ///
  /// - Parameter failingEverywhere: the tests that failed in every iteration of the screen: for
  ///   those, three failures alone settle an arm however fast (a broken test has no rate to
  ///   contrast, and a suite with many would otherwise run every arm whole), while none of their
  ///   arms has passed.
  /// - Parameter screen: the screen's runs, which with the arms' decide the replays and the
  ///   polluter searches; `suite`, the tests it ran, in order, among which polluters are sought.
  package func run(
    _ tests: [PackageTest], failingEverywhere: Set<PackageTest> = [], screen: [RunResult] = [],
    suite: [PackageTest] = [], deadline: ContinuousClock.Instant? = nil,
    onProgress: @escaping (Supervisor.Progress) -> Void = { _ in }
  ) throws -> Findings {
    let plans = tests.flatMap { test in arms.map { (test: test, arm: $0) } }
    func runs(_ indices: (Arm) -> Range<Int>, replicates: (Arm) -> Int, of chosen: [Int]) -> [SupervisedRun] {
      chosen.map { index in
        let (test, arm) = plans[index]
        var run = TestLaunch.run(
          test, of: package, executor: arm.executor, indices: indices(arm), seed: measurement.seed,
          layout: arm.layout, probe: probe, preload: preload)
        run.replicates = replicates(arm)
        run.isScheduled = arm.listsFailingSeeds
        return run
      }
    }
    let supervisor = Supervisor(
      options: .init(
        jobs: measurement.jobs, timeout: measurement.timeout, workerExecutable: measurement.workerExecutable,
        deadline: deadline),
      onProgress: onProgress)
    let settle = RunSettling.limit
    let all = Array(plans.indices)
    var results = try supervisor.run(
      runs({ 0..<min(settle, $0.iterations) }, replicates: { _ in 1 }, of: all))
    guard !supervisor.wasInterrupted else {
      for index in results.indices {
        results[index].notRun = plans[index].arm.iterations - results[index].tally.iterations
        results[index].stop = results[index].stop ?? .interrupted
      }
      return Findings(results: results, interrupted: true)
    }
    // A test that failed every pass of the screen yet passed alone somewhere is not broken: it
    // has rates to contrast (a load that slows the pool fails isLoading under global nearly as
    // often as on one queue), and its arms run whole.
    let passedAlone = Set(all.filter { results[$0].tally.passed > 0 }.map { plans[$0].test })
    let open = all.filter { index in
      let test = plans[index].test
      let settled = Self.settle(
        &results[index], arm: plans[index].arm,
        failsEverywhere: failingEverywhere.contains(test) && !passedAlone.contains(test))
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
    guard !supervisor.wasInterrupted else { return Findings(results: results, interrupted: true) }
    let replays = try replayRandomness(of: tests, results: screen + results, supervisor: supervisor)
    results += replays
    if supervisor.wasInterrupted { return Findings(results: results, interrupted: true) }
    results += try secondSeed(of: tests, results: screen + results, supervisor: supervisor)
    if supervisor.wasInterrupted { return Findings(results: results, interrupted: true) }
    let search = PolluterSearch(
      measurement: measurement, package: package, preload: preload, deadline: deadline, onProgress: onProgress)
    let (polluters, interrupted) = try search.run(victims(of: tests, in: suite, results: screen + results))
    return Findings(results: results, polluters: polluters, interrupted: interrupted)
  }

  /// Whether an arm's first iterations settle it, marked so in `result` when they do: all
  /// failed, each by a wait or a block of the queue's thread, or in a test that failed every
  /// pass of the screen and has not passed alone (`failsEverywhere`); or the run stopped.
  private static func settle(_ result: inout RunResult, arm: Arm, failsEverywhere: Bool) -> Bool {
    let tally = result.tally
    var evidence = RunSettling.Evidence(tally)
    // The test's own time (its processes once ready, without the start-up a loaded machine
    // stretches), over its iterations, says a wait.
    let seconds = result.testSeconds ?? result.seconds
    let waitedEachTime = seconds >= Double(tally.ran) * PassSupervisor.slowFailure.seconds
    // Each failure with the queue's thread blocked is blocks-thread's answer, as a long wait
    // is, in FIFO order. Seeded orders run on: a test that blocks fails in every order, one
    // whose order decides it (an actor's check, a sleep, then its act) passes in some.
    let blockedEachTime = tally.ran > 0 && result.blockedIterations == tally.ran
      && arm.executor.harnessMechanism?.jobOrder != .seeded
    evidence.failureSettles = waitedEachTime || blockedEachTime || failsEverywhere
    let settled = result.stop != nil || RunSettling.stop(evidence) == .everyIterationFailed
    if settled {
      result.stop = result.stop ?? .everyIterationFailed
      result.notRun = arm.iterations - tally.iterations
    }
    return settled
  }

  /// The randomness replays: for each of `tests` that may depend on randomness, its fresh
  /// processes on one queue that failed, and as many that passed, run again with the same seeds,
  /// a process each. Where the replay agrees on too few seeds to tell the seed from chance
  /// (``Diagnostician/replaysAgreeTooThinly(_:confidence:)``), as many fresh processes again
  /// give more seeds, and those are replayed too.
  private func replayRandomness(
    of tests: [PackageTest], results: [RunResult], supervisor: Supervisor
  ) throws -> [RunResult] {
    guard let arm = arms.first(where: \.listsFailingSeeds) else { return [] }
    // Seeds that both failed and passed: a replay of each, in order.
    let seeds = tests.filter { test in Diagnostician.mayDependOnRandomness(results.filter { $0.test?.test == test }) }
      .compactMap { test in results.first { $0.test?.test == test && Diagnostician.isSeedSource($0) } }
      .filter(isReplayable)
    let replays = try replay(seeds.map { ($0, 0..<arm.iterations) }, arm: arm, supervisor: supervisor)
    guard !supervisor.wasInterrupted else { return replays }
    let thin = zip(seeds, replays).filter { seeds, replay in
      Diagnostician.replaysAgreeTooThinly([seeds, replay], confidence: measurement.confidence)
    }.map(\.0)
    guard !thin.isEmpty else { return replays }
    let more = try supervisor.run(
      thin.map { seeds in
        var run = TestLaunch.run(
          seeds.test!.test, of: package, executor: arm.executor, indices: arm.iterations..<(2 * arm.iterations),
          seed: measurement.seed, layout: .fresh, probe: probe, preload: preload)
        run.isScheduled = true
        run.replicates = measurement.replicates(independent: true)
        return run
      })
    let grown = more.filter(isReplayable)
    guard !supervisor.wasInterrupted, !grown.isEmpty else { return replays + more }
    return replays + more + (try replay(grown.map { ($0, arm.iterations..<(2 * arm.iterations)) }, arm: arm, supervisor: supervisor))
  }

  /// The second seed's arms (``SecondSeed``) for each of `tests` whose first runs show a cause
  /// that a contrast of rates showed: the arms of that contrast, again, with another seed, in
  /// stages: an arm's iterations, then as many again, then twice as many, while its contrast is
  /// undecided (``SecondSeed/isUndecided(_:in:confidence:)``). A global rate moves from run to
  /// run: a race that failed 9 of 40 on the first seed may fail 1 of 40 on the second, which
  /// decides nothing, where 160 iterations decide.
  private func secondSeed(of tests: [PackageTest], results: [RunResult], supervisor: Supervisor) throws -> [RunResult] {
    let seed = SecondSeed.seed(after: measurement.seed)
    let asked = tests.compactMap { test -> (test: PackageTest, cause: TestDiagnosis, arms: [Arm])? in
      let runs = results.filter { $0.test?.test == test }.map { Report.estimated($0, at: measurement.confidence) }
      guard let cause = Diagnostician.judge(runs, confidence: measurement.confidence).1,
        let wanted = SecondSeed.arms(for: cause)
      else { return nil }
      let chosen = wanted.compactMap { order, layout in
        arms.first { $0.executor.harnessMechanism?.jobOrder == order && $0.layout == layout }
      }
      return chosen.isEmpty ? nil : (test, cause, chosen)
    }
    var found: [[RunResult]] = asked.map { _ in [] }
    for stage in SecondSeed.stages.indices {
      let open = asked.indices.filter { index in
        stage == 0
          || SecondSeed.isUndecided(
            asked[index].cause, in: found[index].map { Report.estimated($0, at: measurement.confidence) },
            confidence: measurement.confidence)
      }
      // A later stage is more evidence, never a start the budget cuts: it starts only in time.
      let inTime = supervisor.options.deadline.map { ContinuousClock.now < $0 } ?? true
      guard !open.isEmpty, !supervisor.wasInterrupted, stage == 0 || inTime else { break }
      let launches = open.flatMap { index in
        asked[index].arms.map { arm in
          var run = TestLaunch.run(
            asked[index].test, of: package, executor: arm.executor,
            indices: SecondSeed.stages[stage].indices(of: arm.iterations), seed: seed, layout: arm.layout, probe: probe,
            preload: preload, isConfirmation: true)
          run.replicates = measurement.replicates(independent: arm.executor.iterationsAreIndependent)
          return run
        }
      }
      var ran = try supervisor.run(launches)[...]
      for index in open {
        let more = ran.prefix(asked[index].arms.count)
        ran = ran.dropFirst(asked[index].arms.count)
        found[index] =
          found[index].isEmpty
          ? Array(more)
          : zip(found[index], more).map { earlier, later in
            var run = earlier
            run.add(later)
            return run
          }
      }
    }
    return found.flatMap { $0 }
  }

  /// Whether `seeds` (fresh processes on one queue) ran whole, and listed failing seeds and
  /// had passing ones.
  private func isReplayable(_ seeds: RunResult) -> Bool {
    seeds.stop == nil && seeds.schedule?.failingIterations.isEmpty == false && seeds.tally.passed > 0
  }

  /// One replay run for each of `seeds` (a test's fresh processes on one queue, iterations
  /// `range`, some failing and some passing): its failing iterations and as many passing ones,
  /// each in a process of its own with the same seed.
  private func replay(
    _ seeds: [(run: RunResult, range: Range<Int>)], arm: Arm, supervisor: Supervisor
  ) throws -> [RunResult] {
    let plans = seeds.map { run, range -> (test: PackageTest, indices: [Int]) in
      let failing = (run.schedule?.failingIterations ?? []).map(\.index)
      let passing = range.filter { !failing.contains($0) }.prefix(failing.count)
      return (run.test!.test, (failing + passing).sorted())
    }
    var finished = try supervisor.run(
      plans.flatMap { plan in
        plan.indices.map { index in
          var run = TestLaunch.run(
            plan.test, of: package, executor: arm.executor, indices: index..<(index + 1), seed: measurement.seed,
            layout: .replay, probe: probe, preload: preload)
          run.isScheduled = true
          run.replicates = 1
          return run
        }
      })[...]
    return plans.map { plan in
      var merged = finished.removeFirst()
      for _ in 1..<plan.indices.count { merged.add(finished.removeFirst()) }
      return merged
    }
  }

  /// The `interference` victims among `tests`, each with the suite passes that failed it most
  /// under an executor whose runs alone never did, and its framework's other tests there.
  private func victims(of tests: [PackageTest], in suite: [PackageTest], results: [RunResult]) -> [PolluterSearch.Victim] {
    let estimated = results.map { Report.estimated($0, at: measurement.confidence) }
    return tests.compactMap { test in
      let runs = estimated.filter { $0.test?.test == test }
      guard Diagnostician.judge(runs, confidence: measurement.confidence).1 == .interference else { return nil }
      func alone(like executor: ExecutorID) -> (failed: Int, ran: Int) {
        runs.filter { run in
          [.repetitions, .fresh].contains(run.test?.layout) && run.ranInParallel == (executor.jobOrder == .parallel)
        }
          .reduce((0, 0)) { ($0.0 + $1.tally.notPassed, $0.1 + $1.tally.ran) }
      }
      let failing = runs.filter { run in
        run.test?.layout == .suite && run.tally.notPassed > 0
      }
      guard
        let worst = failing.max(by: { $0.estimate.rate < $1.estimate.rate }),
        let executor = arms.first(where: { $0.executor.id == worst.executor })?.executor
      else { return nil }
      // Tests settled out of those passes (a hang, a long wait) ran in few of them.
      let settled = Set(
        results.filter { $0.test?.layout == .suite && $0.executor == worst.executor && $0.stop != nil }
          .compactMap { $0.test?.test })
      return PolluterSearch.Victim(
        test: test, executor: executor, suite: (worst.tally.notPassed, worst.tally.ran),
        alone: alone(like: worst.executor),
        neighbours: suite.filter { $0 != test && $0.framework == test.framework && !settled.contains($0) })
    }
  }
}

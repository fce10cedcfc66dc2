/// `flakelab test` in the suite layout, end to end: suite passes under each executor (the
/// screen), then the diagnosis of every test that failed in a pass (``DrillDownPlan``: its arms
/// alone, the replays, the second seed, the polluter search), then each test's verdict and
/// advice (``TestFinding``). The report's runs are the screen's suite passes, judged by the gates
/// and the baseline; its tests carry everything else.
///
/// What runs is the plan's to decide; this starts what it asks, in worker processes and suite
/// passes, and feeds it what they came to. Nothing here prints.
package struct SuiteDiagnosis {
  package let settings: TestSettings
  package let budget: TestBudget
  package let binary: TestBinary

  package init(settings: TestSettings, budget: TestBudget, binary: TestBinary) {
    self.settings = settings
    self.budget = budget
    self.binary = binary
  }

  /// The screen runs one pass of each test alone for this many of its passes: 10 of the default
  /// 20 find a test failing alone 26% of the time with 95% probability (5 found 45%, and missed
  /// in one run of two a test that fails 15–47% of the times it runs alone).
  static let passesPerPassAlone = 2

  /// Screens `tests` in `passes` under each executor of `executors`, then, when the budget
  /// leaves the diagnosis its half (``TestBudget/diagnosisFollows``), diagnoses those that failed.
  @MainActor
  package func run(
    _ tests: [PackageTest], under executors: [any IterationExecutor], passes: Range<Int>,
    onProgress: @escaping (_ phase: String, Supervisor.Progress) -> Void = { _, _ in }
  ) throws -> Report {
    SuspendSignal.install()
    let diagnoses = budget.diagnosisFollows
    let (screened, diagnosis, interrupted) = try InterruptSignal.watching {
      let screen = PassSupervisor(timeout: settings.timeout) { onProgress("screen", $0) }
      let screened = try screen.run(
        screenSeries(tests, under: executors, all: diagnoses, passes: passes.count), passes: passes,
        replicates: settings.replicates ?? SupervisedRun.defaultReplicates, seed: settings.seed,
        packagePath: binary.package.path, budget: budget)
      guard !screen.wasInterrupted, diagnoses else { return (screened, Diagnosis(), screen.wasInterrupted) }
      let diagnosis = try diagnose(tests, screen: screened, passes: passes.count, onProgress: onProgress)
      return (screened, diagnosis, diagnosis.interrupted)
    }
    SuspendSignal.restoreDefault()
    // The passes one at a time and alone are the test's, beside the diagnosis's: the report's
    // runs are the screen as swift test runs it, one per test and executor, which gates and
    // baselines judge.
    let otherModes = screened.filter { $0.test?.layout != .suite }
    var report = Report(
      runs: screened.filter { $0.test?.layout == .suite }, interrupted: interrupted, shard: settings.shard,
      confidence: settings.confidence, seed: settings.seed, program: settings.program, timeout: settings.timeout)
    report.budget = budget.limit
    report.tests = TestFinding.findings(
      of: tests, runs: report.runs + otherModes + diagnosis.results, polluters: diagnosis.polluters,
      locations: binary.package.locations, confidence: settings.confidence)
    if !interrupted { report.judge(gates: settings.gates, baseline: settings.baseline) }
    return report
  }

  /// The screen's passes: the suite under each executor; and with `all`, under the first that
  /// runs tests side by side, Swift Testing's one at a time and every test alone.
  private func screenSeries(
    _ tests: [PackageTest], under executors: [any IterationExecutor], all: Bool, passes: Int
  ) -> [PassSupervisor.Series] {
    let (package, seed, preload) = (binary.package, settings.seed, binary.preload)
    let suite = executors.map { TestLaunch.passes(of: tests, in: package, executor: $0, seed: seed, preload: preload) }
    // Swift Testing's tests once more one at a time under global, as swift test --no-parallel
    // and Xcode run them: a race that a busy pool hides in parallel passes shows there.
    let parallel = executors.filter { all && $0.harnessMechanism?.runsTestsInParallel == true }.prefix(1)
    let inTurn = parallel.filter { _ in tests.contains { $0.framework == .swiftTesting } }.map {
      TestLaunch.passes(of: tests, in: package, executor: $0, seed: seed, layout: .oneAtATime, preload: preload)
    }
    // And each alone, as swift test --filter runs one: a test that needs a neighbour or a warm
    // process can fail only there. A pass costs a process per test, so it takes a share of them.
    let alone = parallel.filter { _ in tests.count > 1 }.map {
      TestLaunch.passes(
        of: tests, in: package, executor: $0, seed: seed, layout: .alone,
        passes: max(1, passes / Self.passesPerPassAlone), preload: preload)
    }
    return suite + inTurn + alone
  }

  /// What the diagnosis came to: its runs, the polluters found, whether Ctrl-C cut it short.
  private struct Diagnosis {
    var results: [RunResult] = []
    var polluters: [PackageTest: Polluters] = [:]
    var interrupted = false
  }

  /// The plan for the tests that failed in the screen, run to its end. A test whose only
  /// failures were crashes of a process it shared with others, none of which crashed alone, has
  /// nothing a run alone can explain: it is not diagnosed.
  @MainActor
  private func diagnose(
    _ tests: [PackageTest], screen: [RunResult], passes: Int,
    onProgress: @escaping (_ phase: String, Supervisor.Progress) -> Void
  ) throws -> Diagnosis {
    // Grouped once: thousands of tests each looked up in every run would cost the square.
    let byTest = Dictionary(grouping: screen.filter { $0.test != nil }, by: { $0.test!.test })
    let failed = tests.filter { test in
      (byTest[test] ?? []).contains { run in
        run.tally.outcomesByFrequency.contains { !$0.outcome.isOutsideTheRate && !$0.outcome.isCrashBesideOthers }
      }
    }
    guard !failed.isEmpty else { return Diagnosis() }
    let failingEverywhere = Set(
      failed.filter { test in
        (byTest[test] ?? []).allSatisfy { $0.tally.ran > 0 && $0.tally.notPassed == $0.tally.ran }
      })
    var plan = DrillDownPlan(
      arms: DiagnosisArm.standard(screenPasses: passes, executors: settings.diagnosisExecutors, binary: binary),
      tests: failed, failingEverywhere: failingEverywhere, screen: screen, suite: tests, settings: settings,
      budget: budget)
    let progress = { onProgress("diagnosis of \(failed.count) tests", $0) }
    let workers = Supervisor(
      options: .init(
        jobs: settings.jobs, timeout: settings.timeout, workerExecutable: settings.workerExecutable,
        deadline: budget.end),
      onProgress: progress)
    let clock = ContinuousClock()
    var action = plan.start(at: clock.now)
    while let next = action {
      switch next {
      case .launch(let requests):
        let results = try workers.run(requests.map(supervised))
        action = plan.ran(
          zip(requests, results).map(DrillDownPlan.Finished.init), interrupted: workers.wasInterrupted, at: clock.now)
      case .pass(let pass):
        let (victimRun, interrupted) = try run(pass, onProgress: progress)
        action = plan.passRan(victimRun, interrupted: interrupted, at: clock.now)
      }
    }
    return Diagnosis(results: plan.results, polluters: plan.polluters, interrupted: plan.interrupted)
  }

  /// The worker run that carries out `request`.
  private func supervised(_ request: DrillDownPlan.Request) -> SupervisedRun {
    var run = TestLaunch.run(
      request.test, of: binary.package, executor: request.arm.executor, indices: request.indices,
      seed: request.isSecondSeed ? SecondSeed.seed(after: settings.seed) : settings.seed, layout: request.layout,
      probe: binary.probe, preload: binary.preload, isConfirmation: request.isSecondSeed)
    run.replicates = request.replicates
    run.isScheduled = request.isScheduled
    return run
  }

  /// One suite pass of the polluter search: what its victim came to (nil when it never ran),
  /// and whether Ctrl-C cut it.
  private func run(
    _ pass: PolluterSearch.Pass, onProgress: @escaping (Supervisor.Progress) -> Void
  ) throws -> (PolluterSearch.Failures?, interrupted: Bool) {
    let series = TestLaunch.passes(
      of: pass.tests, in: binary.package, executor: pass.victim.executor, seed: settings.seed, preload: binary.preload)
    let passes = PassSupervisor(timeout: settings.timeout, onProgress: onProgress)
    let results = try passes.run(
      [series], passes: pass.index..<(pass.index + 1), replicates: 1, seed: settings.seed,
      packagePath: binary.package.path)
    let tally = results.first { $0.test?.test == pass.victim.test }?.tally
    return (tally.map { PolluterSearch.Failures(failed: $0.notPassed, ran: $0.ran) }, passes.wasInterrupted)
  }
}

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

  /// Screens `tests` in `passes` under each executor of `executors`, then, when the budget
  /// leaves the diagnosis its half once a test has failed (``TestBudget/diagnosisFollows``),
  /// diagnoses those that failed.
  @MainActor
  package func run(
    _ tests: [PackageTest], under executors: [any IterationExecutor], passes: Range<Int>,
    onProgress: @escaping (_ phase: String, Supervisor.Progress) -> Void = { _, _ in }
  ) throws -> Report {
    // Measuring over, Ctrl-C and SIGTERM end the process at once and Ctrl-Z stops it, even
    // while the report waits on a full pipe; also when a run threw.
    SuspendSignal.install()
    defer { SuspendSignal.restoreDefault() }
    let diagnoses = budget.diagnosisFollows
    let (screened, diagnosis, interrupted) = try InterruptSignal.watching {
      let screen = PassSupervisor(timeout: settings.timeout) { onProgress("screen", $0) }
      let screened = try screen.run(
        screenSeries(tests, under: executors, diagnosisFollows: diagnoses, passes: passes.count), passes: passes,
        replicates: settings.replicates ?? SupervisedRun.defaultReplicates, seed: settings.seed,
        packagePath: binary.package.path, budget: screenBudget)
      guard !screen.wasInterrupted, diagnoses else { return (screened, Diagnosis(), screen.wasInterrupted) }
      var diagnosis = try diagnose(tests, screen: screened, passes: passes.count, onProgress: onProgress)
      if !diagnosis.interrupted, settings.sanitizing != .none {
        try sanitize(tests, after: screened + diagnosis.results, into: &diagnosis, onProgress: onProgress)
      }
      return (screened, diagnosis, diagnosis.interrupted)
    }
    // The passes one at a time and alone are the test's, beside the diagnosis's: the report's
    // runs are the screen as swift test runs it, one per test and executor, which gates and
    // baselines judge.
    let otherModes = screened.filter { $0.test?.layout != .suite }
    var report = Report(
      runs: screened.filter { $0.test?.layout == .suite }, interrupted: interrupted, shard: settings.shard,
      confidence: settings.confidence, seed: settings.seed, program: settings.program, timeout: settings.timeout)
    report.budget = budget.limit
    report.sanitizer = diagnosis.sanitizer
    report.tests = TestFinding.findings(
      of: tests, runs: report.runs + otherModes + diagnosis.results, polluters: diagnosis.polluters,
      races: diagnosis.races, locations: binary.package.locations, confidence: settings.confidence)
    if !interrupted { report.judge(gates: settings.gates, baseline: settings.baseline) }
    return report
  }

  /// The screen's passes, as ``ScreenSeries/chosen(for:under:passes:diagnosisFollows:)`` chooses them.
  private func screenSeries(
    _ tests: [PackageTest], under executors: [any IterationExecutor], diagnosisFollows: Bool, passes: Int
  ) -> [PassSupervisor.Series] {
    ScreenSeries.chosen(for: tests, under: executors, passes: passes, diagnosisFollows: diagnosisFollows).compactMap {
      chosen in
      executors.first { $0.id == chosen.executor }.map { executor in
        TestLaunch.passes(
          of: tests, in: binary.package, executor: executor, seed: settings.seed, layout: chosen.layout,
          passes: chosen.passes, preload: binary.preload)
      }
    }
  }

  /// What the diagnosis came to: its runs, the polluters found, the sanitized arm's races and
  /// what it took, whether Ctrl-C cut it short.
  private struct Diagnosis {
    var results: [RunResult] = []
    var polluters: [PackageTest: Polluters] = [:]
    var races: [PackageTest: RaceEvidence] = [:]
    var sanitizer: SanitizerSummary?
    var interrupted = false
  }

  /// The thread sanitizer's part (``RaceSearch``): each test that failed under global in
  /// `runs` alone, after its polluters where the search named them; with `--sanitize thread`,
  /// the screen's global passes sanitized too.
  private func sanitize(
    _ tests: [PackageTest], after runs: [RunResult], into diagnosis: inout Diagnosis,
    onProgress: @escaping (_ phase: String, Supervisor.Progress) -> Void
  ) throws {
    let search = RaceSearch(
      package: binary.package, preload: binary.preload, jobs: max(settings.jobs, RaceSearch.defaultJobs),
      timeout: settings.timeout,
      confidence: settings.confidence, sanitizing: settings.sanitizing)
    let budget = budget
    let found = try search.run(
      RaceSearch.subjects(of: tests, failedIn: runs, polluters: diagnosis.polluters), passesOver: tests,
      isInTime: { budget.isInTime(at: .now) }, onProgress: onProgress)
    diagnosis.races = found.evidence
    diagnosis.sanitizer = found.summary
    diagnosis.interrupted = found.interrupted
  }

  /// The share of `--budget` the thread sanitizer's build and runs keep after the diagnosis.
  static let sanitizerShare = 1.0 / 6

  /// The screen's budget: while no test has failed it may use the whole, less the sanitizer's
  /// share where the sanitizer runs every test whatever the screen finds.
  private var screenBudget: TestBudget {
    budget.keeping(settings.sanitizing == .thread ? Self.sanitizerShare : 0)
  }

  /// The diagnosis's budget: the whole, less the sanitizer's share where it runs.
  private var diagnosisBudget: TestBudget {
    settings.sanitizing == .none ? budget : budget.leaving(Self.sanitizerShare)
  }

  /// The plan for the tests that failed in the screen, run to its end.
  @MainActor
  private func diagnose(
    _ tests: [PackageTest], screen: [RunResult], passes: Int,
    onProgress: @escaping (_ phase: String, Supervisor.Progress) -> Void
  ) throws -> Diagnosis {
    var plan = DrillDownPlan(
      afterScreen: screen, of: tests,
      arms: DiagnosisArm.standard(screenPasses: passes, executors: settings.diagnosisExecutors, binary: binary),
      settings: settings, budget: diagnosisBudget)
    guard !plan.tests.isEmpty else { return Diagnosis() }
    let progress = { [count = plan.tests.count] in onProgress("diagnosis of \(count) tests", $0) }
    let workers = Supervisor(
      options: .init(
        jobs: settings.jobs, timeout: settings.timeout, workerExecutable: settings.workerExecutable,
        deadline: diagnosisBudget.end),
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

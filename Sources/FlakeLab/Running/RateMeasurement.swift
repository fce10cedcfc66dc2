/// One measurement, start to finish: supervise every run in worker processes, estimate each
/// rate at the report's confidence, judge it (claims, gates, the baseline), and make the report.
///
/// Commands parse their options into a measurement, call ``run(_:judge:onProgress:)``, and render
/// what it returns; nothing here prints. Ctrl-C and SIGTERM end the supervision early with the
/// runs that finished (``Report/interrupted``).
package struct RateMeasurement: Sendable {
  package var jobs = 1
  package var timeout: Duration
  /// `--replicates`, or nil for each run's default (``replicates(independent:)``).
  package var replicates: Int?
  package var shard: Shard?
  package var seed: UInt64
  package var confidence = FailureRateEstimate.defaultConfidence
  package var gates: [FailureRateGate] = []
  package var baseline: Report?
  /// `--budget`: no work starts once this much time has passed since the measurement began.
  package var budget: Duration?
  /// The executable the workers are started from, and the program replay commands name.
  package var workerExecutable: String
  package var program: String

  package init(timeout: Duration, seed: UInt64, workerExecutable: String, program: String) {
    self.timeout = timeout
    self.seed = seed
    self.workerExecutable = workerExecutable
    self.program = program
  }

  /// Replicates of a global run unless `--replicates` says otherwise: enough to see how far the
  /// rate moves between processes, few enough that process start-up stays a small share.
  package static let defaultReplicates = 10

  /// The replicates of a run: `--replicates`, or by default ``defaultReplicates`` (at least one
  /// per job) where iterations are not independent, and one per job where they are (their
  /// interval needs no replicates, see ``FailureRateEstimate``).
  package func replicates(independent: Bool) -> Int {
    replicates ?? (independent ? jobs : max(Self.defaultReplicates, jobs))
  }

  /// Every run of `plan`, in `flakelab worker` processes; `judge` gets each result with its run.
  @MainActor
  package func run(
    _ plan: RunPlan, judge: (inout RunResult, RunPlan.Run) -> Void = { _, _ in },
    onProgress: @escaping (Supervisor.Progress) -> Void = { _ in }
  ) throws -> Report {
    try run(
      plan.runs.map { SupervisedRun($0, workerExecutable: workerExecutable) },
      judge: { result, index in judge(&result, plan.runs[index]) }, onProgress: onProgress)
  }

  /// Supervises `runs`, estimates each at the report's confidence, lets `judge` add a verdict
  /// (given the run's index), and notes the problems of gates and the baseline.
  @MainActor
  package func run(
    _ runs: [SupervisedRun], judge: (inout RunResult, Int) -> Void = { _, _ in },
    onProgress: @escaping (Supervisor.Progress) -> Void = { _ in }
  ) throws -> Report {
    SuspendSignal.install()
    let supervisor = Supervisor(
      options: .init(
        jobs: jobs, timeout: timeout, workerExecutable: workerExecutable,
        deadline: budget.map { ContinuousClock.now + $0 }),
      onProgress: onProgress)
    let measured = try InterruptSignal.watching {
      try supervisor.run(
        runs.map { run in
          var run = run
          run.replicates = run.replicates ?? replicates(independent: run.iterationsAreIndependent)
          return run
        })
    }
    // Measuring is over: from here Ctrl-C and SIGTERM end the process at once, even while the
    // report waits on a full pipe, and Ctrl-Z stops it as any program.
    SuspendSignal.restoreDefault()
    var results: [RunResult] = []
    for (index, var result) in measured.enumerated() {
      // An interrupted measurement reports every run, what it cut as not run.
      result.estimate(atConfidence: confidence)
      judge(&result, index)
      results.append(result)
    }
    var report = Report(
      runs: results, interrupted: supervisor.wasInterrupted, shard: shard, confidence: confidence,
      seed: seed, program: program, timeout: timeout)
    report.budget = budget
    // Gates on partial counts would judge a rate nobody measured.
    if !supervisor.wasInterrupted { report.judge(gates: gates, baseline: baseline) }
    return report
  }
}

extension RateMeasurement {
  /// `flakelab test` in the suite layout: suite passes under each arm (the screen), then the
  /// drill-down of every test that failed in a pass, then each test's verdict and diagnosis.
  /// The report's runs are the screen's, judged by the gates and the baseline; its tests carry
  /// the drill-down's runs besides.
  ///
  /// With a ``budget``, the screen starts no pass after half of it (a failure it found needs
  /// the drill-down to be explained), and the drill-down no worker after the whole.
  @MainActor
  package func screen(
    _ tests: [PackageTest], arms: [PassSupervisor.Arm], passes: Range<Int>, packagePath: String,
    drillDown: DrillDown?, locations: [PackageTest: SourceLocation] = [:],
    onProgress: @escaping (_ stage: String, Supervisor.Progress) -> Void = { _, _ in }
  ) throws -> Report {
    SuspendSignal.install()
    let (screened, drilled, interrupted) = try InterruptSignal.watching {
      try screenThenDrillDown(tests, arms: arms, passes: passes, packagePath: packagePath, drillDown: drillDown, onProgress: onProgress)
    }
    SuspendSignal.restoreDefault()
    // The passes one at a time and alone are the test's, beside the drill-down's: the report's
    // runs are the screen as swift test runs it, one per test and executor, which gates and
    // baselines judge.
    let otherModes = screened.filter { $0.test?.layout != .suite }
    var report = Report(
      runs: screened.filter { $0.test?.layout == .suite }, interrupted: interrupted, shard: shard,
      confidence: confidence, seed: seed, program: program, timeout: timeout)
    report.budget = budget
    report.tests = TestFinding.findings(
      of: tests, runs: report.runs + otherModes + drilled.results, polluters: drilled.polluters, locations: locations,
      confidence: confidence)
    if !interrupted { report.judge(gates: gates, baseline: baseline) }
    return report
  }

  /// The screen's passes, then the drill-down of the tests that failed in them; whether an
  /// interrupt cut either short.
  @MainActor
  private func screenThenDrillDown(
    _ tests: [PackageTest], arms: [PassSupervisor.Arm], passes: Range<Int>, packagePath: String, drillDown: DrillDown?,
    onProgress: @escaping (_ stage: String, Supervisor.Progress) -> Void
  ) throws -> (screened: [RunResult], drilled: DrillDown.Findings, interrupted: Bool) {
    let start = ContinuousClock.now
    let supervisor = PassSupervisor(timeout: timeout) { onProgress("screen", $0) }
    let screened = try supervisor.run(
      arms, passes: passes, replicates: replicates ?? Self.defaultReplicates, seed: seed, packagePath: packagePath,
      deadline: budget.map { start + (drillDown == nil ? $0 : $0 / 2) })
    var interrupted = supervisor.wasInterrupted
    var drilled = DrillDown.Findings(results: [], interrupted: false)
    // Grouped once: thousands of tests each looked up in every run would cost the square.
    let byTest = Dictionary(grouping: screened.filter { $0.test != nil }, by: { $0.test!.test })
    // A test whose only failures were crashes of a process it shared with others, none of which
    // crashed alone, has nothing a run alone can explain: it is not drilled down.
    let failed = tests.filter { test in
      (byTest[test] ?? []).contains { run in
        run.tally.outcomesByFrequency.contains { !$0.outcome.isOutsideTheRate && !$0.outcome.isCrashBesideOthers }
      }
    }
    if !interrupted, let drillDown, !failed.isEmpty {
      let failingEverywhere = Set(
        failed.filter { test in
          (byTest[test] ?? []).allSatisfy { $0.tally.ran > 0 && $0.tally.notPassed == $0.tally.ran }
        })
      drilled = try drillDown.run(
        failed, failingEverywhere: failingEverywhere, screen: screened, suite: tests, deadline: budget.map { start + $0 }
      ) {
        onProgress("diagnosis of \(failed.count) tests", $0)
      }
      interrupted = drilled.interrupted
    }
    return (screened, drilled, interrupted)
  }
}

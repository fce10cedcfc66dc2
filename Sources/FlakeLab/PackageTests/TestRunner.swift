/// `flakelab test`'s run, as ``CIRunner`` is `ci`'s: the package's tests under each executor
/// that takes effect in its test process, in the suite layout screened and diagnosed
/// (``SuiteDiagnosis``), or in the other layouts each test alone. The command parses, builds and
/// probes (``TestBinary``) and reports; this decides.
package struct TestRunner {
  /// What the run met that changes how it measures, for the user to know.
  package enum Notice: Sendable, Equatable {
    /// The executor's mechanism did not take effect in this toolchain's test process: its runs
    /// are left out.
    case executorHadNoEffect(ExecutorID)
    /// XCTest's `XCTMain` replacement did not take effect: a process per iteration.
    case xctestRunsAProcessPerIteration
    /// The in-process Swift Testing runner is missing or does not fit: Swift Testing's own entry
    /// point, slower.
    case swiftTestingRunsThroughItsEntryPoint
  }

  /// What the run came to: the report, and whether it answers test by test (suite passes and
  /// their diagnosis) or run by run (tests alone).
  package struct Result {
    package var report: Report
    package let answersByTest: Bool
  }

  package let settings: TestSettings
  package let budget: TestBudget
  package let binary: TestBinary
  package let layout: TestReference.ProcessLayout
  /// `--index`: only this iteration, which replays a seeded one.
  package let index: Int?
  package let iterations: Int

  package init(
    settings: TestSettings, budget: TestBudget, binary: TestBinary, layout: TestReference.ProcessLayout, index: Int?,
    iterations: Int
  ) {
    self.settings = settings
    self.budget = budget
    self.binary = binary
    self.layout = layout
    self.index = index
    self.iterations = iterations
  }

  /// Whether a run in `layout` with `index` diagnoses the tests its screen found failing: the
  /// suite layout does, but for the replay of one iteration. The command sizes the budget by it.
  package static func diagnoses(layout: TestReference.ProcessLayout, index: Int?) -> Bool {
    layout == .suite && index == nil
  }

  /// The executors and tests a binary needs probed for: the screen's, and the diagnosis's.
  package static func probedExecutors(
    _ settings: TestSettings, layout: TestReference.ProcessLayout, index: Int?
  ) -> [any IterationExecutor] {
    settings.executors + (diagnoses(layout: layout, index: index) ? settings.diagnosisExecutors : [])
  }

  /// Runs `tests`; with `failsOnFlaky`, a flaky or failing test fails the report.
  @MainActor
  package func run(
    _ tests: [PackageTest], failsOnFlaky: Bool, notify: (Notice) -> Void,
    onProgress: @escaping (_ phase: String, Supervisor.Progress) -> Void
  ) throws -> Result {
    let usable = settings.executors.filter { executor in
      guard binary.supports(executor) else {
        notify(.executorHadNoEffect(executor.id))
        return false
      }
      return true
    }
    let probe = binary.probe
    if tests.contains(where: { $0.framework == .xctest }), !probe.repeatsXCTestInProcess {
      notify(.xctestRunsAProcessPerIteration)
    } else if tests.contains(where: { $0.framework == .swiftTesting }), !probe.runsSwiftTestingInProcess {
      notify(.swiftTestingRunsThroughItsEntryPoint)
    }
    let indices = index.map { $0..<($0 + 1) } ?? settings.shard?.indices(of: iterations) ?? 0..<iterations
    var result: Result
    if layout == .suite, probe.repeatsXCTestInProcess || !tests.contains(where: { $0.framework == .xctest }) {
      let diagnosis = SuiteDiagnosis(settings: settings, budget: budget, binary: binary)
      let report = try diagnosis.run(tests, under: usable, passes: indices, onProgress: onProgress)
      result = Result(report: report, answersByTest: true)
    } else {
      let runs = tests.flatMap { test in
        usable.map { executor in
          TestLaunch.run(
            test, of: binary.package, executor: executor, indices: indices, seed: settings.seed, layout: layout,
            probe: probe, preload: binary.preload)
        }
      }
      result = Result(report: try alone(runs, onProgress: { onProgress("runs", $0) }), answersByTest: false)
    }
    if failsOnFlaky, !result.report.interrupted { result.report.judgeStability() }
    return result
  }

  /// Each test alone, in worker processes: each run estimated, the gates and the baseline judged.
  @MainActor
  private func alone(_ runs: [SupervisedRun], onProgress: @escaping (Supervisor.Progress) -> Void) throws -> Report {
    let measured = try Supervisor.measuring(
      runs.map { run in
        var run = run
        run.replicates = run.replicates ?? settings.replicates(independent: run.iterationsAreIndependent)
        return run
      },
      options: .init(
        jobs: settings.jobs, timeout: settings.timeout, workerExecutable: settings.workerExecutable,
        deadline: budget.end),
      onProgress: onProgress)
    var report = Report(
      runs: measured.results.map { Report.estimated($0, at: settings.confidence) }, interrupted: measured.interrupted,
      shard: settings.shard, confidence: settings.confidence, seed: settings.seed, program: settings.program,
      timeout: settings.timeout)
    report.budget = budget.limit
    if !measured.interrupted { report.judge(gates: settings.gates, baseline: settings.baseline) }
    return report
  }
}

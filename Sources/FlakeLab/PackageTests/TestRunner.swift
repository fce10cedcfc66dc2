/// `flakelab test`'s run, as ``CIRunner`` is `ci`'s: the package's tests under each executor
/// that takes effect in its test process, as suite passes (each framework's tests in a fresh
/// process, as `swift test` runs them) and then the drill-down of those that failed; or, in the
/// other layouts, each test alone. The command parses, builds and reports; this decides.
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

  package let package: TestPackage
  package let preload: String
  /// The executors asked for, each with a harness mechanism.
  package let executors: [any IterationExecutor]
  /// The drill-down's executors (``DrillDown/executors``).
  package let diagnosisExecutors: [any IterationExecutor]
  package let layout: TestReference.ProcessLayout
  /// `--index`: only this iteration, which replays a seeded one.
  package let index: Int?
  package let iterations: Int
  package let measurement: RateMeasurement

  package init(
    package: TestPackage, preload: String, executors: [any IterationExecutor],
    diagnosisExecutors: [any IterationExecutor], layout: TestReference.ProcessLayout, index: Int?, iterations: Int,
    measurement: RateMeasurement
  ) {
    self.package = package
    self.preload = preload
    self.executors = executors
    self.diagnosisExecutors = diagnosisExecutors
    self.layout = layout
    self.index = index
    self.iterations = iterations
    self.measurement = measurement
  }

  /// The screen runs one pass of each test alone for this many of its passes: 10 of the default
  /// 20 find a test failing alone 26% of the time with 95% probability (5 found 45%, and missed
  /// in one run of two a test that fails 15–47% of the times it runs alone).
  static let passesPerPassAlone = 2

  /// The screen's passes of `passes`: the suite under each executor of `usable`; and when
  /// `screened`, under the first that runs tests side by side, Swift Testing's one at a time and
  /// every test alone.
  private func screenArms(
    _ tests: [PackageTest], under usable: [any IterationExecutor], screened: Bool, passes: Int
  ) -> [PassSupervisor.Arm] {
    let seed = measurement.seed
    let suite = usable.map { TestLaunch.passes(of: tests, in: package, executor: $0, seed: seed, preload: preload) }
    // Swift Testing's tests once more one at a time under global, as swift test --no-parallel
    // and Xcode run them: a race that a busy pool hides in parallel passes shows there.
    let parallel = usable.filter { screened && $0.harnessMechanism?.runsTestsInParallel == true }.prefix(1)
    let inTurn = parallel.filter { _ in tests.contains { $0.framework == .swiftTesting } }
      .map {
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

  /// Runs `tests`; with `failsOnFlaky`, a flaky or failing test fails the report.
  @MainActor
  package func run(
    _ tests: [PackageTest], failsOnFlaky: Bool, notify: (Notice) -> Void,
    onProgress: @escaping (_ stage: String, Supervisor.Progress) -> Void
  ) throws -> Result {
    let screened = layout == .suite && index == nil
    let probed = executors + (screened ? diagnosisExecutors : [])
    let probe = try HarnessProbe.run(
      binary: package.testBinary, preload: preload, mechanisms: probed.compactMap(\.harnessMechanism))
    let usable = executors.filter { executor in
      guard probe.supports(executor.harnessMechanism ?? .untouched) else {
        notify(.executorHadNoEffect(executor.id))
        return false
      }
      return true
    }
    if tests.contains(where: { $0.framework == .xctest }), !probe.repeatsXCTestInProcess {
      notify(.xctestRunsAProcessPerIteration)
    } else if tests.contains(where: { $0.framework == .swiftTesting }), !probe.runsSwiftTestingInProcess {
      notify(.swiftTestingRunsThroughItsEntryPoint)
    }
    let indices = index.map { $0..<($0 + 1) } ?? measurement.shard?.indices(of: iterations) ?? 0..<iterations
    let seed = measurement.seed
    var result: Result
    if layout == .suite, probe.repeatsXCTestInProcess || !tests.contains(where: { $0.framework == .xctest }) {
      let drillDown = DrillDown.standard(
        screenPasses: iterations, executors: diagnosisExecutors, probe: probe, measurement: measurement, package: package,
        preload: preload)
      let report = try measurement.screen(
        tests, arms: screenArms(tests, under: usable, screened: screened, passes: indices.count), passes: indices,
        packagePath: package.path, drillDown: screened ? drillDown : nil, locations: package.locations,
        onProgress: onProgress)
      result = Result(report: report, answersByTest: true)
    } else {
      let runs = tests.flatMap { test in
        usable.map { executor in
          TestLaunch.run(
            test, of: package, executor: executor, indices: indices, seed: seed, layout: layout, probe: probe,
            preload: preload)
        }
      }
      let report = try measurement.run(runs, onProgress: { onProgress("runs", $0) })
      result = Result(report: report, answersByTest: false)
    }
    if failsOnFlaky, !result.report.interrupted { result.report.judgeStability() }
    return result
  }
}

import FlakeLab
import Foundation

/// `flakelab test`: a SwiftPM package's own XCTest and Swift Testing tests, unmodified: which are
/// flaky, why, and what to do. Suite passes under each executor screen every test as `swift
/// test` runs them; the tests that failed then run alone under global, serial and seeded, warm
/// and fresh, and the contrasts decide each test's diagnosis.
struct TestCommand: Command {
  static let name = "test"
  static let abstract = "Find which of a SwiftPM package's tests are flaky, why, and what to do."
  static let usage =
    "test [--package-path DIR] [--filter REGEX]... [--skip REGEX]... [--list] [--executors LIST] [--layout L] [options]"
  static let discussion = """
    Builds the package's tests (swift build --build-tests), then runs them in processes of its
    own test binary, with a harness preloaded that puts the process under the executor: no
    change to the package. A test's suite stands where a scenario does in reports, its function
    where a variant does.

    The suite layout (the default) screens: an iteration is one pass over every selected test in
    a fresh process, as swift test runs them (Swift Testing's in parallel under global, one at a
    time under serial, fifo and seeded). A test that failed in any pass is then drilled down:
    run alone as warm repetitions under global, serial and seeded and in fresh processes under
    global, each arm stopped once its answer is settled. The report starts with the answer: each
    test that is not stable, its diagnosis and what to do; --verbose adds every run. --budget
    bounds the whole: processes under way finish, no new one starts, and what was cut says so.

    --layout repetitions runs each test alone, repeated in a warm process; --layout fresh, a
    process per iteration. Rates under the global executor differ between layouts, and with the
    machine's cores and load.

    An iteration is timed out only when it has not finished after --timeout (default: 1m,
    Swift Testing's shortest time limit), so a slow iteration is never called a hang; the limit
    is in every report. Under serial, fifo and seeded a test that blocks a thread while it waits
    for async work can never finish; it is reported timed out.

    Skipped tests (disabled, a condition trait, XCTSkip) are counted as skipped, outside the
    failure rate. Processes a test starts end with its worker.
    """
  /// The options, each declared once: parsing, help and defaults derive from these.
  enum Options {
    static let list = Flag("list", "List the tests with their framework instead of running them.")
    static let executor = ExecutorChoice.one(
      "Run under one executor: "
        + ExecutorCatalog.standard.filter { $0.harnessMechanism != nil }.map(\.name).joined(separator: ", "))
    static let executors = ExecutorChoice.list("Comma-separated executors", defaults: ExecutorCatalog.comparedByDefault)
    static let layout = Option<TestReference.ProcessLayout>(
      "layout", "L",
      "suite: an iteration is one pass over every test in a fresh process, then a diagnosis of the tests that failed; "
        + "repetitions: each test alone, repeated in a warm process; fresh: each test alone, a process per iteration",
      default: .suite
    ) { text, option throws(UsageError) in
      TestReference.ProcessLayout(
        rawValue: try ValueParsers.choice(
          text, option: option, among: TestReference.ProcessLayout.chosenByUsers.map(\.rawValue)))!
    }
    static let iterations = Option(
      "iterations", "N", "Passes over the suite (--layout suite), or iterations of each test under each executor",
      default: 20, parse: ValueParsers.positiveCount)
    static let verbose = Flag(
      "verbose", "After the answer, the table of every test under every executor and layout, with histograms.")
    static let budget = Option<Duration?>(
      "budget", "DURATION",
      "Bound the run, build excepted, e.g. 5m, or none: the screen starts no pass that would end after half of it "
        + "once a test has failed (while none has, after it), the diagnosis none after five sixths of it (the thread "
        + "sanitizer has the rest), and no process starts after it",
      default: defaultBudget, shownDefault: "10m"
    ) { text, option throws(UsageError) in
      text == "none" ? nil : try ValueParsers.duration(text, option: option)
    }
    static let sanitize = SanitizeOption.option(default: .failures)
    static let index = Option<Int>.optional(
      "index", "I", "Run only iteration I (with --seed, replays a seeded iteration)", parse: ValueParsers.index)
  }

  static let options =
    PackageOptions.selectingTests + [Options.list.spec]
    + [Options.executor.spec, Options.executors.spec, Options.layout.spec]
    + [Options.index.spec, Options.budget.spec, Options.sanitize.spec, Options.verbose.spec]
    + [FailureRateGate.failOnFlaky.spec]
    + [RecordTarget.option.spec, RecordTarget.noRecord.spec]
    + RunOptions.specs(defaultTimeout: PackageOptions.defaultTimeout, iterations: Options.iterations)

  /// A run with no `--budget` is bounded too: a suite whose passes take minutes (a test helper
  /// that blocks the one queue's thread) would otherwise run for an hour, telling nothing.
  static let defaultBudget: Duration = .seconds(600)

  let packageOptions: PackageOptions
  let isListing: Bool
  let settings: TestSettings
  /// `--budget`, or nil for none.
  let budget: Duration?
  let layout: TestReference.ProcessLayout
  let isVerbose: Bool
  let failsOnFlaky: Bool
  let index: Int?
  let iterations: Int
  let record: RecordTarget?
  let output: OutputStage
  let progress: ProgressDisplay?

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError(
        "test takes no positional arguments, not '\(arguments.positionals[0])'; choose tests with --filter")
    }
    packageOptions = try PackageOptions(arguments)
    isListing = arguments[Options.list]
    layout = try arguments[Options.layout]
    isVerbose = arguments[Options.verbose]
    failsOnFlaky = arguments[FailureRateGate.failOnFlaky]
    if isListing, ![.text, .json].contains(try arguments[Renderings.reportOption]) {
      throw UsageError(
        "--list prints text or, with --format json, one JSON document; not \(try arguments[Renderings.reportOption].rawValue)"
      )
    }
    index = try arguments[Options.index]
    record = try RecordTarget.chosen(arguments)
    let given = try RunOptions(
      arguments, defaultTimeout: PackageOptions.defaultTimeout, iterations: Options.iterations,
      environment: ProcessInfo.processInfo.environment)
    budget = try arguments[Options.budget]
    if layout == .suite, given.jobs > 1 {
      throw UsageError(
        "--jobs runs tests alone side by side (--layout repetitions or fresh); suite passes run one process at a time, "
          + "as swift test does, since a second beside the first would move the global rates")
    }
    let executors = try ExecutorChoice.parse(
      arguments, one: Options.executor, list: Options.executors, command: Self.name, in: catalog,
      seed: given.seed, defaults: ExecutorCatalog.comparedByDefault)
    let runnable = catalog.executors.filter { $0.harnessMechanism != nil }.map(\.name)
    if let other = executors.first(where: { $0.harnessMechanism == nil }) {
      throw UsageError(
        "the \(other.id) executor cannot run inside a package's test process: it runs a scenario's body, "
          + "and a test binary runs its own tests, which only a harness mechanism can put under an executor "
          + "(test runs under \(runnable.joined(separator: ", ")))")
    }
    settings = TestSettings(
      seed: given.seed, jobs: given.jobs, timeout: given.timeout, replicates: given.replicates, shard: given.shard,
      confidence: given.confidence, gates: given.gates, baseline: given.baseline, executors: executors,
      workerExecutable: LabExecutables.worker, program: Program.name, sanitizing: try arguments[Options.sanitize])
    iterations = given.iterations
    output = given.output
    progress = given.progress
  }

  func run() async throws -> ExitStatus {
    if !isListing { try output.refuseOverwriting(record.files(packagePath: packageOptions.path)) }
    let history = isListing ? nil : try record.open(packagePath: packageOptions.path)
    let started = Date()
    let preload = try TestLaunch.preloadLibrary(besides: LabExecutables.current)
    let (package, all) = try packageOptions.build().listed(preload: preload)
    let tests = try packageOptions.selected(all, of: package)
    if isListing {
      return output.finish(CommandOutput(render: { Self.listing(tests, of: package, as: $0) }))
    }
    let binary = try TestBinary.probed(
      package, preload: preload,
      executors: TestRunner.probedExecutors(settings, layout: layout, index: index))
    // The budget starts once the package is built: it bounds the run, not the compiler.
    let runner = TestRunner(
      settings: settings,
      budget: TestBudget(budget, diagnosisFollows: TestRunner.diagnoses(layout: layout, index: index)),
      binary: binary, layout: layout, index: index, iterations: iterations)
    let progress = progress
    let result = try runner.run(
      tests, failsOnFlaky: failsOnFlaky, notify: { printError("\(Program.name): " + Self.describe($0)) }
    ) {
      phase, state in progress?.show(phase + ": " + ProgressLine.render(state))
    }
    progress?.clear()
    let verbose = isVerbose
    let status = output.finish(
      CommandOutput(result.report, baseline: settings.baseline) { report in
        result.answersByTest ? SuiteAnswerText.render(report, verbose: verbose) : ReportText.render(report)
      })
    // After the report: a history that fails now loses the record, never the report. A run cut
    // short is no evidence to keep.
    if let history, !result.report.interrupted {
      try history.record(result.report, started: started, git: GitState.of(packageOptions.path))
      if record == nil { printError("\(Program.name): \(RecordTarget.implicitNote(packagePath: packageOptions.path))") }
    }
    return status
  }

  /// What the runner met, in words.
  private static func describe(_ notice: TestRunner.Notice) -> String {
    switch notice {
    case .executorHadNoEffect(let executor):
      "the \(executor) executor did not take effect in this toolchain's test process; its runs are left out"
    case .xctestRunsAProcessPerIteration:
      "the XCTMain replacement did not take effect; XCTest tests run one process per iteration"
    case .swiftTestingRunsThroughItsEntryPoint:
      "the in-process Swift Testing runner (libFlakeLabSwiftTesting.so, beside the harness) is missing or does not fit "
        + "this Swift Testing; its tests run through Swift Testing's own entry point and whole event stream, slower"
    }
  }

  /// `--list`: a line per test, its framework first, or with `--format json` one document,
  /// `{"tests": [{"test", "framework", "filterID", "source"}]}` (`source` as in reports).
  private static func listing(_ tests: [PackageTest], of package: TestPackage, as format: OutputFormat) -> String {
    guard format == .json else {
      let width = tests.map(\.framework.rawValue.count).max() ?? 0
      return tests.map {
        $0.framework.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.id + "\n"
      }
      .joined()
    }
    let listed = tests.map { test in
      JSONValue.object([
        ("test", .string(test.id)), ("framework", .string(test.framework.rawValue)),
        ("filterID", .string(package.filterID(of: test))),
        (
          "source",
          package.locations[test].map { .object([("path", .string($0.path)), ("line", .int($0.line))]) } ?? .null
        ),
      ])
    }
    return JSONValue.object([("tests", .array(listed))]).serialized() + "\n"
  }

}

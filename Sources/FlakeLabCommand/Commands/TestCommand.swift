import FlakeLab
import FlakeLabHistory
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
    static let packagePath = Option(
      "package-path", "DIR", "The package whose tests to run", default: ".",
      shownDefault: "the current directory") { text, _ in text }
    static let filter = Option<NSRegularExpression>.optional(
      "filter", "REGEX",
      "Run only tests whose ID matches REGEX (any of them, when repeated), as swift test --filter matches: Swift Testing's ID ends with its File.swift:line:column",
      repeatable: true, parse: regex)
    static let skip = Option<NSRegularExpression>.optional(
      "skip", "REGEX", "Leave out tests whose ID matches REGEX", repeatable: true, parse: regex)
    static let list = Flag("list", "List the tests with their framework instead of running them.")
    static let executor = ExecutorChoice.one(
      "Run under one executor: "
        + ExecutorCatalog.standard.filter { $0.harnessMechanism != nil }.map(\.name).joined(separator: ", "))
    static let executors = ExecutorChoice.list("Comma-separated executors", defaults: ExecutorCatalog.comparedByDefault)
    static let skipBuild = Flag("skip-build", "Use the tests an earlier build left instead of building first.")
    static let layout = Option<TestReference.ProcessLayout>(
      "layout", "L",
      "suite: an iteration is one pass over every test in a fresh process, then a diagnosis of the tests that failed; "
        + "repetitions: each test alone, repeated in a warm process; fresh: each test alone, a process per iteration",
      default: .suite
    ) { text, option throws(UsageError) in
      TestReference.ProcessLayout(
        rawValue: try ValueParsers.choice(text, option: option, among: TestReference.ProcessLayout.chosenByUsers.map(\.rawValue)))!
    }
    static let iterations = Option(
      "iterations", "N", "Passes over the suite (--layout suite), or iterations of each test under each executor",
      default: 20, parse: ValueParsers.positiveCount)
    static let verbose = Flag(
      "verbose", "After the answer, the table of every test under every executor and layout, with histograms.")
    static let budget = Option<Duration?>(
      "budget", "DURATION",
      "Bound the run, build excepted, e.g. 5m, or none: the screen starts no pass that would end after half of it, "
        + "the diagnosis no process after all of it",
      default: defaultBudget, shownDefault: "10m"
    ) { text, option throws(UsageError) in
      text == "none" ? nil : try ValueParsers.duration(text, option: option)
    }
    static let index = Option<Int>.optional(
      "index", "I", "Run only iteration I (with --seed, replays a seeded iteration)", parse: ValueParsers.index)
  }

  static let options =
    [Options.packagePath.spec, Options.filter.spec, Options.skip.spec, Options.list.spec]
    + [Options.executor.spec, Options.executors.spec, Options.layout.spec, Options.skipBuild.spec]
    + [Options.index.spec, Options.budget.spec, Options.verbose.spec, FailureRateGate.failOnFlaky.spec]
    + [HistoryRecording.option.spec]
    + MeasurementOptions.specs(defaultTimeout: defaultTimeout, iterations: Options.iterations)

  /// Swift Testing's shortest `.timeLimit`: an iteration that finishes within it is no hang.
  static let defaultTimeout: Duration = .seconds(60)

  /// A run with no `--budget` is bounded too: a suite whose passes take minutes (a test helper
  /// that blocks the one queue's thread) would otherwise run for an hour, telling nothing.
  static let defaultBudget: Duration = .seconds(600)

  let packagePath: String
  let filters: [NSRegularExpression]
  let skips: [NSRegularExpression]
  let isListing: Bool
  /// Each with a harness mechanism: only those can run in a test process.
  let executors: [any IterationExecutor]
  /// The drill-down's executors (``DrillDown/executors``), as the catalog makes them.
  let diagnosisExecutors: [any IterationExecutor]
  let layout: TestReference.ProcessLayout
  let isVerbose: Bool
  let failsOnFlaky: Bool
  let skipsBuild: Bool
  let index: Int?
  let record: HistoryRecording.Target?
  let measurement: MeasurementOptions

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError(
        "test takes no positional arguments, not '\(arguments.positionals[0])'; choose tests with --filter")
    }
    packagePath = try arguments[Options.packagePath]
    filters = try arguments.all(Options.filter)
    skips = try arguments.all(Options.skip)
    isListing = arguments[Options.list]
    layout = try arguments[Options.layout]
    isVerbose = arguments[Options.verbose]
    failsOnFlaky = arguments[FailureRateGate.failOnFlaky]
    skipsBuild = arguments[Options.skipBuild]
    if isListing, ![.text, .json].contains(try arguments[ReportFormat.option]) {
      throw UsageError("--list prints text or, with --format json, one JSON document; not \(try arguments[ReportFormat.option].rawValue)")
    }
    index = try arguments[Options.index]
    record = try arguments[HistoryRecording.option]
    var measurement = try MeasurementOptions(
      arguments, variants: [], defaultTimeout: Self.defaultTimeout, iterations: Options.iterations)
    measurement.measurement.budget = try arguments[Options.budget]
    self.measurement = measurement
    if layout == .suite, measurement.measurement.jobs > 1 {
      throw UsageError(
        "--jobs runs tests alone side by side (--layout repetitions or fresh); suite passes run one process at a time, "
          + "as swift test does, since a second beside the first would move the global rates")
    }
    executors = try ExecutorChoice.parse(
      arguments, one: Options.executor, list: Options.executors, command: Self.name, in: catalog,
      seed: measurement.seed, defaults: ExecutorCatalog.comparedByDefault)
    let runnable = catalog.executors.filter { $0.harnessMechanism != nil }.map(\.name)
    if let other = executors.first(where: { $0.harnessMechanism == nil }) {
      throw UsageError(
        "the \(other.id) executor cannot run inside a package's test process: it runs a scenario's body, "
          + "and a test binary runs its own tests, which only a harness mechanism can put under an executor "
          + "(test runs under \(runnable.joined(separator: ", ")))")
    }
    let seed = measurement.seed
    diagnosisExecutors = try UsageError.mapping { () throws(ScenarioCatalog.LookupError) in
      try DrillDown.executors.map { id throws(ScenarioCatalog.LookupError) in try catalog.executor(id, seed: seed) }
    }
  }

  func run() async throws -> ExitStatus {
    let history = isListing ? nil : try HistoryRecording.open(record, packagePath: packagePath)
    let started = Date()
    let preload = try TestLaunch.preloadLibrary(besides: MeasurementOptions.executablePath)
    var package = try Self.build(packagePath, skippingBuild: skipsBuild)
    let tests = try Self.selected(try package.tests(preload: preload), of: package, filters: filters, skips: skips)
    if isListing {
      print(Self.listing(tests, of: package, as: measurement.output.format), terminator: "")
      return .success
    }
    let record = { (report: Report) throws -> Void in
      // A run cut short, or with no test's verdict, is no evidence to keep.
      guard let history, !report.interrupted else { return }
      let run = RecordedRun(report, started: started, git: GitState.of(packagePath))
      guard !run.results.isEmpty else { return }
      try history.record(run)
    }
    let screened = layout == .suite && index == nil
    let probed = executors + (screened ? diagnosisExecutors : [])
    let probe = try HarnessProbe.run(
      binary: package.testBinary, preload: preload, mechanisms: probed.compactMap(\.harnessMechanism))
    let usable = executors.filter { executor in
      guard probe.supports(executor.harnessMechanism ?? .untouched) else {
        printError(
          "\(Program.name): the \(executor.id) executor did not take effect in this toolchain's test process; its runs are left out")
        return false
      }
      return true
    }
    if tests.contains(where: { $0.framework == .xctest }), !probe.repeatsXCTestInProcess {
      printError(
        "\(Program.name): the XCTMain replacement did not take effect; XCTest tests run one process per iteration")
    } else if tests.contains(where: { $0.framework == .swiftTesting }), !probe.runsSwiftTestingInProcess {
      printError(
        "\(Program.name): the in-process Swift Testing runner (libFlakeLabSwiftTesting.so, beside the harness) is missing or does not fit this Swift Testing; "
          + "its tests run through Swift Testing's own entry point and whole event stream, slower")
    }
    let indices = index.map { $0..<($0 + 1) }
      ?? measurement.shard?.indices(of: measurement.iterations) ?? 0..<measurement.iterations
    guard layout == .suite, probe.repeatsXCTestInProcess || !tests.contains(where: { $0.framework == .xctest }) else {
      let runs = tests.flatMap { test in
        usable.map { executor in
          TestLaunch.run(
            test, of: package, executor: executor, indices: indices, seed: measurement.seed,
            layout: layout, probe: probe, preload: preload)
        }
      }
      return try measurement.measure(runs, failsOnFlaky: failsOnFlaky, text: TextReport.render, record: record)
    }
    let drillDown = DrillDown.standard(
      screenPasses: measurement.iterations, executors: diagnosisExecutors, probe: probe,
      measurement: measurement.measurement, package: package, preload: preload)
    let passes = usable.map { TestLaunch.passes(of: tests, in: package, executor: $0, seed: measurement.seed, preload: preload) }
    // Swift Testing's tests once more one at a time under global, as swift test --no-parallel
    // and Xcode run them: a race that a busy pool hides in parallel passes shows there.
    let inTurn = usable.filter { screened && $0.harnessMechanism?.runsTestsInParallel == true }.prefix(1)
      .filter { _ in tests.contains { $0.framework == .swiftTesting } }
      .map { TestLaunch.passes(of: tests, in: package, executor: $0, seed: measurement.seed, oneAtATime: true, preload: preload) }
    return try measurement.screen(
      tests, arms: passes + inTurn,
      passes: indices, packagePath: packagePath, drillDown: screened ? drillDown : nil, locations: package.locations,
      failsOnFlaky: failsOnFlaky, text: { TestAnswer.render($0, verbose: isVerbose) }, record: record)
  }

  /// The package at `path`, built unless `skippingBuild`; one that does not build says the
  /// compiler's errors first, then the one line that says so.
  static func build(_ path: String, skippingBuild: Bool) throws -> TestPackage {
    do {
      return try TestPackage.build(at: path, skippingBuild: skippingBuild)
    } catch PackageError.doesNotBuild(let path, let status, let compilerLines) {
      compilerLines.forEach(printError)
      throw PackageError.doesNotBuild(path: path, status: status, compilerLines: [])
    }
  }

  /// The tests `--filter` and `--skip` select among `all`, as swift test --filter matches
  /// (Swift Testing's ID with its source location) and as the listing shows the ID, so that
  /// `^…()$` (every replay command's) still names its test.
  static func selected(
    _ all: [PackageTest], of package: TestPackage, filters: [NSRegularExpression], skips: [NSRegularExpression]
  ) throws(UsageError) -> [PackageTest] {
    let tests = all.filter { test in
      let ids = [test.id, package.filterID(of: test)]
      func matches(_ regex: NSRegularExpression) -> Bool {
        ids.contains { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
      }
      return (filters.isEmpty || filters.contains(where: matches)) && !skips.contains(where: matches)
    }
    guard !tests.isEmpty else {
      if all.isEmpty { throw UsageError("the package at '\(package.path)' has no tests") }
      let matched = filters.isEmpty
        ? "no test is left after --skip"
        : "no test matches " + filters.map { "'\($0.pattern)'" }.joined(separator: " or ")
      throw UsageError(
        "\(matched); \(all.count) test\(all.count == 1 ? "" : "s") exist (see '\(Program.name) test --list')")
    }
    return tests
  }

  /// `--list`: a line per test, its framework first, or with `--format json` one document,
  /// `{"tests": [{"test", "framework", "filterID", "source"}]}` (`source` as in reports).
  private static func listing(_ tests: [PackageTest], of package: TestPackage, as format: ReportFormat) -> String {
    guard format == .json else {
      let width = tests.map(\.framework.rawValue.count).max() ?? 0
      return tests.map { $0.framework.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.id + "\n" }
        .joined()
    }
    let listed = tests.map { test in
      JSONValue.object([
        ("test", .string(test.id)), ("framework", .string(test.framework.rawValue)),
        ("filterID", .string(package.filterID(of: test))),
        ("source", package.locations[test.id].map { .object([("path", .string($0.path)), ("line", .int($0.line))]) } ?? .null),
      ])
    }
    return JSONValue.object([("tests", .array(listed))]).serialized() + "\n"
  }

  @Sendable private static func regex(_ text: String, option: String) throws(UsageError) -> NSRegularExpression {
    guard let regex = try? NSRegularExpression(pattern: text) else {
      throw UsageError("\(option) takes a regular expression, and '\(text)' is not one")
    }
    return regex
  }
}

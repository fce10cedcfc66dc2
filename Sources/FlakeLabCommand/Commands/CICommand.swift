import FlakeLab
import FlakeLabHistory
import Foundation

/// `flakelab ci`: a package's tests as a CI job runs them every day: the suite once, as `swift
/// test` runs it, then each test that failed alone again, up to `--retries` times. A test that
/// failed and then passed is flaky, one that failed every time failed; the quarantine keeps its
/// tests' failures from failing the job.
struct CICommand: Command {
  static let name = "ci"
  static let abstract = "Run a package's tests once, as swift test does, retrying each failure alone: flaky or failed."
  static let usage =
    "ci [--package-path DIR] [--retries N] [--fail-on-flaky] [--quarantine FILE] [--filter REGEX]... [--skip REGEX]... [options]"
  static let discussion = """
    Builds the package's tests, then runs the suite once under the global executor, as swift test
    runs it: each framework's tests in a process of their own, XCTest's first, Swift Testing's in
    parallel. A test that failed, crashed or hung runs again alone, in a fresh process, until it
    passes or its retries are spent: then it is flaky; failing every time, it failed. A crash or a
    hang is a result; nothing a run starts outlives it.

    Exit 0 when no test failed for good (--fail-on-flaky: and none was flaky), 1 otherwise, 2 for
    bad input, 130 when interrupted. The tests the quarantine file lists run and are reported, but
    their failures do not fail the job (default .flakelab/quarantine.json in the package, when it
    exists; edit it with 'flakelab quarantine'). --format junit marks a flaky test as Maven Surefire
    does (<flakyFailure> in a passing test case, <rerunFailure> in a failing one), which Jenkins and
    GitLab read; in a GitHub Actions job the markdown goes on the job summary and each failing or
    flaky test is annotated at its line.
    """
  enum Options {
    static let retries = Option(
      "retries", "N", "Runs alone of a test that failed, until one passes (0 to 100)", default: 2
    ) { text, option throws(UsageError) in
      guard let value = Int(text), (0...100).contains(value) else {
        throw UsageError("\(option) takes a whole number from 0 to 100, not '\(ValueParsers.shown(text))'")
      }
      return value
    }
    static let quarantine = Option<String>.text(
      "quarantine", "FILE", "The tests whose failures do not fail the job (default: .flakelab/quarantine.json in the package, when it exists)")
    static let seed = Option<UInt64>.optional(
      "seed", "S", "Seed of every process's random values and hash order; replays a run's draws",
      shownDefault: "drawn at random and printed in the report", parse: ValueParsers.seed)
    static let failOnFlaky = Flag("fail-on-flaky", "Exit 1 when a test was flaky too (failed, then passed alone).")
    static let format = Option<ReportFormat>(
      "format", "FORMAT", "Output format: text, json, junit, markdown", default: .text
    ) { text, option throws(UsageError) in
      ReportFormat(rawValue: try ValueParsers.choice(text, option: option, among: ["text", "json", "junit", "markdown"]))!
    }
  }

  static let options = [
    TestCommand.Options.packagePath.spec, TestCommand.Options.filter.spec, TestCommand.Options.skip.spec,
    TestCommand.Options.skipBuild.spec, Options.retries.spec, Options.failOnFlaky.spec, Options.quarantine.spec,
    HistoryRecording.option.spec, Options.seed.spec,
    MeasurementOptions.Options.timeout(default: TestCommand.defaultTimeout).spec, Options.format.spec,
    ReportOutput.output.spec, MeasurementOptions.Options.noProgress.spec,
  ]

  let packagePath: String
  let filters: [NSRegularExpression]
  let skips: [NSRegularExpression]
  let skipsBuild: Bool
  let retries: Int
  let failsOnFlaky: Bool
  let quarantinePath: String?
  let record: HistoryRecording.Target?
  let timeout: Duration
  let format: ReportFormat
  let outputPath: String?
  let showsProgress: Bool
  let seed: UInt64
  /// The `--filter` and `--skip` arguments as given, for the pass's replay command.
  let selection: [String]

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError("ci takes no positional arguments, not '\(arguments.positionals[0])'; choose tests with --filter")
    }
    packagePath = try arguments[TestCommand.Options.packagePath]
    filters = try arguments.all(TestCommand.Options.filter)
    skips = try arguments.all(TestCommand.Options.skip)
    selection = filters.flatMap { ["--filter", $0.pattern] } + skips.flatMap { ["--skip", $0.pattern] }
    seed = try arguments[Options.seed] ?? UInt64.random(in: 0...UInt64.max)
    skipsBuild = arguments[TestCommand.Options.skipBuild]
    retries = try arguments[Options.retries]
    failsOnFlaky = arguments[Options.failOnFlaky]
    quarantinePath = try arguments[Options.quarantine]
    record = try arguments[HistoryRecording.option]
    timeout = try arguments[MeasurementOptions.Options.timeout(default: TestCommand.defaultTimeout)]
    format = try arguments[Options.format]
    outputPath = try arguments[ReportOutput.output]
    if let outputPath {
      if let named = ReportFormat.named(byExtensionOf: outputPath), named != .json {
        throw UsageError(
          "--output writes the JSON report, and '\(outputPath)' is named for \(named.rawValue); "
            + "write that with --format \(named.rawValue) > \(outputPath)")
      }
      try UsageError.mapping { () throws(ReportFileError) in try ReportFile.checkWritable(outputPath) }
    }
    showsProgress =
      !arguments[MeasurementOptions.Options.noProgress] && isatty(STDERR_FILENO) == 1
      && ProcessInfo.processInfo.environment["TERM"] != "dumb"
  }

  func run() async throws -> ExitStatus {
    let path = quarantinePath ?? Quarantine.defaultPath(in: packagePath)
    let quarantine = try UsageError.mapping { () throws(QuarantineError) in
      try Quarantine.load(path, origin: quarantinePath != nil ? .named : .found, mustExist: quarantinePath != nil)
    }
    let history = try HistoryRecording.open(record, packagePath: packagePath)
    let preload = try TestLaunch.preloadLibrary(besides: MeasurementOptions.executablePath)
    var package = try TestCommand.build(packagePath, skippingBuild: skipsBuild)
    let all = try package.tests(preload: preload)
    let tests = try TestCommand.selected(all, of: package, filters: filters, skips: skips)
    let runner = CIRunner(
      package: package, preload: preload, timeout: timeout, retries: retries,
      workerExecutable: MeasurementOptions.executablePath, seed: seed)
    let progress = showsProgress ? ProgressDisplay() : nil
    var run = try runner.run(tests, quarantine: quarantine, failOnFlaky: failsOnFlaky) { stage, state in
      progress?.show(stage + ": " + ProgressLine.render(state))
    }
    progress?.clear()
    run.selection = selection
    run.program = Program.name
    run.quarantineFile = FileManager.default.fileExists(atPath: path) ? path : nil
    run.staleQuarantine = quarantine.stale(among: all, closest: Suggestion.closest)
    run.git = GitState.of(packagePath)
    let status = finish(run)
    if let history, !run.interrupted { try history.record(RecordedRun(run)) }
    return status
  }

  /// The report on stdout, the annotations and the job summary in a GitHub Actions job, the
  /// JSON file, then the exit status.
  private func finish(_ run: CIRun) -> ExitStatus {
    let text: String =
      switch format {
      case .json: CIJSON.render(run)
      case .junit: CIJUnit.render(run)
      case .markdown: CIMarkdown.render(run)
      default: CIText.render(run)
      }
    let printed = ReportOutput.print(text)
    let environment = ProcessInfo.processInfo.environment
    if environment["GITHUB_ACTIONS"] == "true" {
      let workspace = environment["GITHUB_WORKSPACE"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.currentDirectoryPath
      CIAnnotations.lines(run, workspace: workspace).forEach(printError)
    }
    if let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
      do throws(ReportFileError) { try ReportFile.append(CIMarkdown.render(run), to: summary) } catch {
        printError("\(Program.name): the job summary ($GITHUB_STEP_SUMMARY): \(ErrorText.describe(error))")
      }
    }
    if let outputPath {
      do throws(ReportFileError) { try ReportFile.write(CIJSON.render(run), to: outputPath) } catch {
        printError("\(Program.name): \(ErrorText.describe(error))")
        return .usage
      }
    }
    if run.interrupted { return .interrupted }
    guard printed else { return .usage }
    return run.failsTheJob ? .gateNotMet : .success
  }
}

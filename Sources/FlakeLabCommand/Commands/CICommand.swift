import FlakeLab
import Foundation

/// `flakelab ci`: a package's tests as a CI job runs them every day: the suite once, as `swift
/// test` runs it, then each test that failed alone again, up to `--retries` times, and one that
/// passed alone after the tests before it. A test that failed and then passed is flaky, one that
/// failed every time failed, one that failed every time after the tests before it and passed
/// alone fails in the suite; the quarantine keeps its tests' failures from failing the job.
struct CICommand: Command {
  static let name = "ci"
  static let abstract = "Run a package's tests once, as swift test does, retrying each failure alone: flaky or failed."
  static let usage =
    "ci [--package-path DIR] [--retries N] [--fail-on-flaky] [--quarantine FILE] [--filter REGEX]... [--skip REGEX]... [options]"
  static let discussion = """
    Builds the package's tests, then runs the suite once under the global executor, as swift test
    runs it: each framework's tests in a process of their own, XCTest's first, Swift Testing's in
    parallel. A test that failed, crashed or hung runs again alone, in a fresh process, until it
    passes or its retries are spent; failing every time, it failed. One that passed alone runs
    again after the tests that ran before it and alone, in turn, as many times: failing after them
    every time and passing alone every time, it fails in the suite (a test before it fails it),
    which fails the job; else it is flaky. A failure is the test's that was running when it was
    recorded, as swift test counts it; where its line is in another test's body, the answer says
    so, and the failure moves there only if that test alone fails so every time. A crash or a
    hang is a result; nothing a run starts outlives it.

    A seed (--seed, else drawn and printed) decides every process's random values and hash order;
    each retry draws its own. Each failure comes with the command that replays it with its draws.

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
      "retries", "N", "Runs again of a test that failed: alone, then after the tests before it (0 to 100)",
      default: 2
    ) { text, option throws(UsageError) in
      guard let value = Int(text), (0...RetryPlan.mostRetries).contains(value) else {
        throw UsageError(
          "\(option) takes a whole number from 0 to \(RetryPlan.mostRetries), not '\(ValueParsers.shown(text))'")
      }
      return value
    }
    static let seed = Option<UInt64>.optional(
      "seed", "S", "Seed of every process's random values and hash order; replays a run's draws",
      shownDefault: "drawn at random and printed in the report", parse: ValueParsers.seed)
    static let failOnFlaky = Flag("fail-on-flaky", "Exit 1 when a test was flaky too (failed, then passed alone).")
    static let sanitize = SanitizeOption.option(default: .none)
  }

  /// The formats `ci` answers in, each with its renderer.
  static var renderings: Renderings<CIRun> {
    Renderings(renderers: [
      (.text, CIText.render), (.json, CIJSON.render), (.junit, CIJUnit.render), (.markdown, CIMarkdown.render),
    ])
  }

  static let options =
    PackageOptions.selectingTests
    + [Options.retries.spec, Options.failOnFlaky.spec, QuarantineOption.option.spec, RecordTarget.option.spec]
    + [RecordTarget.noRecord.spec]
    + [
      Options.sanitize.spec, Options.seed.spec, RunOptions.Options.timeout(default: PackageOptions.defaultTimeout).spec,
    ]
    + [renderings.option.spec, OutputStage.output.spec, ProgressDisplay.noProgress.spec]

  let package: PackageOptions
  let retries: Int
  let sanitizing: Sanitizing
  let failsOnFlaky: Bool
  let quarantinePath: String?
  let record: RecordTarget?
  let timeout: Duration
  let seed: UInt64
  let output: OutputStage
  let progress: ProgressDisplay?

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError(
        "ci takes no positional arguments, not '\(arguments.positionals[0])'; choose tests with --filter")
    }
    let environment = ProcessInfo.processInfo.environment
    package = try PackageOptions(arguments)
    retries = try arguments[Options.retries]
    sanitizing = try arguments[Options.sanitize]
    failsOnFlaky = arguments[Options.failOnFlaky]
    quarantinePath = try arguments[QuarantineOption.option]
    record = try RecordTarget.chosen(arguments)
    timeout = try arguments[RunOptions.Options.timeout(default: PackageOptions.defaultTimeout)]
    seed = try arguments[Options.seed] ?? UInt64.random(in: 0...UInt64.max)
    output = try OutputStage(arguments, formats: Self.renderings.option, environment: environment)
    progress = ProgressDisplay.wanted(arguments, environment: environment)
  }

  func run() async throws -> ExitStatus {
    let quarantineFile = quarantinePath ?? Quarantine.defaultPath(in: package.path)
    try output.refuseOverwriting([quarantineFile] + record.files(packagePath: package.path))
    let quarantine = try QuarantineOption.load(quarantinePath, packagePath: package.path)
    let history = try record.open(packagePath: package.path)
    let preload = try TestLaunch.preloadLibrary(besides: LabExecutables.current)
    // The checkout's commit, asked while the package builds and lists, not after the run.
    let path = package.path
    async let git = GitState.of(path)
    let (built, all) = try package.build().listed(preload: preload)
    let tests = try package.selected(all, of: built)
    let runner = CIRunner(
      package: built, preload: preload, timeout: timeout, retries: retries,
      workerExecutable: LabExecutables.worker, seed: seed, sanitizing: sanitizing)
    let context = CIRun.Context(
      git: await git, selection: package.selection, program: Program.name,
      quarantineFile: FileManager.default.fileExists(atPath: quarantineFile) ? quarantineFile : nil,
      staleQuarantine: quarantine.stale(among: all, closest: Suggestion.closest))
    let run = try runner.run(tests, quarantine: quarantine, failOnFlaky: failsOnFlaky, context: context) {
      phase, state in progress?.show(phase + ": " + ProgressLine.render(state))
    }
    progress?.clear()
    let status = output.finish(CommandOutput(run))
    if let history, !run.interrupted {
      try history.record(run)
      if record == nil { printError("\(Program.name): \(RecordTarget.implicitNote(packagePath: package.path))") }
    }
    return status
  }
}

extension CommandOutput {
  /// A `ci` run as the output stage writes it.
  init(_ run: CIRun) {
    self.init(render: { CICommand.renderings.render(run, as: $0) })
    json = { CIJSON.render(run) }
    jobSummary = { CIMarkdown.render(run) }
    annotations = { CIAnnotations.lines(run, workspace: $0) }
    interrupted = run.interrupted
    status = run.failsTheJob ? .gateNotMet : .success
  }
}

import FlakeLab
import FlakeLabCommand
import FlakeLabHistory
import Foundation

/// `flakelab history`: what the history of CI runs says over a window: the tests that passed
/// and failed on the same commit, each test's CI failure rate with its interval and flip rate,
/// where it first flaked, what stopped flaking, what may leave the quarantine; with
/// `--max-failure-rate`, a gate. Its subcommand `history import` adds files.
struct HistoryCommand: Command {
  static let name = "history"
  static let abstract =
    "What the history of CI runs says: flaky tests, their CI rates and flips; import JUnit and reports."
  static let usage =
    "history [--window DAYS] [--branch NAME] [--max-failure-rate R] [--fail-on-new-races] [--format FORMAT] "
    + "[--history DB]"
  static let discussion = """
    The history (--history, default .flakelab/history.sqlite in the package) holds every run that
    flakelab ci --record or flakelab test --record added, and every file 'history import' took
    (see 'flakelab history import --help').

    Over the last --window days (on --branch, when given): the tests that did not pass in some
    run. Flaky ones passed and failed on the same commit: in one run (failed, then passed a
    retry) or in two. Each test's CI failure rate counts its CI runs (flakelab ci, JUnit) by their
    first attempt, with a Wilson interval; its flip rate, how often two runs in a row disagree. A
    lab run (flakelab test) is evidence on its commit, never a CI rate. A test that flaked and
    then passed each of its last 20 CI runs has stopped flaking; a quarantined one that did is
    ready to leave. --max-failure-rate R exits 1 when a test's CI failure rate is shown above R
    (its interval's low end); tests with too few runs to tell are listed and pass.

    Races, which runs under the thread sanitizer recorded (flakelab ci --sanitize thread
    --record), are a finding of their own: each race of a test, by its two lines, where it was
    first and last reported and in how many of the test's sanitized runs since. It is new when no
    run before the window recorded it, gone once three of the test's sanitized runs in a row
    missed it (a race shows in some sanitized processes, not all). --fail-on-new-races exits 1
    for a new race not gone, of a test whose races the quarantine does not list (flakelab
    quarantine add TEST --races).
    """
  enum Options {
    static let history = Option<String>.text(
      "history", "DB", "The history to read or add to (default: .flakelab/history.sqlite in the package)")
    static let window = Option("window", "DAYS", "Days back from now the answer looks at", default: 14) {
      text, option throws(UsageError) in
      let digits = text.hasSuffix("d") ? String(text.dropLast()) : text
      guard let days = Int(digits), days > 0, days <= 36_500 else {
        throw UsageError("\(option) takes a number of days, like 14 or 14d, not '\(ValueParsers.shown(text))'")
      }
      return days
    }
    static let branch = Option<String>.text("branch", "NAME", "Only runs on this branch")
    /// The lab's gates ask a run to prove its rate low; a history cannot prove it for a test with
    /// a handful of runs, so the job fails only on a rate shown above the bound.
    static let maxFailureRate = Option<Double>.optional(
      "max-failure-rate", "R", "Exit 1 when a test's CI failure rate is shown above R (its interval's low end > R)",
      parse: ValueParsers.rate)
    static let failOnNewRaces = Flag(
      "fail-on-new-races", "Exit 1 when the window recorded a race no earlier run did, not gone since")
  }

  /// The formats `history` answers in, each with its renderer; the text and markdown name the
  /// history they read.
  static func renderings(path: String) -> Renderings<HistoryAnswer> {
    Renderings(renderers: [
      (.text, { HistoryText.render($0, path: path) }), (.json, HistoryJSON.render),
      (.markdown, { HistoryMarkdown.render($0, path: path) }), (.html, { HistoryHTML.render($0, path: path) }),
    ])
  }

  /// `--format`, from the renderers (which the path only words).
  static let format = renderings(path: "").option

  static let options = [
    PackageOptions.packagePath.spec, Options.history.spec, Options.window.spec, Options.branch.spec,
    Options.maxFailureRate.spec, Options.failOnNewRaces.spec, QuarantineOption.option.spec, format.spec,
  ]

  static func subcommands(_ catalog: ScenarioCatalog) -> [CommandEntry] { [HistoryImportCommand.entry(catalog)] }

  let path: String
  /// Whether `--history` named the path: else it is the package's default.
  let pathIsNamed: Bool
  let packagePath: String
  let days: Int
  let branch: String?
  let maxFailureRate: Double?
  let failOnNewRaces: Bool
  let quarantinePath: String?
  let output: OutputStage

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    if let first = arguments.positionals.first {
      throw UsageError(
        "history takes no positional arguments, not '\(ValueParsers.shown(first))'; to add files: history import FILE..."
      )
    }
    packagePath = try arguments[PackageOptions.packagePath]
    let named = try arguments[Options.history]
    path = named ?? HistoryOpener.defaultPath(in: packagePath)
    pathIsNamed = named != nil
    days = try arguments[Options.window]
    branch = try HistoryImportCommand.oneLine(arguments[Options.branch], option: "--branch")
    maxFailureRate = try arguments[Options.maxFailureRate]
    failOnNewRaces = arguments[Options.failOnNewRaces]
    quarantinePath = try arguments[QuarantineOption.option]
    output = try OutputStage(arguments, formats: Self.format, offersFile: false)
  }

  func run() async throws -> ExitStatus {
    guard let store = try HistoryOpener.existing(path) else {
      // `ci --record history.sqlite` puts it where it was told: say how to read it from there.
      let files = (try? FileManager.default.contentsOfDirectory(atPath: packagePath)) ?? []
      let nearby = files.filter { $0.hasSuffix(".sqlite") }.sorted().first.map {
        packagePath == "." ? $0 : (packagePath as NSString).appendingPathComponent($0)
      }
      let elsewhere =
        pathIsNamed
        ? ""
        : nearby.map { "; \($0) is here: --history \(ScheduleText.shellQuoted($0))" }
          ?? "; one recorded elsewhere is read with --history FILE"
      throw UsageError(
        "no history at \(path)\(elsewhere); flakelab ci --record, flakelab test --record or flakelab history import "
          + "make one")
    }
    // To the second, as the JSON writes it: the answer reads back equal.
    let now = Timestamp.second(of: Date())
    let window = HistoryAnswer.Window(from: now.addingTimeInterval(-Double(days) * 86_400), to: now, branch: branch)
    let quarantine = try QuarantineOption.load(quarantinePath, packagePath: packagePath)
    let recent = try store.recentStatuses(
      of: quarantine.entries(excusing: .failures).map(\.test), limit: HistoryAnalysis.defaultQuietRuns,
      branch: branch)
    let answer = HistoryAnalysis.answer(
      try store.runs(since: window.from, branch: branch), window: window, quarantined: recent,
      maxFailureRate: maxFailureRate, knownRaces: try store.racesRecorded(before: window.from, branch: branch),
      racesQuarantined: Set(quarantine.entries(excusing: .races).map(\.test)), failOnNewRaces: failOnNewRaces)
    let renderings = Self.renderings(path: path)
    var finished = CommandOutput(render: { renderings.render(answer, as: $0) })
    finished.jobSummary = { HistoryMarkdown.render(answer, path: path) }
    finished.status = answer.failsTheJob ? .gateNotMet : .success
    return output.finish(finished)
  }
}

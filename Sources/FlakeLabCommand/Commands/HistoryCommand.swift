import FlakeLab
import FlakeLabHistory
import Foundation

/// `flakelab history`: what the history of CI runs says over a window: the tests that passed
/// and failed on the same commit, each test's CI failure rate with its interval and flip rate,
/// where it first flaked, what stopped flaking, what may leave the quarantine; with
/// `--max-failure-rate`, a gate. `flakelab history import FILE…` adds other runners' JUnit and
/// FlakeLab's JSON reports.
struct HistoryCommand: Command {
  static let name = "history"
  static let abstract = "What the history of CI runs says: flaky tests, their CI rates and flips; import JUnit and reports."
  static let usage =
    "history [--window DAYS] [--branch NAME] [--max-failure-rate R] [--format FORMAT] | history import FILE... [--commit SHA] [--branch NAME] [--history DB]"
  static let discussion = """
    The history (--history, default .flakelab/history.sqlite in the package) holds every run that
    flakelab ci --record or flakelab test --record added, and every file history import took.

    history: over the last --window days (on --branch, when given), the tests that did not pass
    in some run. Flaky ones passed and failed on the same commit: in one run (failed, then
    passed a retry) or in two. Each test's CI failure rate counts its CI runs (flakelab ci,
    JUnit) by their first attempt, with a Wilson interval; its flip rate, how often two runs in a
    row disagree. A lab run (flakelab test) is evidence on its commit, never a CI rate. A test
    that flaked and then passed each of its last 20 CI runs has stopped flaking; a quarantined
    one that did is ready to leave. --max-failure-rate R exits 1 when a test's CI failure rate is
    shown above R (its interval's low end); tests with too few runs to tell are listed and pass.

    history import: JUnit XML from any runner (swift test --xunit-output, which writes XCTest's
    file with --parallel and Swift Testing's beside it as NAME-swift-testing.xml) and FlakeLab's
    JSON reports (flakelab ci --format json, flakelab test --output). Importing a file twice adds
    nothing. A file that names no commit (JUnit, a test report) is filed under the checkout's
    commit and branch unless --commit and --branch say otherwise. Two imports at once wait for
    each other; each file is one transaction.
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
    static let branch = Option<String>.text(
      "branch", "NAME", "Only runs on this branch (import: the branch of files that name none)")
    static let commit = Option<String>.text("commit", "SHA", "import: the commit of files that name none")
    /// The lab's gates ask a run to prove its rate low; a history cannot prove it for a test with
    /// a handful of runs, so the job fails only on a rate shown above the bound.
    static let maxFailureRate = Option<Double>.optional(
      "max-failure-rate", "R", "Exit 1 when a test's CI failure rate is shown above R (its interval's low end > R)",
      parse: ValueParsers.rate)
    static let format = Option<ReportFormat>(
      "format", "FORMAT", "Output format: text, json, markdown, html", default: .text
    ) { text, option throws(UsageError) in
      ReportFormat(rawValue: try ValueParsers.choice(text, option: option, among: ["text", "json", "markdown", "html"]))!
    }
  }

  static let options = [
    TestCommand.Options.packagePath.spec, Options.history.spec, Options.window.spec, Options.branch.spec,
    Options.commit.spec, Options.maxFailureRate.spec, CICommand.Options.quarantine.spec, Options.format.spec,
  ]

  let files: [String]
  let isImport: Bool
  let path: String
  let packagePath: String
  let days: Int
  let branch: String?
  let commit: String?
  let maxFailureRate: Double?
  let quarantinePath: String?
  let format: ReportFormat

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    isImport = arguments.positionals.first == "import"
    files = Array(arguments.positionals.dropFirst(isImport ? 1 : 0))
    if let first = files.first, !isImport {
      throw UsageError(
        "history takes no positional arguments, not '\(ValueParsers.shown(first))'; to add files: history import FILE...")
    }
    if isImport, files.isEmpty { throw UsageError("history import needs at least one file (JUnit XML or a FlakeLab JSON report)") }
    packagePath = try arguments[TestCommand.Options.packagePath]
    path = try arguments[Options.history] ?? HistoryRecording.defaultPath(in: packagePath)
    days = try arguments[Options.window]
    branch = try arguments[Options.branch]
    commit = try arguments[Options.commit]
    for (option, value) in [("--branch", branch), ("--commit", commit)] {
      if let value, value.isEmpty || value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        throw UsageError("\(option) takes a name on one line, not '\(ValueParsers.shown(value))'")
      }
    }
    maxFailureRate = try arguments[Options.maxFailureRate]
    quarantinePath = try arguments[CICommand.Options.quarantine]
    format = try arguments[Options.format]
    if isImport, maxFailureRate != nil || format != .text {
      throw UsageError("history import adds files and prints what it added; --max-failure-rate and --format are for history")
    }
    if !isImport, commit != nil { throw UsageError("--commit names the commit of imported files: history import FILE... --commit SHA") }
  }

  func run() async throws -> ExitStatus {
    isImport ? try importFiles() : try answer()
  }

  /// Each file read whole before anything is stored (a bad one stores nothing), then each run in
  /// its own transaction.
  private func importFiles() throws -> ExitStatus {
    // The package's checkout, wherever the command runs.
    let git = GitState.of(packagePath)
    let runs = try files.map { file throws(ImportError) in
      try HistoryImport.run(file, commit: commit ?? git?.commit, branch: branch ?? (commit == nil ? git?.branch : nil))
    }
    let store = try HistoryStore(path: path)
    var said: [String] = []
    for (file, run) in zip(files, runs) {
      // XCTest's file from a package with only Swift Testing tests: no run to count.
      guard !run.results.isEmpty else {
        said.append("\(file): no test in it, nothing added")
        continue
      }
      let added = try store.record(run)
      let tests = "\(run.results.count) test\(run.results.count == 1 ? "" : "s")"
      said.append(added ? "\(file): added (\(run.kind.rawValue), \(tests))" : "\(file): already in the history, nothing added")
    }
    guard ReportOutput.print(Formatting.lines(said)) else {
      printError("\(Program.name): the import itself is done: \(said.joined(separator: "; "))")
      return .usage
    }
    return .success
  }

  private func answer() throws -> ExitStatus {
    guard let store = try HistoryRecording.existing(path) else {
      throw UsageError(
        "no history at \(path): flakelab ci --record, flakelab test --record or flakelab history import make one")
    }
    // To the second, as the JSON writes it: the answer reads back equal.
    let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    let window = HistoryAnswer.Window(from: now.addingTimeInterval(-Double(days) * 86_400), to: now, branch: branch)
    let quarantine = try UsageError.mapping { () throws(QuarantineError) in
      try Quarantine.load(
        quarantinePath ?? Quarantine.defaultPath(in: packagePath), origin: quarantinePath != nil ? .named : .found,
        mustExist: quarantinePath != nil)
    }
    let recent = try store.recentStatuses(
      of: quarantine.entries.map(\.test), limit: HistoryAnalysis.defaultQuietRuns, branch: branch)
    let answer = HistoryAnalysis.answer(
      try store.runs(since: window.from, branch: branch), window: window, quarantined: recent,
      maxFailureRate: maxFailureRate)
    let text: String =
      switch format {
      case .json: HistoryJSON.render(answer)
      case .markdown: HistoryMarkdown.render(answer, path: path)
      case .html: HistoryHTML.render(answer, path: path)
      default: HistoryText.render(answer, path: path)
      }
    guard ReportOutput.print(text) else { return .usage }
    return answer.failsTheJob ? .gateNotMet : .success
  }
}

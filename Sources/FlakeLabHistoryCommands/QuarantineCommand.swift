import FlakeLab
import FlakeLabCommand
import FlakeLabHistory
import Foundation

/// `flakelab quarantine add|remove|list`: edits the file of tests whose failures do not fail a
/// `flakelab ci` job, kept sorted, one entry a line, so that each change is a one-line diff.
struct QuarantineCommand: Command {
  static let name = "quarantine"
  static let abstract = "List, add or remove the tests whose failures do not fail a flakelab ci job."
  static let usage =
    "quarantine list | add <test-id>... --reason TEXT [--races] | remove <test-id>... [--races] [--package-path DIR] "
    + "[--quarantine FILE]"
  static let discussion = """
    The file (default .flakelab/quarantine.json in the package) lists each test's ID, the reason
    and the day it was added. add refuses an ID that names none of the package's tests (it lists
    them, building first unless --skip-build); remove refuses one the file does not list. Each
    edit reads and writes the file under a lock on its directory, so edits made at once all
    stay. list says which entries name no test of the package any more (renamed or removed:
    they quarantine nothing), and marks a test that passed each of its last 20 CI runs in the
    history (--history, default .flakelab/history.sqlite in the package, when it exists) as
    ready to leave.

    An entry excuses a test's failures, unless --races makes it one of its races: the thread
    sanitizer's reports (flakelab ci --sanitize thread), which then fail no 'flakelab history
    --fail-on-new-races'. A test may have both; each is added and removed on its own.
    """
  static let reason = Option<String>.text("reason", "TEXT", "Why the test is quarantined (add)")
  static let races = Flag(
    "races", "The entry excuses the test's races (history --fail-on-new-races), not its failures (add, remove)")
  static let options = [
    PackageOptions.packagePath.spec, QuarantineOption.option.spec, reason.spec, races.spec,
    PackageOptions.skipBuild.spec, HistoryCommand.Options.history.spec,
  ]

  enum Action: String, CaseIterable { case list, add, remove }

  let action: Action
  let ids: [String]
  let path: String
  /// Whether `--quarantine` named the file, which then may be a pipe and must exist to list.
  let namesFile: Bool
  let reason: String?
  let finding: Quarantine.Finding
  let package: PackageOptions
  let historyPath: String?

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    guard let first = arguments.positionals.first else {
      throw UsageError("quarantine needs list, add or remove")
    }
    action = Action(
      rawValue: try ValueParsers.choice(first, option: "quarantine", among: Action.allCases.map(\.rawValue)))!
    ids = Array(arguments.positionals.dropFirst())
    package = try PackageOptions(arguments)
    let named = try arguments[QuarantineOption.option]
    path = named ?? Quarantine.defaultPath(in: package.path)
    namesFile = named != nil
    reason = try arguments[Self.reason]
    finding = arguments[Self.races] ? .races : .failures
    historyPath = try arguments[HistoryCommand.Options.history]
    switch action {
    case .list where !ids.isEmpty:
      throw UsageError("quarantine list takes no test ID, not '\(ValueParsers.shown(ids[0]))'")
    case .list where finding == .races:
      throw UsageError("quarantine list lists every entry: --races is for add and remove")
    case .add where ids.isEmpty, .remove where ids.isEmpty:
      throw UsageError("quarantine \(action.rawValue) needs at least one test ID")
    case .add where (reason ?? "").isEmpty: throw UsageError("quarantine add needs --reason: the next reader asks why")
    default: break
    }
  }

  func run() async throws -> ExitStatus {
    let origin: InputFile.Origin = namesFile ? .named : .found
    let written: Quarantine
    switch action {
    case .list:
      return try list(
        try UsageError.mapping { () throws(QuarantineError) in
          try Quarantine.load(path, origin: origin, mustExist: namesFile)
        })
    case .add:
      // Listing the tests takes a while: done before the file is locked, not while others wait.
      let known = Set(try package.tests().map(\.id))
      for id in ids where !known.contains(id) {
        throw UsageError(
          "no test of the package at '\(package.path)' is '\(ValueParsers.shown(id))'"
            + Suggestion.didYouMean(id, among: Array(known)) + " (see '\(Program.name) test --list')")
      }
      written = try Quarantine.update(path, origin: origin, mustExist: false) { quarantine throws(QuarantineError) in
        for id in ids {
          quarantine.add(.init(test: id, reason: reason ?? "", added: Quarantine.today(), finding: finding))
        }
      }
    case .remove:
      written = try Quarantine.update(path, origin: origin, mustExist: true) { quarantine throws(QuarantineError) in
        for id in ids where !quarantine.remove(id, finding: finding) {
          throw .notListed(ValueParsers.shown(id), finding: finding, path: path)
        }
      }
    }
    return OutputStage().finish(CommandOutput(render: { _ in Self.listing(written) }))
  }

  /// The entries, each entry that names no test of the package (renamed or removed since) and
  /// each that has passed long enough to leave.
  private func list(_ quarantine: Quarantine) throws -> ExitStatus {
    guard !quarantine.entries.isEmpty else {
      return OutputStage().finish(CommandOutput(render: { _ in "No test is quarantined (\(path)).\n" }))
    }
    let history = try HistoryOpener.existing(historyPath ?? HistoryOpener.defaultPath(in: package.path))
    let quiet = HistoryAnalysis.defaultQuietRuns
    let recent =
      try history?.recentStatuses(of: quarantine.entries(excusing: .failures).map(\.test), limit: quiet) ?? [:]
    var lines: [String] = []
    // The entries stand whatever the package's state; a package that does not build only
    // leaves them unchecked.
    do {
      lines += quarantine.stale(among: try package.tests(), closest: Suggestion.closest).map(CIText.stale)
    } catch {
      lines.append("(not checked against the package's tests: \(ErrorText.render(error).line))")
    }
    for test in HistoryAnalysis.readyToLeave(recent, quietRuns: quiet) {
      lines.append(
        "\(test): ready to leave, passed each of its last \(quiet) CI runs (flakelab quarantine remove \(ScheduleText.shellQuoted(test)))"
      )
    }
    return OutputStage().finish(CommandOutput(render: { _ in Self.listing(quarantine) + Formatting.lines(lines) }))
  }

  /// A line per entry: the ID, the day it was added, an entry of races marked so, the reason.
  static func listing(_ quarantine: Quarantine) -> String {
    Formatting.lines(
      quarantine.entries.map { "\($0.test)  \($0.added)  \($0.finding == .races ? "(races) " : "")\($0.reason)" })
  }
}

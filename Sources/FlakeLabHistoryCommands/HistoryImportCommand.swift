import FlakeLab
import FlakeLabCommand
import FlakeLabHistory
import Foundation

/// `flakelab history import FILE...`: other runners' JUnit and FlakeLab's JSON reports, added
/// to the history.
struct HistoryImportCommand: Command {
  static let name = "import"
  static let abstract = "Add JUnit XML and FlakeLab JSON reports to the history."
  static let usage = "history import FILE... [--commit SHA] [--branch NAME] [--history DB] [--package-path DIR]"
  static let discussion = """
    Takes JUnit XML from any runner (swift test --xunit-output, which writes XCTest's file with
    --parallel and Swift Testing's beside it as NAME-swift-testing.xml) and FlakeLab's JSON
    reports (flakelab ci --format json, flakelab test --output). Importing a file twice adds
    nothing. A file that names no commit (JUnit, a test report) is filed under the checkout's
    commit and branch unless --commit and --branch say otherwise. Every file is read whole before
    anything is stored (a bad one stores nothing); two imports at once wait for each other; each
    file is one transaction.
    """
  static let commit = Option<String>.text("commit", "SHA", "The commit of files that name none")
  static let branch = Option<String>.text("branch", "NAME", "The branch of files that name none")

  static let options = [
    PackageOptions.packagePath.spec, HistoryCommand.Options.history.spec, commit.spec, branch.spec,
  ]

  let files: [String]
  let path: String
  let packagePath: String
  let commit: String?
  let branch: String?

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    files = arguments.positionals
    guard !files.isEmpty else {
      throw UsageError("history import needs at least one file (JUnit XML or a FlakeLab JSON report)")
    }
    packagePath = try arguments[PackageOptions.packagePath]
    path = try arguments[HistoryCommand.Options.history] ?? HistoryOpener.defaultPath(in: packagePath)
    commit = try Self.oneLine(arguments[Self.commit], option: "--commit")
    branch = try Self.oneLine(arguments[Self.branch], option: "--branch")
  }

  /// A name given on the command line: one line, not empty.
  static func oneLine(_ value: String?, option: String) throws(UsageError) -> String? {
    if let value, value.isEmpty || value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      throw UsageError("\(option) takes a name on one line, not '\(ValueParsers.shown(value))'")
    }
    return value
  }

  /// Each file read whole before anything is stored (a bad one stores nothing), then each run
  /// in its own transaction.
  func run() async throws -> ExitStatus {
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
      said.append(
        added ? "\(file): added (\(run.kind.rawValue), \(tests))" : "\(file): already in the history, nothing added")
    }
    var answer = CommandOutput(render: { _ in Formatting.lines(said) })
    answer.doneRegardless = "the import itself is done: " + said.joined(separator: "; ")
    return OutputStage().finish(answer)
  }
}

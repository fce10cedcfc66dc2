package import FlakeLab
import FlakeLabCommand
import FlakeLabHistory
package import Foundation

/// `--record [DB]` on `ci` and `test`, for `flakelab`: the history a run is added to, opened
/// before anything runs, written after the report.
struct HistoryOpener: RunHistoryOpener {
  /// Where a package keeps its history unless told otherwise.
  static func defaultPath(in packagePath: String) -> String {
    URL(fileURLWithPath: packagePath).appendingPathComponent(".flakelab/history.sqlite").path
  }

  /// The history `target` names; without one, the package's default history when it exists;
  /// nil for none.
  func open(_ target: RecordTarget?, packagePath: String) throws -> (any RunRecorder)? {
    let fallback = Self.defaultPath(in: packagePath)
    switch target {
    case .file(let path): return try HistoryStore(path: path)
    case .packageDefault:
      let store = try HistoryStore(path: fallback)
      Self.ignoreHistoryInGit(beside: fallback)
      return store
    case .nowhere: return nil
    case nil: return FileManager.default.fileExists(atPath: fallback) ? try HistoryStore(path: fallback) : nil
    }
  }

  func files(of target: RecordTarget?, packagePath: String) -> [String] {
    let fallback = Self.defaultPath(in: packagePath)
    let path: String? =
      switch target {
      case .file(let path): path
      case .packageDefault: fallback
      case .nowhere: nil
      case nil: FileManager.default.fileExists(atPath: fallback) ? fallback : nil
      }
    // SQLite keeps its journals beside the file a link leads to, not beside the link.
    return path.map { path in
      [path] + ["-wal", "-shm", "-journal"].map { ReportFile.destination(of: path) + $0 }
    } ?? []
  }

  /// What `.flakelab/.gitignore` says, made with the package's history: the history is each
  /// machine's record, no source, while the quarantine beside it belongs in git.
  static let gitignore = """
    # Made by flakelab: the history is this machine's record of runs, kept out of git; the
    # quarantine (quarantine.json) is the team's list, and belongs in git.
    history.sqlite
    history.sqlite-*

    """

  /// Writes `.flakelab/.gitignore` beside the package's history, unless one is there.
  private static func ignoreHistoryInGit(beside history: String) {
    let file = URL(fileURLWithPath: history).deletingLastPathComponent().appendingPathComponent(".gitignore").path
    guard !FileManager.default.fileExists(atPath: file) else { return }
    try? Data(gitignore.utf8).write(to: URL(fileURLWithPath: file), options: .withoutOverwriting)
  }

  /// The history at `path` when there is one, to read: reading makes none, and writes nothing.
  static func existing(_ path: String) throws(HistoryError) -> HistoryStore? {
    FileManager.default.fileExists(atPath: path) ? try HistoryStore(path: path, access: .read) : nil
  }
}

extension HistoryStore: RunRecorder {
  package func record(_ run: CIRun) throws {
    try record(RecordedRun(run))
  }

  /// A lab run with no test's verdict is no evidence to keep.
  package func record(_ report: Report, started: Date, git: GitState?) throws {
    let run = RecordedRun(report, started: started, git: git)
    guard !run.results.isEmpty else { return }
    try record(run)
  }
}

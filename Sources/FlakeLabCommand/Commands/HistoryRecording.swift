import FlakeLab
import FlakeLabHistory
import Foundation

/// `--record DB` on `ci` and `test`: the history a run is added to, opened before anything runs
/// (a history that cannot take the run costs nothing measured), written after the report (one
/// that fails then loses the record, never the report).
enum HistoryRecording {
  /// Where `--record` adds a run.
  enum Target: Sendable, Equatable {
    /// `--record` alone: the package's own history, made if need be.
    case packageDefault
    case file(String)
  }

  static let option: Option<Target?> = {
    var option = Option<Target?>(
      "record", "DB",
      "Add the run to this history (alone: .flakelab/history.sqlite in the package; not given: that file, when it exists)",
      default: nil, shownDefault: nil
    ) { text, _ in text.isEmpty ? .packageDefault : .file(text) }
    option.spec.valueMayBeLeftOut = true
    return option
  }()

  /// Where a package keeps its history unless told otherwise.
  static func defaultPath(in packagePath: String) -> String {
    URL(fileURLWithPath: packagePath).appendingPathComponent(".flakelab/history.sqlite").path
  }

  /// The history `target` names; without one, the package's default history when it exists;
  /// nil for none.
  static func open(_ target: Target?, packagePath: String) throws(HistoryError) -> HistoryStore? {
    let fallback = defaultPath(in: packagePath)
    switch target {
    case .file(let path): return try HistoryStore(path: path)
    case .packageDefault: return try HistoryStore(path: fallback)
    case nil: return FileManager.default.fileExists(atPath: fallback) ? try HistoryStore(path: fallback) : nil
    }
  }

  /// The history at `path` when there is one, to read: reading makes none, and writes nothing.
  static func existing(_ path: String) throws(HistoryError) -> HistoryStore? {
    FileManager.default.fileExists(atPath: path) ? try HistoryStore(path: path, access: .read) : nil
  }
}

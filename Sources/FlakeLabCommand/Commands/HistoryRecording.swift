import FlakeLab
import FlakeLabHistory
import Foundation

/// `--record DB` on `ci` and `test`: the history a run is added to, opened before anything runs
/// (a history that cannot take the run costs nothing measured), written after the report (one
/// that fails then loses the record, never the report).
enum HistoryRecording {
  static let option = Option<String>.text(
    "record", "DB", "Add the run to this history (default: .flakelab/history.sqlite in the package, when it exists)")

  /// Where a package keeps its history unless told otherwise.
  static func defaultPath(in packagePath: String) -> String {
    URL(fileURLWithPath: packagePath).appendingPathComponent(".flakelab/history.sqlite").path
  }

  /// The history at `path`, or at the package's default one when that exists; nil for none.
  static func open(_ path: String?, packagePath: String) throws(HistoryError) -> HistoryStore? {
    let fallback = defaultPath(in: packagePath)
    guard let chosen = path ?? (FileManager.default.fileExists(atPath: fallback) ? fallback : nil) else { return nil }
    return try HistoryStore(path: chosen)
  }

  /// The history at `path` when there is one, to read: reading makes none.
  static func existing(_ path: String) throws(HistoryError) -> HistoryStore? {
    FileManager.default.fileExists(atPath: path) ? try HistoryStore(path: path) : nil
  }
}

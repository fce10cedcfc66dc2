package import FlakeLab
package import Foundation

/// `--record [DB]` on `ci` and `test`: the history a run is added to. The history keeps its
/// runs in SQLite, in a module of its own that `flakelab` adds (``LabExtensions/historyOpener``), so
/// that this module, the labs of one's own that link it and their workers never load SQLite.
package enum RecordTarget: Sendable, Equatable {
  /// `--record` alone: the package's own history, made if need be.
  case packageDefault
  case file(String)
  /// `--no-record`: no history, not even the package's own that exists.
  case nowhere

  package static let option: Option<RecordTarget?> = {
    var option = Option<RecordTarget?>(
      "record", "DB",
      "Add the run to this history (alone: .flakelab/history.sqlite in the package; not given: that file, when it exists)",
      default: nil, shownDefault: nil
    ) { text, _ in text.isEmpty ? .packageDefault : .file(text) }
    option.spec.valueMayBeLeftOut = true
    return option
  }()

  package static let noRecord = Flag("no-record", "Record the run in no history, not even the package's own")

  /// Said when a run went into the package's history though no `--record` asked: that it did,
  /// and how not to.
  package static func implicitNote(packagePath: String) -> String {
    "recorded in the package's history (.flakelab/history.sqlite in \(packagePath)), which exists; --no-record leaves "
      + "it alone"
  }

  /// The target `--record` and `--no-record` choose, which cannot both be given.
  package static func chosen(_ arguments: ParsedArguments) throws(UsageError) -> RecordTarget? {
    let record = try arguments[option]
    guard arguments[noRecord] else { return record }
    guard record == nil else { throw UsageError("--record and --no-record cannot both be given") }
    return .nowhere
  }
}

/// Opens the history a run is recorded in: before anything runs, so that a history that cannot
/// take the run costs nothing measured.
package protocol RunHistoryOpener: Sendable {
  /// The history `target` names; without one, the package's own history when it exists; nil
  /// for none.
  func open(_ target: RecordTarget?, packagePath: String) throws -> (any RunRecorder)?
  /// The files the history `open` would open is kept in (the database and SQLite's journals
  /// beside it), which no report may be written over; none when there is no history.
  func files(of target: RecordTarget?, packagePath: String) -> [String]
}

/// A history open to take a run, written after the report (one that fails then loses the
/// record, never the report).
package protocol RunRecorder {
  func record(_ run: CIRun) throws
  /// A `flakelab test` run, with its start and the checkout it ran in.
  func record(_ report: Report, started: Date, git: GitState?) throws
}

extension RecordTarget? {
  /// The history this target names, opened by the lab's history opener; a lab without one refuses a
  /// target, and has no history to fall back on.
  package func open(packagePath: String) throws -> (any RunRecorder)? {
    guard let opener = LabExtensions.current.historyOpener else {
      guard self == nil else {
        throw UsageError("--record needs a history, which \(Program.name) does not keep (flakelab does)")
      }
      return nil
    }
    return try opener.open(self, packagePath: packagePath)
  }

  /// The files of the history this target names, to keep `--output` off them.
  package func files(packagePath: String) -> [String] {
    LabExtensions.current.historyOpener?.files(of: self, packagePath: packagePath) ?? []
  }
}

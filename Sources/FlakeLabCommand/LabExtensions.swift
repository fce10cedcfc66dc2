package import FlakeLab

/// What a lab adds to the commands of this module. `flakelab` adds its history (the `history`
/// and `quarantine` commands, `--record`), which links SQLite and so lives in a module of its own,
/// and a lean worker executable beside it; a lab of one's own adds nothing.
package struct LabExtensions: Sendable {
  /// More commands, listed after this module's own.
  package var commands: @Sendable (ScenarioCatalog) -> [CommandEntry] = { _ in [] }
  /// Where `--record` adds a run; nil for a lab that keeps no history.
  package var historyOpener: (any RunHistoryOpener)?
  /// The executable, beside this one, that the lab's workers run as: one that links less than
  /// the lab (no SQLite) starts faster and carries nothing a worker does not use. Absent, the
  /// lab's own executable is its worker.
  package var workerExecutable: String?

  package init(
    commands: @escaping @Sendable (ScenarioCatalog) -> [CommandEntry] = { _ in [] },
    historyOpener: (any RunHistoryOpener)? = nil,
    workerExecutable: String? = nil
  ) {
    self.commands = commands
    self.historyOpener = historyOpener
    self.workerExecutable = workerExecutable
  }

  /// Bound by ``LabCommandLine/main(catalog:extensions:)`` for the whole run.
  @TaskLocal package static var current = LabExtensions()
}

/// An error a module outside this one words itself (the history's): the one line it ends a
/// command with, and exit status 2.
package protocol DescribedError: Error {
  var line: String { get }
}

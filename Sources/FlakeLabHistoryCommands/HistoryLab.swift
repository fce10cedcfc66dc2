package import FlakeLab
import FlakeLabCommand

/// `flakelab`'s history, as ``LabCommandLine`` takes it: the `history` and `quarantine`
/// commands, `--record`, and the worker executable beside `flakelab` that links none of it.
package enum HistoryLab {
  /// Runs `flakelab` with `catalog` and its history, and exits.
  package static func main(catalog: ScenarioCatalog, workerExecutable: String) -> Never {
    LabCommandLine.main(
      catalog: catalog,
      extensions: LabExtensions(
        commands: { catalog in [QuarantineCommand.entry(catalog), HistoryCommand.entry(catalog)] },
        historyOpener: HistoryOpener(), workerExecutable: workerExecutable))
  }
}

/// What a command concluded, as the output stage (``OutputStage``) writes it: its typed model
/// rendered in each format the command offers, the JSON an `--output` file keeps, what a
/// GitHub Actions job shows beside it, and the status the command ends with once all of it is
/// written. Commands build one from their model; none writes output of its own.
package struct CommandOutput {
  /// The answer in `format`, one of those the command offers.
  package let render: (OutputFormat) -> String
  /// Lines said on standard error before the answer (a baseline's changes, gates not met).
  package var notes: [String] = []
  /// The JSON `--output FILE` keeps; nil for a command with no `--output`.
  package var json: (() -> String)? = nil
  /// The markdown appended to a GitHub job's summary (`$GITHUB_STEP_SUMMARY`).
  package var jobSummary: (() -> String)? = nil
  /// GitHub workflow commands, with paths relative to the workspace given.
  package var annotations: ((_ workspace: String) -> [String])? = nil
  /// Set when Ctrl-C or SIGTERM cut the run short: the command ends with 130, saying so.
  package var interrupted = false
  /// The status once everything is written: success, or a gate not met.
  package var status: ExitStatus = .success
  /// Said after a failed write to standard output, when what the command did stands anyway (an
  /// import stored its files).
  package var doneRegardless: String? = nil

  /// An answer with only its renderings; the rest is set field by field.
  package init(render: @escaping (OutputFormat) -> String) {
    self.render = render
  }
}

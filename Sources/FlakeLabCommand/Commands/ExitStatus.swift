/// How `flakelab` ends; scripts and CI read these (documented in the README).
package enum ExitStatus: Int32 {
  /// Everything ran and every gate held.
  case success = 0
  /// A gate (`--max-failure-rate`, `--min-failure-rate`) was not met.
  case gateNotMet = 1
  /// Bad usage or input: an unknown name, a bad number, an unknown option.
  case usage = 2
  /// The lab itself failed; a bug to report.
  case internalError = 3
  /// Ctrl-C or SIGTERM stopped the run; the results so far were printed and written.
  case interrupted = 130
}

/// How `flakelab` ends; scripts and CI read these (documented in the README).
package enum ExitStatus: Int32 {
  /// Everything ran and every gate held.
  case success = 0
  /// What the run was asked to hold did not: a gate (`--max-failure-rate`, `--min-failure-rate`,
  /// `--fail-on-flaky`), a claim, the baseline; for `ci`, a test that failed for good; for
  /// `history`, what `--fail-on` names.
  case gateNotMet = 1
  /// Bad usage or input, one line on stderr: an unknown name, a bad number, an unknown option, a
  /// file that is not what it should be.
  case usage = 2
  /// The lab itself failed; a bug to report.
  case internalError = 3
  /// Ctrl-C or SIGTERM stopped the run; the results so far were printed and written.
  case interrupted = 130
}

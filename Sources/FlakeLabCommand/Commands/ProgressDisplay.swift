import FlakeLab
import Foundation

/// The one line on standard error that a long run rewrites in place; only used when standard
/// error is a terminal. Honours `NO_COLOR` by never using colour at all. The line is cut to the
/// terminal's width: a line that wrapped could not be rewritten in place.
final class ProgressDisplay {
  static let noProgress = Flag(
    "no-progress", "Never show the progress line (it is shown only when stderr is a terminal).")

  /// A display when the command may show one: standard error is a terminal that can move the
  /// cursor (TERM=dumb would show every update as a new line), and `--no-progress` was not given.
  static func wanted(_ arguments: ParsedArguments, environment: [String: String]) -> ProgressDisplay? {
    !arguments[noProgress] && isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb" ? ProgressDisplay() : nil
  }

  private var isShowing = false
  private let width = ProgressDisplay.terminalColumns() ?? 80

  func show(_ line: String) {
    write("\r\u{1B}[2K" + (line.count < width ? line : line.prefix(width - 2) + "…"))
    isShowing = true
  }

  func clear() {
    if isShowing { write("\r\u{1B}[2K") }
    isShowing = false
  }

  private func write(_ text: String) {
    writeStandardError(text)
  }

  /// The columns of the terminal on standard error, when it is wide enough to use.
  private static func terminalColumns() -> Int? {
    SystemCalls.terminalColumns(of: STDERR_FILENO).flatMap { $0 > 10 ? $0 : nil }
  }
}

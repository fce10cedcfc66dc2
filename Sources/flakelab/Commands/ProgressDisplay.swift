import Foundation

/// The one line on standard error that a long run rewrites in place; only used when standard
/// error is a terminal. Honours `NO_COLOR` by never using colour at all.
final class ProgressDisplay {
  private var isShowing = false

  func show(_ line: String) {
    write("\r\u{1B}[2K" + line)
    isShowing = true
  }

  func clear() {
    if isShowing { write("\r\u{1B}[2K") }
    isShowing = false
  }

  private func write(_ text: String) {
    writeStandardError(text)
  }
}

import Foundation

/// The one line on standard error that a long run rewrites in place; only used when standard
/// error is a terminal. Honours `NO_COLOR` by never using colour at all. The line is cut to the
/// terminal's width: a line that wrapped could not be rewritten in place.
final class ProgressDisplay {
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

  /// The columns of the terminal on standard error (`ioctl(TIOCGWINSZ)`, which glibc declares
  /// variadic and Swift therefore does not import; its arguments are a descriptor, a request
  /// and a pointer, passed alike either way).
  private static func terminalColumns() -> Int? {
    typealias Ioctl = @convention(c) (Int32, UInt, UnsafeMutableRawPointer) -> Int32
    let getWindowSize: UInt = 0x5413  // TIOCGWINSZ
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "ioctl") else { return nil }
    var size = winsize()
    let result = withUnsafeMutablePointer(to: &size) {
      unsafeBitCast(symbol, to: Ioctl.self)(STDERR_FILENO, getWindowSize, $0)
    }
    return result == 0 && size.ws_col > 10 ? Int(size.ws_col) : nil
  }
}

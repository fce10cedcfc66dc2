import Foundation

/// Writes one line to standard error, unbuffered, for messages beside the report.
func printError(_ line: String) {
  writeStandardError(line + "\n")
}

/// Writes `text` to standard error as far as it can be written: a closed or full standard
/// error loses the message, never the run (Foundation's `FileHandle.write` would trap).
func writeStandardError(_ text: String) {
  var bytes = Array(text.utf8)[...]
  while !bytes.isEmpty {
    let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    if written < 0, errno == EINTR { continue }
    guard written > 0 else { return }
    bytes = bytes.dropFirst(written)
  }
}

import FlakeLab
import Foundation

/// Writes one line to standard error, unbuffered, for messages beside the report.
package func printError(_ line: String) {
  writeStandardError(line + "\n")
}

/// Writes `text` to standard error as far as it can be written: a closed or full standard
/// error loses the message, never the run (Foundation's `FileHandle.write` would trap).
package func writeStandardError(_ text: String) {
  SystemCalls.writeAll(text.utf8, to: STDERR_FILENO)
}

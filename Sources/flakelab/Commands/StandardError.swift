import Foundation

/// Writes one line to standard error, unbuffered, for messages beside the report.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

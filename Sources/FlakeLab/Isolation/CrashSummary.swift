/// Turns what a dying worker printed into a short, stable observation.
///
/// The Swift runtime prints `Scenarios/File.swift:15: Fatal error: message` followed by a
/// `Current stack trace:` of addresses that differ on every run. The summary keeps the last
/// lines printed before the trace and drops the trace, the source path, colours, timestamps and
/// a test framework's own progress lines, so that equal crashes group in the histogram.
package enum CrashSummary {
  static let runtimeMessages = [
    "Fatal error:", "Precondition failed:", "Assertion failed:", "Fatal access conflict",
    "Simultaneous accesses",
  ]

  package static func summarize(_ output: String, lines limit: Int = 2) -> String {
    var lines: [Substring] = []
    for line in output.split(whereSeparator: \.isNewline) {
      let trimmed = Substring(FailureText.normalize(String(line)))
      if trimmed.hasPrefix("Current stack trace:") || trimmed.hasPrefix("💣") { break }
      if !trimmed.isEmpty, !isStackFrame(trimmed), !isFrameworkProgress(trimmed) {
        lines.append(trimmed)
      }
    }
    return lines.suffix(limit).map(withoutSourcePath).joined(separator: " / ")
  }

  /// XCTest's `Test Case '…' started at …` and Swift Testing's `◇ Test … started.`: what the
  /// framework says of every test, never what went wrong.
  private static func isFrameworkProgress(_ line: Substring) -> Bool {
    line.hasPrefix("Test Case '") || line.hasPrefix("Test Suite '")
      || ["◇", "↳", "✔", "✘", "􀟈", "􀢄", "􁁛"].contains { line.hasPrefix($0) }
  }

  /// `4    flakelab    0x0000560055834b9b <unavailable> + 351131`
  private static func isStackFrame(_ line: Substring) -> Bool {
    guard let first = line.first, first.isNumber else { return false }
    return line.contains(" 0x")
  }

  private static func withoutSourcePath(_ line: Substring) -> String {
    for message in runtimeMessages {
      if let range = line.range(of: message) { return String(line[range.lowerBound...]) }
    }
    return String(line)
  }
}

/// Turns what a dying worker printed into a short, stable observation.
///
/// The Swift runtime prints `Scenarios/File.swift:15: Fatal error: message` followed by a
/// `Current stack trace:` of addresses that differ on every run. The summary keeps the runtime's
/// message lines (or, without one, the last lines printed) and drops the trace, the source path,
/// colours and timestamps, so that equal crashes group in the histogram.
enum CrashSummary {
  static let runtimeMessages = [
    "Fatal error:", "Precondition failed:", "Assertion failed:", "Fatal access conflict",
    "Simultaneous accesses",
  ]

  static func summarize(_ output: String, lines limit: Int = 2) -> String {
    var lines: [Substring] = []
    for line in output.split(whereSeparator: \.isNewline) {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix("Current stack trace:") || trimmed.hasPrefix("💣") { break }
      if !trimmed.isEmpty, !isStackFrame(trimmed) { lines.append(trimmed) }
    }
    let messages = lines.filter { line in runtimeMessages.contains { line.contains($0) } }
    return (messages.isEmpty ? lines : messages).suffix(limit)
      .map { FailureText.normalize(withoutSourcePath($0)) }.joined(separator: " / ")
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

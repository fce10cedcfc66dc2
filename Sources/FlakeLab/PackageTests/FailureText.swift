import Foundation

/// A test's failure message made stable, so that equal failures group in the outcome histogram.
///
/// Messages carry what differs from one run to the next without saying anything about the
/// failure: object addresses (`<Model: 0x7f3a…>`), durations (`after 0.002 seconds`), times of
/// day, source positions (`IsLoadingTests.swift:21:5`) and terminal colours. Those become
/// placeholders or go; the rest stays as written (XCTest's empty ` - ` message suffix aside), up
/// to ``limit`` characters: an assertion that prints two thousand-element arrays says what
/// failed in its first line, and a run of a hundred thousand such failures must fit in memory.
package enum FailureText {
  private static let rules: [(pattern: NSRegularExpression, replacement: String)] = [
    (#"\u001B\[[0-9;]*[A-Za-z]"#, ""),
    (#"0x[0-9a-fA-F]+"#, "0x…"),
    (#"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?"#, "…"),
    (#"\b\d+(\.\d+)? ?(seconds|second|ms|s)\b"#, "… $2"),
    (#"\.swift:\d+(:\d+)?"#, ".swift"),
    (#"\s+"#, " "),
    (#" -\s*$"#, ""),
  ].map { (try! NSRegularExpression(pattern: $0.0), $0.1) }

  /// The longest message kept, in characters.
  package static let limit = 240

  package static func normalize(_ message: String) -> String {
    var text = message
    for rule in rules {
      text = rule.pattern.stringByReplacingMatches(
        in: text, range: NSRange(text.startIndex..., in: text), withTemplate: rule.replacement)
    }
    text = text.trimmingCharacters(in: .whitespaces)
    return text.count > limit ? text.prefix(limit) + "…" : text
  }
}

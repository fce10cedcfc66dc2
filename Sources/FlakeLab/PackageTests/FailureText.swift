import Foundation

/// A test's failure message made stable, so that equal failures group in the outcome histogram.
///
/// Messages carry what differs from one run to the next without saying anything about the
/// failure: object addresses (`<Model: 0x7f3a…>`), durations (`after 0.002 seconds`), and source
/// positions (`IsLoadingTests.swift:21:5`). Those become placeholders; the rest stays as written.
public enum FailureText {
  private static let rules: [(pattern: NSRegularExpression, replacement: String)] = [
    (#"0x[0-9a-fA-F]+"#, "0x…"),
    (#"\b\d+(\.\d+)? ?(seconds|second|ms|s)\b"#, "… $2"),
    (#"\.swift:\d+(:\d+)?"#, ".swift"),
    (#"\s+"#, " "),
  ].map { (try! NSRegularExpression(pattern: $0.0), $0.1) }

  public static func normalize(_ message: String) -> String {
    var text = message
    for rule in rules {
      text = rule.pattern.stringByReplacingMatches(
        in: text, range: NSRange(text.startIndex..., in: text), withTemplate: rule.replacement)
    }
    return text.trimmingCharacters(in: .whitespaces)
  }
}

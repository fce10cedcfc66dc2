import Foundation

/// A test's failure message made stable, so that equal failures group in the outcome histogram.
///
/// Messages carry what differs from one run to the next without saying anything about the
/// failure: object addresses (`<Model: 0x7f3a…>`), UUIDs, long hexadecimal and digit runs (ports,
/// process IDs, hashes), base64 tokens, numbers with many decimals (a random value in an
/// expectation), durations (`after 0.002 seconds`), times of day, source positions
/// (`IsLoadingTests.swift:21:5`) and terminal colours. Those become placeholders (`<uuid>`,
/// `<hex>`, `<n>`, `<token>`, `…`) or go, so that equal failures group; the rest stays as written
/// (XCTest's empty ` - ` message suffix aside), up to ``limit`` characters: an assertion that
/// prints two thousand-element arrays says what failed in its first line, and a run of a
/// hundred thousand such failures must fit in memory.
package enum FailureText {
  private static let rules: [(pattern: NSRegularExpression, replacement: String)] = [
    (#"\u001B\[[0-9;]*[A-Za-z]"#, ""),
    (#"\b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\b"#, "<uuid>"),
    (#"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?Z?"#, "…"),
    // Base64 (a token, a nonce): 16 or more characters of both cases, with a digit or with the
    // padding (a WebSocket accept key may have no digit); before addresses, which a token can
    // contain (`…l0x9f…`).
    (
      #"(?<![A-Za-z0-9+/])(?=[A-Za-z0-9+/]*[0-9])(?=[A-Za-z0-9+/]*[a-z])(?=[A-Za-z0-9+/]*[A-Z])[A-Za-z0-9+/]{16,}={0,2}"#,
      "<token>"
    ),
    (#"(?<![A-Za-z0-9+/])(?=[A-Za-z0-9+/]*[a-z])(?=[A-Za-z0-9+/]*[A-Z])[A-Za-z0-9+/]{16,}={1,2}"#, "<token>"),
    (#"0x[0-9a-fA-F]+"#, "0x…"),
    // A hash: 8 or more hexadecimal digits with at least one letter and one digit.
    (#"\b(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{8,}\b"#, "<hex>"),
    (#"\b\d+(\.\d+)? ?(seconds|second|ms|s)\b"#, "… $2"),
    (#"\b\d+\.\d{4,}\b"#, "<n>"),
    (#"\b\d{5,}\b"#, "<n>"),
    (#"\.swift:\d+(:\d+)?"#, ".swift"),
    (#"\s+"#, " "),
    (#" -\s*$"#, ""),
  ].map { (try! NSRegularExpression(pattern: $0.0), $0.1) }

  /// The longest message kept, in characters.
  package static let limit = 240

  /// `message` as the test said it, on one line and within ``limit``: the example a report
  /// keeps beside the folded observation.
  package static func example(_ message: String) -> String {
    let text = message.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return text.count > limit ? text.prefix(limit) + "…" : text
  }

  /// `message` with what changes between iterations folded into placeholders, on one line.
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

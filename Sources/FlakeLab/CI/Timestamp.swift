package import Foundation

/// Times as the CI reports and the history write them: ISO 8601 in UTC, to the second, which
/// sorts as text in time order.
package enum Timestamp {
  /// `date` written as the second it falls in. Foundation's formatter rounds to the millisecond
  /// before it drops the fraction: a run that started in a second's last half millisecond was
  /// the next second in the CI's JUnit and the one it started in in the history.
  package static func iso8601(_ date: Date) -> String {
    formatter().string(from: second(of: date))
  }

  /// The start of the second `date` falls in: what the reports and the history keep of a time,
  /// so that a time read back equals the one written.
  package static func second(of date: Date) -> Date {
    Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
  }

  /// The date `text` writes, in ISO 8601 with a zone (JUnit's `timestamp` may have none: then
  /// UTC), or nil.
  package static func date(_ text: String) -> Date? {
    let formatter = formatter()
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions.insert(.withFractionalSeconds)
    return formatter.date(from: text)
  }

  /// Whether a run can have started at `date`: not past tomorrow (a clock a day off aside). A
  /// file dated 2999 would otherwise stand as the newest run for ever.
  package static func hasCome(_ date: Date, now: Date = Date()) -> Bool {
    date <= now.addingTimeInterval(86_400)
  }

  private static func formatter() -> ISO8601DateFormatter {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter
  }
}

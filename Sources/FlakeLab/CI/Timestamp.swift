package import Foundation

/// Times as the CI reports and the history write them: ISO 8601 in UTC, to the second, which
/// sorts as text in time order.
package enum Timestamp {
  /// `date` written as the second it falls in (`2026-11-28T23:59:59Z`). Foundation's formatter
  /// rounds to the millisecond before it drops the fraction: a run that started in a second's
  /// last half millisecond was the next second in the CI's JUnit and the one it started in in the
  /// history. Worked out from the count of seconds, as the proleptic Gregorian calendar has it:
  /// a history page writes a day per mark, tens of thousands of them, and a formatter made for
  /// each took most of its time.
  package static func iso8601(_ date: Date) -> String {
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
    let (days, time) = (seconds.floorDivided(by: 86_400), seconds.floorModulo(86_400))
    // Days since 1970-01-01 to a civil date (Howard Hinnant's `civil_from_days`).
    let shifted = days + 719_468
    let era = shifted.floorDivided(by: 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let digits = String(year)
    let yearText = (0..<1000).contains(year) ? String(repeating: "0", count: 4 - digits.count) + digits : digits
    return "\(yearText)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
  }

  /// The start of the second `date` falls in: what the reports and the history keep of a time,
  /// so that a time read back equals the one written.
  package static func second(of date: Date) -> Date {
    Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
  }

  /// The date `text` writes, in ISO 8601 with a zone (JUnit's `timestamp` may have none: then
  /// UTC), or nil. A date no calendar has (February 30th, hour 24) is nil too: Foundation's
  /// parser rolls it into the next month or day.
  package static func date(_ text: String) -> Date? {
    guard isOnTheCalendar(text) else { return nil }
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

  /// Whether the date and time `text` begins with (`2026-02-28T23:59:59`) exist: a month of
  /// 1 to 12, a day within its month, a time of day before 24:00.
  private static func isOnTheCalendar(_ text: String) -> Bool {
    let separators: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: "T"), UInt8(ascii: ":")]
    let fields = text.utf8.prefix(19).split { separators.contains($0) }
    guard text.utf8.count >= 19, fields.count == 6 else { return false }
    let numbers = fields.map { Int(String(decoding: $0, as: UTF8.self)) }
    guard numbers.allSatisfy({ $0 != nil }) else { return false }
    let (year, month, day, hour, minute, second) =
      (numbers[0]!, numbers[1]!, numbers[2]!, numbers[3]!, numbers[4]!, numbers[5]!)
    guard (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
    else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return (1...days).contains(day)
  }

  private static func formatter() -> ISO8601DateFormatter {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter
  }
}

extension Int64 {
  /// The quotient rounded toward negative infinity: a date before 1970 falls in the day before.
  fileprivate func floorDivided(by divisor: Int64) -> Int64 {
    let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? quotient - 1 : quotient
  }

  fileprivate func floorModulo(_ divisor: Int64) -> Int64 {
    self - floorDivided(by: divisor) * divisor
  }
}

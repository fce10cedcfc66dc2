package import FlakeLab

/// Conversions of option values, each failing with a one-line ``UsageError`` that names the
/// option and says what it accepts.
package enum ValueParsers {
  /// The most iterations a run takes: a trillion is eleven days at a microsecond each, and every
  /// count derived from it (batches, shards, sums of reports) stays far from overflowing.
  package static let maximumCount = 1_000_000_000_000

  /// A whole number from 1 to ``maximumCount``; `10000`, `10_000` and `10,000` all read as ten
  /// thousand.
  package static func positiveCount(_ text: String, option: String) throws(UsageError) -> Int {
    let digits = text.filter { $0 != "_" && $0 != "," }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 1,
      value <= maximumCount
    else {
      throw UsageError(
        "\(option) takes a whole number from 1 to 1,000,000,000,000, not '\(Self.shown(text))'")
    }
    return value
  }

  /// The most worker processes at once: beyond a few per core they only slow a run down.
  package static let maximumJobs = 256

  /// `--jobs`: a whole number from 1 to ``maximumJobs``.
  package static func jobs(_ text: String, option: String) throws(UsageError) -> Int {
    try count(text, option: option, atMost: maximumJobs, of: "worker processes")
  }

  /// The most replicates a run is measured as: each is a worker process of its own.
  package static let maximumReplicates = 10_000

  /// `--replicates R`: 1 to ``maximumReplicates``.
  package static func replicates(_ text: String, option: String) throws(UsageError) -> Int {
    try count(text, option: option, atMost: maximumReplicates, of: "replicates")
  }

  /// A whole number from 1 to `maximum` of `things`.
  private static func count(
    _ text: String, option: String, atMost maximum: Int, of things: String
  ) throws(UsageError) -> Int {
    let value = try positiveCount(text, option: option)
    guard value <= maximum else {
      throw UsageError("\(option) takes at most \(Formatting.count(maximum)) \(things), not '\(Self.shown(text))'")
    }
    return value
  }

  /// `--dispersion D`: 1 (independent iterations) to a million.
  package static func dispersion(_ text: String, option: String) throws(UsageError) -> Double {
    guard let value = Double(text), value.isFinite, value >= 1, value <= 1_000_000 else {
      throw UsageError("\(option) takes a number from 1 to 1,000,000, not '\(Self.shown(text))'")
    }
    return value
  }

  /// A value as an error message quotes it: on one line, and not endless.
  package static func shown(_ text: String) -> String {
    let line = text.replacingOccurrences(of: "\n", with: "\\n")
    return line.count > 60 ? line.prefix(60) + "…" : line
  }

  /// An iteration index: a whole number from 0 to below ``maximumCount``.
  package static func index(_ text: String, option: String) throws(UsageError) -> Int {
    guard let value = Int(text), value >= 0, value < maximumCount else {
      throw UsageError(
        "\(option) takes a whole number from 0 to 999,999,999,999, not '\(Self.shown(text))'")
    }
    return value
  }

  /// A failure rate: a fraction from 0 to 1 (`0.01`) or a percentage (`1%`).
  package static func rate(_ text: String, option: String) throws(UsageError) -> Double {
    let isPercent = text.hasSuffix("%")
    let number = isPercent ? String(text.dropLast()) : text
    guard let value = Double(number), value.isFinite else {
      throw UsageError("\(option) takes a rate such as 0.01 or 1%, not '\(Self.shown(text))'")
    }
    let fraction = isPercent ? value / 100 : value
    guard (0...1).contains(fraction) else {
      throw UsageError("\(option) must be between 0 and 1 (or 0% and 100%), not '\(Self.shown(text))'")
    }
    return fraction
  }

  /// A confidence level above 0 and at most 0.999999 (`0.95` or `95%`): closer to 1, the normal
  /// quantile it needs is not a finite double.
  package static func confidence(_ text: String, option: String) throws(UsageError) -> Double {
    let value = try rate(text, option: option)
    guard value > 0, value <= 0.999_999 else {
      throw UsageError(
        "\(option) must be above 0 and at most 0.999999, such as 0.95 or 99%, not '\(Self.shown(text))'")
    }
    return value
  }

  /// A 64-bit seed: decimal, or hexadecimal with `0x`.
  package static func seed(_ text: String, option: String) throws(UsageError) -> UInt64 {
    let value = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    guard let value else {
      throw UsageError("\(option) takes a whole number from 0 to 2^64-1 (or 0x… hex), not '\(Self.shown(text))'")
    }
    return value
  }

  /// A duration with its unit: `500ms`, `2s`, `1.5s`, `1m`, `1h`.
  package static func duration(_ text: String, option: String) throws(UsageError) -> Duration {
    let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
    for unit in units where text.hasSuffix(unit.suffix) {
      // Plain decimals only, and at least a millisecond: `1e-9s` is no duration anyone means.
      let number = text.dropLast(unit.suffix.count)
      if number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(number), value.isFinite,
        value * unit.seconds >= 0.001, value * unit.seconds < 1e9
      {
        return .milliseconds(Int64((value * unit.seconds * 1000).rounded(.up)))
      }
    }
    throw UsageError("\(option) takes a duration such as 500ms, 2s, 1m or 1h, not '\(Self.shown(text))'")
  }

  /// `INDEX/COUNT`, 0-based: `0/4` … `3/4`.
  package static func shard(_ text: String, option: String) throws(UsageError) -> Shard {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
      throw UsageError("\(option) takes INDEX/COUNT such as 0/4, not '\(Self.shown(text))'")
    }
    return try UsageError.mapping { () throws(Shard.Invalid) in try Shard(index: index, count: count) }
  }

  /// One of `choices`, e.g. an output format.
  package static func choice(
    _ text: String, option: String, among choices: [String]
  ) throws(UsageError) -> String {
    guard choices.contains(text) else {
      throw UsageError(
        "\(option) takes one of \(choices.joined(separator: ", ")), not '\(Self.shown(text))'"
          + Suggestion.didYouMean(text, among: choices))
    }
    return text
  }
}

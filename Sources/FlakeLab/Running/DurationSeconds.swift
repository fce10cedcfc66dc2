extension Duration {
  /// The duration in seconds, as a floating-point number for reports and benchmarks.
  package var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}

extension JSONValue {
  /// The most seconds a report says anything lasted or may last: about 31 years. A number past
  /// it (1e30, 1e308) is no time a run had, and would overflow a `Duration`.
  package static let mostSeconds = 1e9

  /// The value as a count of seconds a report can hold (0 to ``mostSeconds``); nil for any
  /// other value, a negative or huge number among them.
  package var seconds: Double? {
    number.flatMap { $0 >= 0 && $0 <= Self.mostSeconds ? $0 : nil }
  }
}

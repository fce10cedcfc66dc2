import FlakeLab

extension FailureRateGate {
  /// The gates set by `--max-failure-rate` and `--min-failure-rate`.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> [FailureRateGate] {
    var gates: [FailureRateGate] = []
    if let text = arguments.value("max-failure-rate") {
      gates.append(.init(.atMost(try ValueParsers.rate(text, option: "--max-failure-rate"))))
    }
    if let text = arguments.value("min-failure-rate") {
      gates.append(.init(.atLeast(try ValueParsers.rate(text, option: "--min-failure-rate"))))
    }
    return gates
  }
}

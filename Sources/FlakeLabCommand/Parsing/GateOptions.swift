import FlakeLab

extension FailureRateGate {
  static let maxFailureRate = Option<Double>.optional(
    "max-failure-rate", "R",
    "Exit 1 unless every run is shown to fail at most R (the interval's high end ≤ R)", parse: ValueParsers.rate)
  static let minFailureRate = Option<Double>.optional(
    "min-failure-rate", "R",
    "Exit 1 unless every run is shown to fail at least R (the low end ≥ R): the race still shows",
    parse: ValueParsers.rate)
  static let baseline = Option<Report>.optional(
    "baseline", "FILE", "Compare with an earlier JSON report; exit 1 if a run's failure rate rose significantly"
  ) { path, _ throws(UsageError) in
    try UsageError.mapping { () throws(ReportFileError) in try ReportFile.read(path) }
  }
  static let specs = [maxFailureRate.spec, minFailureRate.spec, baseline.spec]
  /// `flakelab test` in every layout, and `merge` of its reports.
  static let failOnFlaky = Flag(
    "fail-on-flaky", "Exit 1 when a package's test is flaky or failing (the rate gates apply as well).")

  /// The gates set by `--max-failure-rate` and `--min-failure-rate`.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> [FailureRateGate] {
    var gates: [FailureRateGate] = []
    if let rate = try arguments[maxFailureRate] { gates.append(.init(.atMost(rate))) }
    if let rate = try arguments[minFailureRate] { gates.append(.init(.atLeast(rate))) }
    return gates
  }
}

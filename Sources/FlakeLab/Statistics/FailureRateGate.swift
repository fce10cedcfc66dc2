/// A bound a run's failure rate must respect, as set by `--max-failure-rate` and
/// `--min-failure-rate`; a CI job fails (exit 1) when any run is outside.
public struct FailureRateGate: Equatable, Sendable {
  public enum Bound: Equatable, Sendable {
    /// The test must fail at most this often: a gate against flakiness.
    case atMost(Double)
    /// The test must fail at least this often: proof that a race is still reproduced.
    case atLeast(Double)
  }

  public let bound: Bound

  public init(_ bound: Bound) {
    self.bound = bound
  }

  /// Why `result` is outside this gate, or nil when it holds.
  public func violation(by result: RunResult) -> String? {
    let rate = result.tally.failureRate
    let observed = Formatting.percent(rate)
    switch bound {
    case .atMost(let limit) where rate > limit:
      return "\(result.selector) under \(result.executor): failure rate \(observed) is above the maximum \(Formatting.percent(limit))"
    case .atLeast(let limit) where rate < limit:
      return "\(result.selector) under \(result.executor): failure rate \(observed) is below the minimum \(Formatting.percent(limit))"
    default:
      return nil
    }
  }
}

/// A bound a run's failure rate must be proven to respect, as set by `--max-failure-rate` and
/// `--min-failure-rate`; a CI job fails (exit 1) when any run is outside.
///
/// Gates decide on the run's interval (``FailureRateEstimate``), not the point estimate, so that a
/// gate is not itself flaky: "fails at most 1%" holds only when the interval's high end is at most 1%, that is when
/// the run proved the rate low enough. 0 failures in 200 iterations does not prove it (the high
/// end is 1.9%); 0 in 400 does. When a gate fails only for lack of iterations, the message says
/// how many would do. Under the global executor the interval allows for how much the rate moved
/// between the run's replicates, so a threshold inside that range is "not shown" in every run
/// rather than met in one and missed in the next.
package struct FailureRateGate: Equatable, Sendable {
  package enum Bound: Equatable, Sendable {
    /// The test must be shown to fail at most this often: a gate against flakiness.
    case atMost(Double)
    /// The test must be shown to fail at least this often: proof a race is still reproduced.
    case atLeast(Double)
  }

  /// Which end of the interval a bound looks at.
  package enum Side: Sendable { case low, high }

  package let bound: Bound

  package init(_ bound: Bound) {
    self.bound = bound
  }

  /// The problem of `result` when it is not proven within this gate at its interval's
  /// confidence, or nil when it is.
  package func violation(by result: RunResult) -> Problem? {
    let estimate = result.estimate
    guard estimate.hasRate else { return nil }
    let (side, limit, holds) =
      switch bound {
      case .atMost(let limit): (Side.high, limit, estimate.high <= limit)
      case .atLeast(let limit): (Side.low, limit, estimate.low >= limit)
      }
    guard !holds else { return nil }
    let needed = IterationPlanner.iterationsForInterval(
      toBring: side, within: limit, observedRate: estimate.rate, confidence: estimate.confidence,
      dispersion: estimate.dispersion ?? 1, critical: estimate.critical)
    var replicates: GateShortfall.Replicates?
    if let needed, estimate.method == .quasiBinomialWilson, estimate.replicatesRun > 0 {
      let size = max(1, result.tally.ran / estimate.replicatesRun)
      replicates = .init(count: (needed + size - 1) / size, size: size)
    }
    return .gateNotMet(
      GateShortfall(
        gate: self, run: result.key, estimate: estimate, iterationsNeeded: needed,
        replicatesNeeded: replicates))
  }
}

/// A run's failure rate and the interval every report, gate, verdict and baseline decides on.
///
/// Two methods, chosen by how the run's iterations relate:
///
/// - **Wilson** (``Method/wilson``): the binomial interval, right when iterations are
///   independent trials of one rate. Under `serial`, `fifo` and `seeded` they are by
///   construction: every job runs one at a time on one queue in an order fixed by the
///   executor, so nothing carries from one iteration or process to the next but the code.
/// - **Quasi-binomial Wilson** (``Method/quasiBinomialWilson``): under the global executor the
///   rate moves between processes with load and thread placement, so a run is measured as
///   replicates in processes of their own and their ``Dispersion`` φ widens the interval: it is
///   Wilson's on the effective sample size n/φ, with Student's t on R − 1 degrees of freedom in
///   place of the normal z, since φ itself is estimated from R replicates. This is the
///   quasi-likelihood treatment of overdispersed proportions (Wedderburn 1974; McCullagh and
///   Nelder, *Generalized Linear Models*, 1989). Against the alternatives: a t interval on the
///   replicate rates alone collapses to a point when every replicate saw no failure, and a
///   beta-binomial fit needs an iterative maximum-likelihood fit that can fail to converge on
///   ten replicates; this one keeps Wilson's behaviour at 0 and 100%, and becomes Wilson's
///   again, but for t, when the replicates agree.
///
/// ```swift
/// // The ten replicates of the Dispersion example: 2,200 failures in 10,000 iterations.
/// let estimate = FailureRateEstimate(
///   replicates: counts, iterationsAreIndependent: false, confidence: 0.95)
/// estimate.dispersion             // 30.56
/// estimate.low...estimate.high    // 17.27%...27.59% (Wilson on 10,000 alone: 21.2%...22.8%)
/// ```
package struct FailureRateEstimate: Equatable, Sendable {
  /// How the interval was computed, as named in JSON reports (`confidence.method`).
  package enum Method: String, Sendable {
    case wilson
    case quasiBinomialWilson = "quasi-binomial-wilson"
  }

  package let rate: Double
  package let low: Double
  package let high: Double
  package let confidence: Double
  package let method: Method
  /// The replicates' dispersion (at least 1), or nil under the binomial method.
  package let dispersion: Double?
  /// The lowest and highest failure rate among the replicates that ran, when two or more did.
  package let replicateRates: ClosedRange<Double>?
  /// How many replicates ran an iteration.
  package let replicatesRun: Int
  /// Whether any iteration ran: a run whose every iteration was skipped has no rate, and
  /// passes every gate.
  package let hasRate: Bool
  /// The iterations of the replicates that ran, smallest and largest: the rate under the global
  /// executor depends on how many iterations a process runs, so reports say.
  package let replicateSizes: ClosedRange<Int>?

  /// The confidence of every interval and test unless `--confidence` says otherwise.
  package static let defaultConfidence = 0.95

  /// The estimate for a run measured as `replicates`.
  package init(replicates: [ReplicateCounts], iterationsAreIndependent: Bool, confidence: Double) {
    let ran = replicates.filter { $0.ran > 0 }
    let iterations = ran.reduce(0) { $0 + $1.ran }
    let notPassed = ran.reduce(0) { $0 + $1.notPassed }
    self.confidence = confidence
    rate = iterations == 0 ? 0 : Double(notPassed) / Double(iterations)
    replicatesRun = ran.count
    hasRate = iterations > 0
    let rates = ran.map(\.failureRate)
    replicateRates = ran.count >= 2 ? rates.min()!...rates.max()! : nil
    let sizes = ran.map(\.ran)
    replicateSizes = sizes.isEmpty ? nil : sizes.min()!...sizes.max()!
    let interval: WilsonInterval
    if !iterationsAreIndependent, let dispersion = Dispersion.pearson(ran) {
      method = .quasiBinomialWilson
      self.dispersion = dispersion
      interval = WilsonInterval(
        failures: notPassed, iterations: iterations,
        effectiveIterations: Double(iterations) / dispersion,
        critical: StudentT.twoSidedCritical(confidence: confidence, degreesOfFreedom: ran.count - 1),
        confidence: confidence)
    } else {
      method = .wilson
      dispersion = nil
      interval = WilsonInterval(failures: notPassed, iterations: iterations, confidence: confidence)
    }
    (low, high) = (interval.low, interval.high)
  }

  /// The dispersion from which a report shows how the replicates varied: the interval is then
  /// at least √2 times as wide as the binomial one.
  package static let materialDispersion = 2.0

  /// Whether the replicates differed enough that a report should say by how much.
  package var dispersionIsMaterial: Bool { (dispersion ?? 1) >= Self.materialDispersion }

  /// The critical value the interval used: Student's t on R − 1 degrees of freedom under the
  /// quasi-binomial method, the normal z under Wilson's.
  var critical: Double {
    method == .quasiBinomialWilson
      ? StudentT.twoSidedCritical(confidence: confidence, degreesOfFreedom: replicatesRun - 1)
      : Normal.twoSidedZ(confidence: confidence)
  }
}

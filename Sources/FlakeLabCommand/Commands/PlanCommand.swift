import FlakeLab

/// `flakelab plan`: how many iterations a question about a flake needs, before running any.
struct PlanCommand: Command {
  static let name = "plan"
  static let abstract = "How many iterations it takes to see, or to rule out, a flake of a given rate."
  static let usage = "plan --rate R [--confidence C] [--dispersion D]"
  static let discussion = """
    Prints the iterations after which a flake failing at rate R has shown at least one failure
    with probability C, and the failure-free iterations after which '--max-failure-rate R' holds.
    Under the global executor a run's replicates spread more than chance allows; with the
    dispersion D a report gave (JSON 'dispersion'), a run of n iterations weighs as n/D
    independent ones, so both figures are D times larger.
    """
  /// The options, each declared once: parsing, help and defaults derive from these.
  enum Options {
    static let rate = Option<Double>.optional(
      "rate", "R", "The flake's failure rate: a fraction like 0.01, or 1%", parse: ValueParsers.rate)
    static let confidence = Option(
      "confidence", "C", "Probability, or confidence level", default: FailureRateEstimate.defaultConfidence,
      parse: ValueParsers.confidence)
    static let dispersion = Option(
      "dispersion", "D", "The dispersion of the runs to plan, at least 1", default: 1.0,
      shownDefault: "1, independent iterations", parse: ValueParsers.dispersion)
  }

  static let options = [Options.rate.spec, Options.confidence.spec, Options.dispersion.spec]

  let rate: Double
  let confidence: Double
  let dispersion: Double

  init(_ arguments: ParsedArguments, catalog: ScenarioCatalog) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError("plan takes no arguments, got '\(arguments.positionals[0])'")
    }
    guard let rate = try arguments[Options.rate] else { throw UsageError("plan needs --rate R") }
    // Below one in a billion the iterations needed are past what any run can count.
    guard rate >= 1e-9, rate < 1 else {
      throw UsageError(
        "--rate must be at least 0.0000001% (1e-9) and below 100%, not '\(arguments.text(of: Options.rate) ?? "")'")
    }
    self.rate = rate
    confidence = try arguments[Options.confidence]
    dispersion = try arguments[Options.dispersion]
  }

  func run() async throws -> ExitStatus {
    let see = IterationPlanner.iterationsToSeeAFailure(rate: rate, confidence: confidence)
    let prove = IterationPlanner.failureFreeIterationsToProve(rate: rate, confidence: confidence)
    let percentRate = Formatting.percent(rate)
    let percentConfidence = Formatting.level(confidence)
    let scaled = { (count: Int) in Self.iterations(Int((Double(count) * dispersion).rounded(.up))) }
    print(
      """
      To see at least one failure of a \(percentRate) flake with \(percentConfidence) probability: \(scaled(see)).
      To show the rate is at most \(percentRate) (--max-failure-rate \(percentRate)) at \(percentConfidence) confidence: \(scaled(prove)) without a failure.
      """)
    if dispersion > 1 {
      print(
        "Both are \(Formatting.dispersion(dispersion)) times the figures for independent iterations (--dispersion \(Formatting.dispersion(dispersion)))."
      )
    }
    return .success
  }

  /// `1 iteration`, `381 iterations`.
  static func iterations(_ count: Int) -> String {
    "\(Formatting.count(count)) iteration\(count == 1 ? "" : "s")"
  }
}

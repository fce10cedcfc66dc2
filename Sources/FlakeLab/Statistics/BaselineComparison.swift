/// `--baseline old.json`: each run against the same run (scenario, variant, executor) of an
/// earlier report, by a one-sided two-proportion test.
package struct BaselineComparison: Sendable {
  package let selector: String
  package let executor: String
  package let test: TwoProportionTest
  package let roseSignificantly: Bool

  /// One comparison for every run of `report` that `baseline` also has.
  package static func compare(
    _ report: Report, with baseline: Report, confidence: Double
  ) -> [BaselineComparison] {
    report.runs.compactMap { run in
      guard
        let old = baseline.runs.first(where: {
          $0.selector == run.selector && $0.executor == run.executor
        })
      else { return nil }
      guard old.tally.hasRate, run.tally.hasRate else { return nil }
      let test = TwoProportionTest(
        baselineFailures: old.tally.notPassed, baselineIterations: old.tally.ran,
        failures: run.tally.notPassed, iterations: run.tally.ran,
        baselineDispersion: old.estimate.dispersion ?? 1, dispersion: run.estimate.dispersion ?? 1)
      return BaselineComparison(
        selector: run.selector, executor: run.executor, test: test,
        roseSignificantly: test.roseSignificantly(confidence: confidence))
    }
  }

  /// `isLoading.naive under global: 1.20% in the baseline → 3.40% now (one-sided p = 0.0003), …`.
  package var summary: String {
    "\(selector) under \(executor): \(Formatting.percent(test.baselineRate)) in the baseline → "
      + "\(Formatting.percent(test.rate)) now (one-sided p \(Formatting.pValue(test.pValue)))"
      + (roseSignificantly ? ", flakiness rose significantly" : "")
  }
}

/// `--baseline old.json`: each run against the same run (scenario, variant, executor) of an
/// earlier report, by a one-sided two-proportion test.
package struct BaselineComparison: Sendable, Equatable {
  package let run: RunKey
  package let test: TwoProportionTest
  package let roseSignificantly: Bool

  /// One comparison for every run of `report` that `baseline` also has.
  package static func compare(
    _ report: Report, with baseline: Report, confidence: Double
  ) -> [BaselineComparison] {
    report.runs.compactMap { run in
      guard
        let old = baseline.runs.first(where: { $0.key == run.key })
      else { return nil }
      guard old.tally.hasRate, run.tally.hasRate else { return nil }
      let test = TwoProportionTest(
        baselineFailures: old.tally.notPassed, baselineIterations: old.tally.ran,
        failures: run.tally.notPassed, iterations: run.tally.ran,
        baselineDispersion: old.estimate.dispersion ?? 1, dispersion: run.estimate.dispersion ?? 1)
      return BaselineComparison(
        run: run.key, test: test,
        roseSignificantly: test.roseSignificantly(confidence: confidence))
    }
  }

  /// `isLoading.naive under global: 1.20% in the baseline → 3.40% now (one-sided p = 0.0003), …`.
  package var summary: String {
    "\(run): \(Formatting.percent(test.baselineRate)) in the baseline → "
      + "\(Formatting.percent(test.rate)) now (one-sided p \(Formatting.pValue(test.pValue)))"
      + (roseSignificantly ? ", flakiness rose significantly" : "")
  }
}

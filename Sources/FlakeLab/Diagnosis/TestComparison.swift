/// `--baseline old.json` for `flakelab test`: each test against the same test in an earlier
/// report, its suite passes (every executor both reports screened under) then and now, by the
/// one-sided two-proportion test the run comparisons use, each way. A verdict that changed is
/// called a change only where the counts show it: a stable run too short to rule out the old
/// rate is not "fixed".
package struct TestComparison: Sendable, Equatable {
  package enum Change: String, Sendable {
    /// Was flaky or failing, now stable, and the rate fell significantly.
    case fixed
    /// Was stable, now flaky or failing, and the rate rose significantly.
    case broke
    /// Not stable either time, and the rate rose significantly.
    case flakier
    /// Not stable either time, and the rate fell significantly.
    case steadier
    /// The verdict changed, but the counts do not show a change in the rate.
    case notShown = "not-shown"
  }

  package let test: PackageTest
  package let was: TestVerdict
  package let now: TestVerdict
  /// The suite passes that failed, and those that ran, in the baseline and now.
  package let baseline: (failed: Int, ran: Int)
  package let current: (failed: Int, ran: Int)
  /// Now against the baseline: a rise. The fall is the same test the other way round.
  package let rise: TwoProportionTest
  package let fall: TwoProportionTest
  package let change: Change

  /// A comparison for each test of `report` that `baseline` also has whose verdict changed or
  /// whose rate moved significantly, in the report's order.
  package static func compare(_ report: Report, with baseline: Report, confidence: Double) -> [TestComparison] {
    report.tests.compactMap { finding in
      guard let old = baseline.tests.first(where: { $0.test == finding.test }) else { return nil }
      let executors = Set(finding.screen.map(\.executor)).intersection(old.screen.map(\.executor))
      let then = Diagnostician.Counts(old.screen.filter { executors.contains($0.executor) })
      let now = Diagnostician.Counts(finding.screen.filter { executors.contains($0.executor) })
      guard then.ran > 0, now.ran > 0 else { return nil }
      let rise = TwoProportionTest(
        baselineFailures: then.failed, baselineIterations: then.ran, failures: now.failed, iterations: now.ran,
        baselineDispersion: then.dispersion, dispersion: now.dispersion)
      let fall = TwoProportionTest(
        baselineFailures: now.failed, baselineIterations: now.ran, failures: then.failed, iterations: then.ran,
        baselineDispersion: now.dispersion, dispersion: then.dispersion)
      let rose = rise.roseSignificantly(confidence: confidence)
      let fell = fall.roseSignificantly(confidence: confidence)
      let (wasStable, isStable) = (old.verdict == .stable, finding.verdict == .stable)
      let change: Change? =
        switch (wasStable, isStable) {
        case (false, true): fell ? .fixed : .notShown
        case (true, false): rose ? .broke : .notShown
        case (false, false): rose ? .flakier : fell ? .steadier : nil
        case (true, true): nil
        }
      guard let change else { return nil }
      return TestComparison(
        test: finding.test, was: old.verdict, now: finding.verdict, baseline: (then.failed, then.ran),
        current: (now.failed, now.ran), rise: rise, fall: fall, change: change)
    }
  }

  /// `M.S/t() was flaky (6 of 20 passes failed), now stable over 40 passes: fixed (one-sided p 0.0004)`.
  package var summary: String {
    func state(_ verdict: TestVerdict, _ counts: (failed: Int, ran: Int)) -> String {
      verdict == .stable
        ? "stable over \(Formatting.count(counts.ran)) passes"
        : "\(verdict.rawValue) (\(Formatting.count(counts.failed)) of \(Formatting.count(counts.ran)) passes failed)"
    }
    let test = change == .fixed || change == .steadier || (change == .notShown && now == .stable) ? fall : rise
    let said =
      change == .notShown
      ? "the verdict changed, but not significantly: more passes (--iterations) would tell"
      : change.rawValue
    return "\(self.test.id) was \(state(was, baseline)), now \(state(now, current)): \(said) "
      + "(one-sided p \(Formatting.pValue(test.pValue)))"
  }

  package static func == (lhs: TestComparison, rhs: TestComparison) -> Bool {
    lhs.test == rhs.test && lhs.was == rhs.was && lhs.now == rhs.now && lhs.baseline == rhs.baseline
      && lhs.current == rhs.current && lhs.change == rhs.change
  }
}

extension TestFinding {
  /// The screen's runs: suite passes, the runs a baseline compares.
  var screen: [RunResult] { runs.filter { $0.test?.layout == .suite } }
}

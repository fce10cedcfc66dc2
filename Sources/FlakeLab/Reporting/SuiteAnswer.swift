/// What `flakelab test` concludes of a suite, derived once from a report: the tests that are
/// not stable, grouped by cause, the crash of the test process that none of its tests caused
/// alone, the rest (``SuiteSummary``) and the replays. The text answer, markdown, HTML and
/// annotations render it; none derives it again.
package struct SuiteAnswer {
  /// A test that is not stable, and the other tests that fail for the same cause (the same
  /// polluters): one remedy for them all.
  package struct Cause {
    package let finding: TestFinding
    package let sameCause: [TestFinding]
  }

  /// An arm that saw the crash beside others: the most passes that crashed with one of the tests
  /// in flight, of the passes it had.
  package typealias CrashedArm = (arm: String, crashed: Int, passes: Int)

  /// The tests not stable, failing first, then flaky, each by ID (``Report/unstableTests``).
  package let unstable: [TestFinding]
  package let causes: [Cause]
  /// The crash of the test process that none of its tests in flight caused alone: the suite's
  /// finding, not any one test's; and the arms that saw it.
  package let crash: CrashBesideOthers?
  package let crashArms: [CrashedArm]
  package let summary: SuiteSummary
  /// Each unstable test's command that replays a failing seeded iteration, where one does.
  package let replays: [(test: PackageTest, command: String)]
  /// How many tests the answer is of.
  package let testCount: Int

  /// The tests not stable, grouped by diagnosis, the most harmful first
  /// (``TestDiagnosis/byHarm``): what a maintainer triages from.
  package var byCause: [(diagnosis: TestDiagnosis, findings: [TestFinding])] {
    TestDiagnosis.byHarm.compactMap { diagnosis in
      let findings = unstable.filter { ($0.diagnosis ?? .undetermined) == diagnosis }
      return findings.isEmpty ? nil : (diagnosis, findings)
    }
  }

  package init(_ report: Report) {
    unstable = report.unstableTests
    var shown = Set<PackageTest>()
    var causes: [Cause] = []
    for finding in unstable where !shown.contains(finding.test) {
      let sameCause = unstable.filter { other in
        other.test != finding.test
          && other.polluters.map { !$0.tests.isEmpty && $0.tests == finding.polluters?.tests } ?? false
      }
      causes.append(Cause(finding: finding, sameCause: sameCause))
      shown.formUnion(sameCause.map(\.test) + [finding.test])
    }
    self.causes = causes
    (crash, crashArms) = Self.crash(report.testsInFlightAtCrashes)
    summary = SuiteSummary(report)
    replays = unstable.compactMap { finding in finding.replay(program: report.program).map { (finding.test, $0) } }
    testCount = report.tests.count
  }

  /// `no flaky test`, `3 of 40 tests not stable`.
  package var headline: String {
    unstable.isEmpty
      ? "no flaky test"
      : "\(Formatting.count(unstable.count)) of \(Formatting.count(testCount)) test\(testCount == 1 ? "" : "s") not stable"
  }

  private static func crash(_ findings: [TestFinding]) -> (CrashBesideOthers?, [CrashedArm]) {
    guard !findings.isEmpty else { return (nil, []) }
    let runs = findings.flatMap(\.runs)
    let arms = runs.map(\.armName).uniqued().compactMap { arm -> CrashedArm? in
      let armRuns = runs.filter { $0.armName == arm }
      let crashed = armRuns.map(\.tally.crashed).max() ?? 0
      return crashed > 0 ? (arm, crashed, armRuns.map(\.tally.ran).max() ?? 0) : nil
    }
    var tally = Tally()
    for run in runs { tally.merge(run.tally) }
    let seen: String? =
      if case .crashed(let crash)? = tally.outcomesByFrequency.first?.outcome { crash.how } else { nil }
    return (CrashBesideOthers(inFlight: findings.map(\.test.id), how: seen), arms)
  }
}

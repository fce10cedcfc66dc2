/// Everything one command measured, ready to be rendered as text or JSON.
package struct Report: Sendable {
  /// The lab's own version, written into every machine-readable report.
  package static let labVersion = "0.1.0"

  package var machine: MachineInfo
  /// The runs, each with its interval at ``confidence``.
  package private(set) var runs: [RunResult]
  /// Set when Ctrl-C or SIGTERM stopped the command: the runs hold what finished before.
  package var interrupted: Bool
  /// The shard these runs are a share of, or nil for whole runs (and merged reports).
  package var shard: Shard?
  /// The confidence level of every interval in the report (`--confidence`, ``FailureRateEstimate/defaultConfidence`` by default).
  package var confidence: Double {
    didSet { runs = runs.map { Self.estimated($0, at: confidence) } }
  }
  /// The seed of the runs (`--seed`, or one drawn at random), printed in every report so that
  /// runs under the deterministic scheduler can be repeated.
  package var seed: UInt64?
  /// The executable the runs were made with, which the replay commands a report prints name.
  package var program: String
  /// How long an iteration could run before it was recorded as timed out; nil where not known
  /// (a merged report, or one from before the limit was reported).
  package var timeout: Duration?
  /// `--budget`, the bound on the whole measurement, when one was set.
  package var budget: Duration?
  /// `flakelab test` in the suite layout: every selected test's verdict and diagnosis, with
  /// the diagnosis's runs; ``runs`` are the screen's.
  package var tests: [TestFinding] = []
  /// What the thread sanitizer's arm took, or why it did not run; nil where it was not asked.
  package var sanitizer: SanitizerSummary?

  /// The tests that are not stable, in the order every report gives them: failing ones first,
  /// then flaky ones, each by ID.
  /// Those whose only failures are crashes of their process beside others are apart
  /// (``testsInFlightAtCrashes``): what they share is the crash.
  package var unstableTests: [TestFinding] {
    tests.filter { ($0.verdict == .flaky || $0.verdict == .failing) && $0.diagnosis != .crashBesideOthers }
      .sorted { ($0.verdict == .failing ? 0 : 1, $0.test.id) < ($1.verdict == .failing ? 0 : 1, $1.test.id) }
  }

  package init(
    machine: MachineInfo = .current, runs: [RunResult], interrupted: Bool = false,
    shard: Shard? = nil, confidence: Double = FailureRateEstimate.defaultConfidence, seed: UInt64? = nil,
    program: String = "flakelab", timeout: Duration? = nil
  ) {
    self.machine = machine
    self.runs = runs.map { Self.estimated($0, at: confidence) }
    self.interrupted = interrupted
    self.shard = shard
    self.confidence = confidence
    self.seed = seed
    self.program = program
    self.timeout = timeout
  }

  /// Notes `problems` on the run at `index`: the one way a report's runs change after it is made.
  package mutating func note(_ problems: [Problem], onRunAt index: Int) {
    runs[index].problems += problems
  }

  /// The comparisons with `baseline`, at this report's confidence.
  package func compared(with baseline: Report) -> [BaselineComparison] {
    BaselineComparison.compare(self, with: baseline, confidence: confidence)
  }

  /// The tests whose verdict or rate changed since `baseline`, at this report's confidence.
  package func comparedTests(with baseline: Report) -> [TestComparison] {
    TestComparison.compare(self, with: baseline, confidence: confidence)
  }

  /// Notes on each run the gates it does not meet and a significant rise over `baseline`; a
  /// baseline that matches no run compared nothing, which is no pass.
  package mutating func judge(gates: [FailureRateGate], baseline: Report?) {
    let comparisons = baseline.map(compared) ?? []
    let unmatched = baseline != nil && comparisons.isEmpty
    for (index, run) in runs.enumerated() {
      var problems: [Problem] = unmatched ? [.missingFromBaseline(run.key)] : []
      problems += gates.compactMap { $0.violation(by: run) }
      if !gates.isEmpty, run.tally.ran == 0, run.notRun > 0 || run.tally.executorChanged > 0 {
        problems.append(.notMeasured(run.key, stop: run.stop, executorChanged: run.tally.executorChanged))
      }
      problems += comparisons.filter { $0.roseSignificantly && $0.run == run.key }
        .map(Problem.roseOverBaseline)
      note(problems, onRunAt: index)
    }
  }

  /// Notes on each flaky or failing test's first run that it fails the command
  /// (`--fail-on-flaky`): by the report's findings, or, in a report without them (a test run
  /// in another layout, a merge), by the verdict of each test's runs.
  package mutating func judgeStability() {
    let findings =
      !tests.isEmpty
      ? tests
      : runs.compactMap(\.test?.test).uniqued().map { test in
        TestFinding(test: test, runs: runs.filter { $0.test?.test == test }, confidence: confidence)
      }
    for finding in findings where finding.verdict == .flaky || finding.verdict == .failing {
      guard let index = runs.firstIndex(where: { $0.test?.test == finding.test }) else { continue }
      note(
        [.testNotStable(test: finding.test, verdict: finding.verdict, diagnosis: finding.diagnosis)],
        onRunAt: index)
    }
  }

  /// The tests whose only failures are crashes of the test process beside other tests, none of
  /// which crashed alone, by ID.
  package var testsInFlightAtCrashes: [TestFinding] {
    tests.filter { $0.diagnosis == .crashBesideOthers }.sorted { $0.test.id < $1.test.id }
  }

  /// Whether any run fails the command (exit 1).
  package var hasProblems: Bool { runs.contains { !$0.problems.isEmpty } }

  static func estimated(_ run: RunResult, at confidence: Double) -> RunResult {
    var run = run
    run.estimate(atConfidence: confidence)
    return run
  }
}

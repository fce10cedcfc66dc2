/// Decides a test's verdict and diagnosis from its runs: contrasts between executors (global
/// against one queue, seeded against FIFO) and between layouts (suite passes against the test
/// alone, fresh processes against warm repetitions).
///
/// A contrast counts only when it is significant (a one-sided two-proportion test,
/// ``TwoProportionTest``): "never under serial" means nothing after three serial iterations.
/// Two things keep a contrast from reading noise as a cause. A global rate moves between
/// processes far beyond binomial noise: each side's variance is scaled by its runs' dispersion,
/// as the rates' intervals are. And up to ``contrasts`` contrasts are asked of the same runs:
/// each is judged at the report's error shared among them (Bonferroni), so that the answer as a
/// whole keeps the report's confidence. A failure that no contrast explains is `undetermined`,
/// never a guess.
package enum Diagnostician {
  /// The contrasts a diagnosis may ask: blocks-thread, interference (global, one queue),
  /// first-run, fifo-dependent, needs-parallelism.
  static let contrasts = 6

  /// Iterations run and iterations that did not pass, over a set of runs, and their dispersion.
  struct Counts {
    var ran = 0
    var failed = 0
    /// The runs' dispersion, weighted by their iterations: 1 for independent iterations.
    var dispersion = 1.0

    init(_ runs: some Sequence<RunResult>) {
      var weighted = 0.0
      for run in runs {
        ran += run.tally.ran
        failed += run.tally.notPassed
        weighted += Double(run.tally.ran) * max(1, run.estimate.dispersion ?? 1)
      }
      if ran > 0 { dispersion = weighted / Double(ran) }
    }

    var fails: Bool { failed > 0 }
    var passes: Bool { failed < ran }
    var neverFails: Bool { ran > 0 && failed == 0 }
    var alwaysFails: Bool { ran > 0 && failed == ran }

    /// Whether these fail significantly more often than `baseline`, each side's variance scaled
    /// by its dispersion, at `confidence` shared among every contrast a diagnosis asks.
    func failMoreThan(_ baseline: Counts, confidence: Double) -> Bool {
      TwoProportionTest(
        baselineFailures: baseline.failed, baselineIterations: baseline.ran, failures: failed, iterations: ran,
        baselineDispersion: baseline.dispersion, dispersion: dispersion
      ).roseSignificantly(confidence: 1 - (1 - confidence) / Double(Diagnostician.contrasts))
    }
  }

  package static func judge(_ runs: [RunResult], confidence: Double) -> (TestVerdict, TestDiagnosis?) {
    let all = Counts(runs)
    guard all.ran > 0 else {
      return (runs.contains { $0.tally.skipped > 0 } ? .skipped : .notRun, nil)
    }
    guard all.fails else { return (.stable, nil) }
    // Failures that are only crashes charged to every test in flight say nothing of this test.
    let failures = runs.flatMap { $0.tally.outcomesByFrequency.map(\.outcome) }.filter { !$0.isOutsideTheRate }
    if failures.allSatisfy(\.isCrashBesideOthers) {
      return (.flaky, .crashBesideOthers)
    }
    let isFailing = runs.allSatisfy { $0.tally.ran == 0 || $0.tally.notPassed == $0.tally.ran }
    // An interrupt cut the runs the contrasts need: what they would have said is not known.
    if runs.contains(where: { $0.stop == .interrupted }) { return (isFailing ? .failing : .flaky, .undetermined) }
    if isFailing { return (.failing, .alwaysFails) }
    return (.flaky, diagnose(runs, confidence: confidence))
  }

  private static func diagnose(_ runs: [RunResult], confidence: Double) -> TestDiagnosis {
    // A drill-down arm stopped after its first failures (each a long wait) reads 3 of 3 whatever
    // its rate: it says "fails every time so far", which blocks-thread asks, and no rate, which
    // every other contrast compares, so those leave it out.
    let measured = runs.filter { $0.stop != .everyIterationFailed }
    func counts(_ include: (RunResult) -> Bool) -> Counts { Counts(measured.filter(include)) }
    let global = counts { $0.executor == .global }
    let oneQueue = counts { $0.executor != .global }
    let oneQueueEvenStopped = Counts(runs.filter { $0.executor != .global })
    let fifo = counts { $0.executor == .serial || $0.executor == .fifo }
    let seeded = counts { $0.executor == .seeded }
    // Every iteration of a suite pass or of a fresh process is the process's first run of the
    // test; repetitions after the first are warm. A test that never failed alone failed beside
    // others, not on a first run.
    let firstRuns = counts { $0.test?.layout != .repetitions }
    let warm = counts { $0.test?.layout == .repetitions }
    let failsAlone = counts { $0.test?.layout != .suite }.fails

    // Every one-queue iteration failed while global ones passed, significantly more often:
    // nothing but a blocked thread fails under every order one queue can give. (A test that
    // fails nearly always under global too is broken in some other way.)
    if oneQueueEvenStopped.alwaysFails, oneQueueEvenStopped.failMoreThan(global, confidence: confidence) {
      return .blocksThread
    }
    if isInterference(measured, confidence: confidence) { return .interference }
    if failsAlone, firstRuns.failMoreThan(warm, confidence: confidence) { return .firstRun }
    if seeded.fails, fifo.neverFails, seeded.failMoreThan(fifo, confidence: confidence) { return .fifoDependent }
    // A race fails alone under global too; failures only beside others, with too few runs
    // alone to call them interference, say neither (advice the wrong way is worse).
    let globalAloneFails = counts { $0.executor == .global && $0.test?.layout != .suite }.fails
    if global.fails, globalAloneFails, oneQueue.neverFails, global.failMoreThan(oneQueue, confidence: confidence) {
      return .needsParallelism
    }
    // `timing` is what is left when no contrast explains a failure that comes now and then,
    // under global and on one queue alike; a run `--budget` cut short never gave the contrasts
    // their chance.
    if global.fails, global.passes, oneQueue.fails, oneQueue.passes, !runs.contains(where: { $0.stop == .budgetSpent }) {
      return .timing
    }
    return .undetermined
  }

  /// Failed in suite passes and never alone, compared like with like: under global, or under
  /// one queue, the suite's failures against at least as many iterations alone under the same.
  /// A global rate moves between processes, so a few iterations alone in one process (a
  /// drill-down cut short by `--budget`) cannot by themselves call a race interference.
  private static func isInterference(_ runs: [RunResult], confidence: Double) -> Bool {
    [{ (run: RunResult) in run.executor == .global }, { $0.executor != .global }].contains { sameExecutors in
      let suite = Counts(runs.filter { sameExecutors($0) && $0.test?.layout == .suite })
      let alone = Counts(runs.filter { sameExecutors($0) && $0.test?.layout != .suite })
      return suite.fails && alone.neverFails && alone.ran >= suite.ran
        && suite.failMoreThan(alone, confidence: confidence)
    }
  }
}

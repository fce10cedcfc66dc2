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
  /// Where a test's randomness is drawn, as the runs show it.
  package enum RandomDraw: String, Sendable {
    /// A hash order or a value drawn once in the process: every iteration of a process agrees.
    case perProcess = "per-process"
    /// A value drawn in each iteration: iterations of one process differ.
    case perIteration = "per-iteration"
  }

  /// The contrasts a diagnosis may ask: randomness, blocks-thread or serial-deterministic,
  /// interference (global, one queue), first-run (global, one queue), fifo-dependent,
  /// needs-parallelism.
  static let contrasts = 8

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
      // Against nothing measured there is no contrast.
      guard ran > 0, baseline.ran > 0 else { return false }
      return TwoProportionTest(
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
    let global = counts(\.ranInParallel)
    let oneQueue = counts { !$0.ranInParallel }
    let oneQueueEvenStopped = Counts(runs.filter { !$0.ranInParallel })
    let fifo = counts { $0.executor.jobOrder == .fifo }
    let seeded = counts { $0.executor.jobOrder == .seeded }
    // Every iteration of a suite pass or of a fresh process is a first run; repetitions after
    // the first are warm. A test that never failed alone failed beside others. Like with like:
    // under global, or on one queue (a race's first runs are mostly global, its warm ones on one
    // queue, where it never fails). Warm runs on one queue that always fail say the order
    // decides it (isLoading under load), not a warm-up.
    let failsAlone = counts { $0.test?.layout != .suite }.fails
    let failsMoreOnFirstRuns = !Counts(runs.filter { !$0.ranInParallel && $0.test?.layout == .repetitions }).alwaysFails
      && [true, false].contains { underGlobal in
        let firstRuns = counts { $0.ranInParallel == underGlobal && $0.test?.layout != .repetitions }
        let warm = counts { $0.ranInParallel == underGlobal && $0.test?.layout == .repetitions }
        return firstRuns.failMoreThan(warm, confidence: confidence)
      }

    if randomDraw(runs, confidence: confidence) != nil { return .randomness }
    // The replays agreed process for process, but on too few failures (or passes) to tell the
    // seed from chance: randomness is neither shown nor ruled out, so no other cause is either.
    if replaysAgreeTooThinly(runs, confidence: confidence) { return .undetermined }
    // Every one-queue iteration failed while global ones passed, significantly more often. A
    // blocked thread does that, and so does a test that looks at a state it never awaits, or
    // code that checks, awaits and acts: only a wait tells the first apart, in microseconds
    // the others fail. (A test that fails nearly always under global too is broken otherwise.)
    // Without a wait, FIFO order (serial, fifo) failing every time is what says it.
    let waitedOnOneQueue = runs.contains { !$0.ranInParallel && waited($0) }
    if waitedOnOneQueue, oneQueueEvenStopped.alwaysFails, oneQueueEvenStopped.failMoreThan(global, confidence: confidence) {
      return .blocksThread
    }
    // FIFO order alone need fail every time: seeded interleavings may find an order that passes
    // (a reentrant actor's second call arriving after the first has finished).
    let fifoEvenStopped = Counts(runs.filter { $0.executor.jobOrder == .fifo })
    if !waitedOnOneQueue, fifoEvenStopped.alwaysFails, fifoEvenStopped.failMoreThan(global, confidence: confidence) {
      return .serialDeterministic
    }
    if isInterference(measured, confidence: confidence) { return .interference }
    if failsAlone, failsMoreOnFirstRuns { return .firstRun }
    if seeded.fails, fifo.neverFails, seeded.failMoreThan(fifo, confidence: confidence) { return .fifoDependent }
    // A race fails alone under global too; failures only beside others, with too few runs
    // alone to call them interference, say neither (advice the wrong way is worse).
    let globalAloneFails = counts { $0.ranInParallel && $0.test?.layout != .suite }.fails
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

  /// Whether the test is worth the randomness replays (``DrillDown``): it failed alone, and
  /// under serial, where the replays run, it both failed and passed (some seeds pass it), never
  /// after a wait. A random value or a hash order decides a test alone as beside others, under
  /// every executor, in microseconds; one that fails every time on one queue is decided there.
  package static func mayDependOnRandomness(_ runs: [RunResult]) -> Bool {
    let alone = Counts(runs.filter { $0.test?.layout != .suite })
    let serial = Counts(runs.filter { $0.executor.jobOrder == .fifo })
    return alone.fails && serial.fails && serial.passes && !runs.contains(where: waited)
  }

  /// How the test's randomness decides it, when it does: two runs of fresh processes on one
  /// queue with the same seeds (the same random values and hash order, process by process)
  /// failed in exactly the same processes, some but not all, and so exact an agreement is not
  /// chance. Given k failures in each of n processes, outcomes that the seed does not decide
  /// agree with probability 1 / C(n, k) (every set of k processes alike). A value drawn per
  /// iteration shows as mixed outcomes within one process on one queue; a draw per process
  /// (hash order, a value drawn once) as all or nothing.
  package static func randomDraw(_ runs: [RunResult], confidence: Double) -> RandomDraw? {
    let replays = runs.filter(isRandomnessReplay)
    guard replays.count == 2, replays[0].key == replays[1].key, replays[0].stop == nil, replays[1].stop == nil
    else { return nil }
    let failing = replays.map { run in Set(run.schedule?.failingIterations.map(\.index) ?? []) }
    let (k, n) = (replays[0].tally.notPassed, replays[0].tally.ran)
    guard n > 0, replays[1].tally.ran == n, replays[1].tally.notPassed == k, k > 0, k < n,
      k <= RunSchedule.failingLimit, failing[0] == failing[1], failing[0].count == k
    else { return nil }
    let chance = 1 / binomial(n, k)
    guard chance < (1 - confidence) / Double(contrasts) else { return nil }
    let mixed = runs.contains { run in
      !run.ranInParallel && run.test?.layout == .repetitions && run.replicates.contains { $0.failed > 0 && $0.failed < $0.iterations }
    }
    return mixed ? .perIteration : .perProcess
  }

  /// Whether the two randomness replays failed in exactly the same processes, some but not all,
  /// yet so few (or so many) that chance could have made the agreement, so that
  /// ``randomDraw(_:confidence:)`` shows nothing. A test failing 3 runs in 10 fails 2 or fewer of
  /// 16 processes one time in ten.
  static func replaysAgreeTooThinly(_ runs: [RunResult], confidence: Double) -> Bool {
    let replays = runs.filter(isRandomnessReplay)
    guard replays.count == 2, replays[0].stop == nil, replays[1].stop == nil else { return false }
    let failing = replays.map { Set($0.schedule?.failingIterations.map(\.index) ?? []) }
    let (k, n) = (replays[0].tally.notPassed, replays[0].tally.ran)
    return n > 0 && replays[1].tally.ran == n && replays[1].tally.notPassed == k && k > 0 && k < n
      && failing[0] == failing[1] && randomDraw(runs, confidence: confidence) == nil
  }

  /// Whether `run` is one of the drill-down's randomness replays: fresh processes under serial
  /// that list their failing iterations, which serial runs do nowhere else.
  package static func isRandomnessReplay(_ run: RunResult) -> Bool {
    run.executor.jobOrder == .fifo && run.test?.layout == .fresh && run.schedule != nil
  }

  /// C(n, k), as a double: n is a few dozen at most.
  private static func binomial(_ n: Int, _ k: Int) -> Double {
    (0..<min(k, n - k)).reduce(1.0) { $0 * Double(n - $1) / Double($1 + 1) }
  }

  /// Whether `run`'s failures came of a wait: iterations that timed out, or that failed after
  /// ``PassSupervisor/slowFailure`` each (a test helper's own wait that ran out), however the
  /// run stopped. The harness cannot see a thread block; it sees the time a wait costs.
  static func waited(_ run: RunResult) -> Bool {
    if run.tally.timedOut > 0 || run.stop == .everyIterationTimedOut || run.stop == .everyIterationFailedSlowly {
      return true
    }
    let failed = run.tally.notPassed
    return failed > 0 && (run.testSeconds ?? run.seconds) >= Double(failed) * PassSupervisor.slowFailure.seconds
  }

  /// Failed in suite passes and never alone, compared like with like: under global, or under
  /// one queue, the suite's failures against at least as many iterations alone under the same.
  /// A global rate moves between processes, so a few iterations alone in one process (a
  /// drill-down cut short by `--budget`) cannot by themselves call a race interference.
  private static func isInterference(_ runs: [RunResult], confidence: Double) -> Bool {
    [{ (run: RunResult) in run.ranInParallel }, { !$0.ranInParallel }].contains { sameExecutors in
      let suite = Counts(runs.filter { sameExecutors($0) && $0.test?.layout == .suite })
      let alone = Counts(runs.filter { sameExecutors($0) && $0.test?.layout != .suite })
      return suite.fails && alone.neverFails && alone.ran >= suite.ran
        && suite.failMoreThan(alone, confidence: confidence)
    }
  }
}

import Foundation

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
  /// needs-parallelism, timing, interference (global, one queue), first-run (global, one
  /// queue), fifo-dependent.
  static let contrasts = 9

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
    var rate: Double { ran > 0 ? Double(failed) / Double(ran) : 0 }
    var passes: Bool { failed < ran }
    var neverFails: Bool { ran > 0 && failed == 0 }
    var alwaysFails: Bool { ran > 0 && failed == ran }

    /// Whether these fail significantly more often than `baseline`, each side's variance scaled
    /// by its dispersion, at `confidence` shared among `contrasts` (every contrast a diagnosis
    /// asks; one for the second seed's, which asks one).
    func failMoreThan(_ baseline: Counts, confidence: Double, contrasts: Int = Diagnostician.contrasts) -> Bool {
      // Against nothing measured there is no contrast.
      guard ran > 0, baseline.ran > 0 else { return false }
      return TwoProportionTest(
        baselineFailures: baseline.failed, baselineIterations: baseline.ran, failures: failed, iterations: ran,
        baselineDispersion: baseline.dispersion, dispersion: dispersion
      ).roseSignificantly(confidence: 1 - (1 - confidence) / Double(contrasts))
    }
  }

  /// The test's verdict over `runs`, and for a flaky or failing test its diagnosis.
  package static func judge(
    _ runs: [RunResult], confidence: Double
  ) -> (verdict: TestVerdict, diagnosis: TestDiagnosis?) {
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
    return (.flaky, confirmedCause(runs, confidence: confidence))
  }

  /// The first cause the first seed's runs show that the second seed's do not contradict: a
  /// cause a rate contrast showed stands only if the second seed's arms show it again. Dropped,
  /// the next cause whose own experiment shows it may stand; one that would need a second seed
  /// of its own, which did not run, is not known to, and the answer is `undetermined`.
  private static func confirmedCause(_ runs: [RunResult], confidence: Double) -> TestDiagnosis {
    let second = runs.filter { $0.test?.isConfirmation == true }
    let cause = firstSeedCause(runs, confidence: confidence)
    guard !second.isEmpty, SecondSeed.showsAgain(cause, in: second, confidence: confidence) == false else {
      return cause
    }
    let next = firstSeedCause(runs, excluding: [cause], confidence: confidence)
    // A test the first seed showed failing under load: its neighbours' contrast changes their
    // load with them, so it cannot name shared state (a deadline's test missed in parallel
    // passes, its second seed calm, was called interference).
    if cause == .timing, next == .interference { return .undetermined }
    return SecondSeed.isAsked(for: next) ? .undetermined : next
  }

  /// The cause the first seed's runs show, the second seed's left out, `excluded` not tried.
  private static func firstSeedCause(
    _ runs: [RunResult], excluding excluded: Set<TestDiagnosis> = [], confidence: Double
  ) -> TestDiagnosis {
    diagnose(runs.filter { $0.test?.isConfirmation != true }, excluding: excluded, confidence: confidence)
  }

  /// The cause the first seed's runs showed and the second seed's did not show again, if any: a
  /// cause a rate contrast showed stands only if its arms, run again with another seed, show it
  /// again (``SecondSeed``).
  package static func unconfirmed(_ runs: [RunResult], confidence: Double) -> TestDiagnosis? {
    let second = runs.filter { $0.test?.isConfirmation == true }
    guard !second.isEmpty else { return nil }
    let cause = firstSeedCause(runs, confidence: confidence)
    return SecondSeed.showsAgain(cause, in: second, confidence: confidence) == false ? cause : nil
  }

  /// Each cause is named only by the experiment that changes its factor, and the first whose
  /// experiment shows it wins; a failure none shows is `undetermined`, never the cause left over.
  /// Arms compared are alike in everything but the factor: the stressed arm and the replays
  /// change other factors, so the executor contrasts leave them out.
  private static func diagnose(
    _ runs: [RunResult], excluding excluded: Set<TestDiagnosis> = [], confidence: Double
  ) -> TestDiagnosis {
    // A drill-down arm stopped after its first failures (each a long wait) reads 3 of 3 whatever
    // its rate: it says "fails every time so far", which blocks-thread asks, and no rate, which
    // every other contrast compares, so those leave it out.
    let measured = runs.filter { $0.stop != .everyIterationFailed }
    let plain = measured.filter { ![.stressed, .replay].contains($0.test?.layout) }
    func counts(_ include: (RunResult) -> Bool) -> Counts { Counts(plain.filter(include)) }
    let global = counts(\.ranInParallel)

    func tried(_ cause: TestDiagnosis) -> Bool { !excluded.contains(cause) }
    if tried(.randomness) {
      if randomDraw(runs, confidence: confidence) != nil { return .randomness }
      // The replays agreed, but on too few failures (or passes) to tell the seed from chance:
      // randomness is neither shown nor ruled out, so no other cause is either.
      if replaysAgreeTooThinly(runs, confidence: confidence) { return .undetermined }
    }
    if let order = oneQueueOrder(runs, global: global, confidence: confidence), tried(order) { return order }
    // Threads: fails under global with no neighbour running beside it significantly more than
    // on one queue, and never there (the contrast's sides: ``CauseContrast``).
    if tried(.needsParallelism),
      CauseContrast.shows(.needsParallelism, in: runs, confidence: confidence, contrasts: contrasts) == true
    {
      return .needsParallelism
    }
    // Time: the same warm repetitions with busy threads competing fail significantly more.
    let stressed = Counts(measured.filter { $0.test?.layout == .stressed })
    let calm = counts { $0.ranInParallel && $0.test?.layout == .repetitions }
    if tried(.timing), stressed.failMoreThan(calm, confidence: confidence) { return .timing }
    // First runs before neighbours: each experiment holds the other's factor still (fresh
    // against warm, both alone; suites against fresh, both first runs), but a first run's race
    // under a loaded suite fails more beside busy neighbours than alone, and the first-run
    // experiment is the one that names what to change.
    if tried(.firstRun), isFirstRun(plain, confidence: confidence) { return .firstRun }
    if tried(.interference), isInterference(plain, confidence: confidence) {
      // Neighbours running beside it share its state and load its cores: where only those
      // passes show it and busy threads alone made it fail more, not significantly yet, the load
      // is not ruled out (a deadline missed in parallel passes was called interference).
      let shownWithoutLoad = isInterference(plain.filter { !ranBesideRunningNeighbours($0) }, confidence: confidence)
      let loadUndecided =
        tried(.timing) && CauseContrast.isUndecided(.timing, in: measured, confidence: confidence, contrasts: contrasts)
      return !shownWithoutLoad && loadUndecided ? .undetermined : .interference
    }
    let fifo = counts { $0.executor.jobOrder == .fifo }
    let seeded = counts { $0.executor.jobOrder == .seeded }
    if tried(.fifoDependent), seeded.fails, fifo.neverFails, seeded.failMoreThan(fifo, confidence: confidence) {
      return .fifoDependent
    }
    return .undetermined
  }

  /// Whether `cause`'s own experiment shows it on the first seed's runs, every other cause
  /// aside.
  private static func shows(_ cause: TestDiagnosis, in runs: [RunResult], confidence: Double) -> Bool {
    firstSeedCause(runs, excluding: Set(TestDiagnosis.allCases).subtracting([cause]), confidence: confidence) == cause
  }

  /// What one queue's order shows, if anything: every iteration on one queue failed, with its
  /// thread blocked or after a wait, while global ones passed significantly more often
  /// (blocks-thread); or every iteration in FIFO order failed, over more iterations than the
  /// first ones of two arms, without a wait that ran out, while global ones passed now and then
  /// (serial-deterministic: the order that fails it is the one the serial executor runs). A
  /// short block that global does not contrast is no cause: an actor's check, await and act
  /// fails one queue with a sleep before it or without.
  private static func oneQueueOrder(_ runs: [RunResult], global: Counts, confidence: Double) -> TestDiagnosis? {
    let plain = runs.filter { ![.stressed, .replay].contains($0.test?.layout) }
    let oneQueue = Counts(plain.filter { !$0.ranInParallel })
    // A wait the harness does not see (a spin on a flag, a lock, a wait in C code) shows in the
    // time each failure took: far longer on one queue than an iteration under global.
    let waitedOnOneQueue = plain.contains { !$0.ranInParallel && waited($0) } || unseenWait(runs) != nil
    let blockedOnOneQueue = plain.contains { !$0.ranInParallel && $0.blockedIterations > 0 }
    if waitedOnOneQueue || blockedOnOneQueue, oneQueue.alwaysFails,
      oneQueue.failMoreThan(global, confidence: confidence)
    {
      return .blocksThread
    }
    // FIFO order alone need fail every time: seeded interleavings may find an order that passes
    // (a reentrant actor's second call arriving after the first has finished).
    let fifo = Counts(plain.filter { $0.executor.jobOrder == .fifo })
    let fifoMeasured = Counts(plain.filter { $0.executor.jobOrder == .fifo && $0.stop == nil })
    let enough = fifoMeasured.ran >= 2 * RunSettling.limit + 1
    if !waitedOnOneQueue, fifo.alwaysFails, global.passes,
      enough || fifo.failMoreThan(global, confidence: confidence)
    {
      return .serialDeterministic
    }
    return nil
  }

  /// The seconds the fastest failure of the warm repetitions on one queue took, where every
  /// iteration failed, and a mean iteration under global, when even that fastest failure took
  /// ``unseenWaitRatio`` times global's mean and ``unseenWaitFloor`` or more, with no blocking
  /// call seen: each failure waited for something that never came while it held the queue's
  /// thread. A queue's order of jobs fails a test about as fast as global passes it.
  package static func unseenWait(_ runs: [RunResult]) -> (oneQueue: Double, global: Double)? {
    let warm = runs.filter { $0.test?.layout == .repetitions }
    func times(_ include: (RunResult) -> Bool) -> IterationTimes {
      warm.filter(include).reduce(into: IterationTimes()) { $0.add($1.iterationTimes) }
    }
    let oneQueue = times { !$0.ranInParallel }
    guard Counts(warm.filter { !$0.ranInParallel }).alwaysFails, let fastest = oneQueue.fastestFailure,
      let global = times(\.ranInParallel).mean, fastest >= unseenWaitFloor, fastest >= unseenWaitRatio * global,
      !runs.contains(where: { !$0.ranInParallel && $0.blockedIterations > 0 })
    else { return nil }
    return (fastest, global)
  }

  /// How many times longer than under global a failure on one queue must take to be a wait.
  static let unseenWaitRatio = 10.0
  /// The least a failure on one queue must take to be a wait: below it, a loaded machine's
  /// pauses and the harness's own costs can make the ratio.
  static let unseenWaitFloor = 0.02

  /// First runs alone (fresh processes) fail significantly more than warm repetitions alone,
  /// like with like (under global, or on one queue): suite passes are first runs too, but with
  /// neighbours, a second factor. And the failures are a first run's, not a race's that first
  /// runs make likelier: warm runs never fail, or first runs fail on one queue too, where no race
  /// can. Warm runs on one queue that always fail say the order decides it.
  private static func isFirstRun(_ runs: [RunResult], confidence: Double) -> Bool {
    let warm = runs.filter { $0.test?.layout == .repetitions }
    guard !Counts(warm.filter { !$0.ranInParallel }).alwaysFails else { return false }
    let fresh = runs.filter { $0.test?.layout == .fresh }
    let moreOnFirstRuns = [true, false].contains { underGlobal in
      Counts(fresh.filter { $0.ranInParallel == underGlobal })
        .failMoreThan(Counts(warm.filter { $0.ranInParallel == underGlobal }), confidence: confidence)
    }
    let firstRunsFailOnOneQueue = Counts(fresh.filter { !$0.ranInParallel }).fails
    return moreOnFirstRuns && (Counts(warm).neverFails || firstRunsFailOnOneQueue)
  }

  /// The causes whose contrasts the runs left undecided (an `undetermined` test's, after the
  /// drill-down ran them on as far as its share allowed): the side that should fail more did,
  /// not significantly, its baseline never failing where the cause asks it. On the first seed at
  /// its share of the report's error; the cause the second seed did not show again, at the
  /// report's. More iterations may decide them.
  package static func undecided(_ runs: [RunResult], confidence: Double) -> [TestDiagnosis] {
    let first = runs.filter { $0.test?.isConfirmation != true }
    let second = runs.filter { $0.test?.isConfirmation == true }
    let unconfirmed = unconfirmed(runs, confidence: confidence)
    return CauseContrast.causes.filter { cause in
      cause == unconfirmed
        ? CauseContrast.isUndecided(cause, in: second, confidence: confidence, contrasts: 1)
        : CauseContrast.isUndecided(cause, in: first, confidence: confidence, contrasts: contrasts)
    }
  }

  /// The causes whose experiments ran on `runs` (an `undetermined` test's): each arm it needs
  /// measured something, and the cause was not shown, so that the answer says what is no
  /// longer a suspect. Causes whose experiment did not run are not among them.
  package static func ruledOut(_ runs: [RunResult], confidence: Double) -> [TestDiagnosis] {
    // Arms cut short showed nothing either way; a cause shown once and not again is no more
    // ruled out than shown.
    guard !runs.contains(where: { $0.stop == .interrupted || $0.stop == .budgetSpent }) else { return [] }
    let unconfirmed = unconfirmed(runs, confidence: confidence)
    func ran(_ include: (RunResult) -> Bool) -> Bool { runs.contains { include($0) && $0.tally.ran > 0 } }
    let layout = { (run: RunResult) in run.test?.layout }
    let experiments: [(TestDiagnosis, Bool)] = [
      (.randomness, ran(isRandomnessReplay)),
      (.blocksThread, ran { !$0.ranInParallel }),
      (.serialDeterministic, ran { $0.executor.jobOrder == .fifo }),
      (.needsParallelism, ran(\.ranInParallel) && ran { !$0.ranInParallel }),
      (.timing, ran { layout($0) == .stressed } && ran { layout($0) == .repetitions && $0.ranInParallel }),
      (.interference, ran { layout($0)?.isSuitePass == true } && ran { [.repetitions, .fresh].contains(layout($0)) }),
      (.firstRun, ran { layout($0) == .fresh } && ran { layout($0) == .repetitions }),
      (.fifoDependent, ran { $0.executor.jobOrder == .seeded } && ran { $0.executor.jobOrder == .fifo }),
    ]
    // Shown by its own experiment but not the answer (a cause tried before it won, or a second
    // seed was not asked for it): not ruled out.
    // Undecided is not ruled out either: more iterations may show it.
    let undecided = undecided(runs, confidence: confidence)
    return experiments.filter {
      $0.1 && $0.0 != unconfirmed && !undecided.contains($0.0) && !shows($0.0, in: runs, confidence: confidence)
    }.map(\.0)
  }

  /// Whether the test is worth the randomness replays (``DrillDownPlan``): it failed alone, and
  /// under serial, where the replays run, it both failed and passed (some seeds pass it), never
  /// after a wait. A random value or a hash order decides a test alone as beside others, under
  /// every executor, in microseconds; one that fails every time on one queue is decided there.
  package static func mayDependOnRandomness(_ runs: [RunResult]) -> Bool {
    let alone = Counts(runs.filter { $0.test?.layout.isSuitePass == false })
    let serial = Counts(runs.filter { $0.executor.jobOrder == .fifo })
    return alone.fails && serial.fails && serial.passes && !runs.contains { waited($0) || $0.blockedIterations > 0 }
  }

  /// The randomness experiment's two halves: the fresh processes on one queue whose failing
  /// iterations are listed (the seeds), and the replays of some of those seeds, each merged,
  /// with the failing indices each half's runs listed. Each run's own list, joined: a merged
  /// run keeps only the lowest ``RunSchedule/failingLimit``, and the replays replayed every
  /// seed each run listed.
  private static func seedsAndReplay(
    _ runs: [RunResult]
  ) -> (seeds: RunResult, failing: Set<Int>, replay: RunResult, failedAgain: Set<Int>)? {
    func merged(_ chosen: [RunResult]) -> (run: RunResult, failing: Set<Int>)? {
      guard var first = chosen.first, chosen.allSatisfy({ $0.stop == nil }) else { return nil }
      chosen.dropFirst().forEach { first.add($0) }
      return (first, Set(chosen.flatMap { $0.schedule?.failingIterations.map(\.index) ?? [] }))
    }
    guard let seeds = merged(runs.filter(isSeedSource)), let replay = merged(runs.filter(isRandomnessReplay)),
      !seeds.failing.isEmpty
    else { return nil }
    return (seeds.run, seeds.failing, replay.run, replay.failing)
  }

  /// How the test's randomness decides it, when it does: the failing iterations' seeds, replayed
  /// in fresh processes on one queue (the same random values and hash order), all failed again,
  /// and as many passing ones all passed. Outcomes the seed does not decide, failing at rate p,
  /// agree so with probability p^f (1 − p)^s for f failing and s passing seeds replayed: below
  /// the report's error shared among the contrasts, the seed decides. A value drawn per
  /// iteration shows as mixed outcomes within one process on one queue; a draw per process
  /// (hash order, a value drawn once) as all or nothing.
  package static func randomDraw(_ runs: [RunResult], confidence: Double) -> RandomDraw? {
    guard let chance = replayAgreement(runs), chance < (1 - confidence) / Double(contrasts) else { return nil }
    let mixed = runs.contains { run in
      !run.ranInParallel && run.test?.layout == .repetitions
        && run.replicates.contains { $0.failed > 0 && $0.failed < $0.iterations }
    }
    return mixed ? .perIteration : .perProcess
  }

  /// Whether the replay agreed with the seeds' outcomes, failing seeds failing and passing ones
  /// passing, yet with so few seeds that chance could have made the agreement, so that
  /// ``randomDraw(_:confidence:)`` shows nothing. A test failing one run in six fails 2 of 20
  /// processes about one time in four, and chance agrees on two of each one time in fifty.
  static func replaysAgreeTooThinly(_ runs: [RunResult], confidence: Double) -> Bool {
    guard let chance = replayAgreement(runs) else { return false }
    return chance >= (1 - confidence) / Double(contrasts)
  }

  /// The probability that chance alone made the replay agree, or nil if it did not agree.
  static func replayAgreement(_ runs: [RunResult]) -> Double? {
    guard let (seeds, failing, replay, failedAgain) = seedsAndReplay(runs) else { return nil }
    let passingReplayed = replay.tally.ran - failing.count
    guard failedAgain == failing, replay.tally.notPassed == failing.count, passingReplayed > 0,
      seeds.tally.ran > seeds.tally.notPassed
    else { return nil }
    let rate = Double(seeds.tally.notPassed) / Double(seeds.tally.ran)
    return pow(rate, Double(failing.count)) * pow(1 - rate, Double(passingReplayed))
  }

  /// The seeds of the randomness experiment: fresh processes on one queue that list their failing
  /// iterations.
  package static func isSeedSource(_ run: RunResult) -> Bool {
    run.executor.jobOrder == .fifo && run.test?.layout == .fresh && run.schedule != nil
  }

  /// Whether `run` replays chosen seeds (``TestReference/ProcessLayout/replay``).
  package static func isRandomnessReplay(_ run: RunResult) -> Bool {
    run.test?.layout == .replay
  }
  /// Whether `run`'s failures came of a wait: iterations that timed out, or that failed after
  /// ``PassSupervisor/slowFailure`` each (a test helper's own wait that ran out), however the
  /// run stopped. The time is read only where it is the test's own: a suite pass that runs its
  /// tests one at a time times each from its start to its end. In a parallel pass that span
  /// holds the time the test waited for a thread behind the others, and a run alone counts its
  /// processes' time, ends and all: ten processes that end slowly would read as the waits of a
  /// few fast failures. Alone, the harness sees blocks itself (``RunResult/blockedIterations``).
  static func waited(_ run: RunResult) -> Bool {
    if run.tally.timedOut > 0 || run.stop == .everyIterationTimedOut || run.stop == .everyIterationFailedSlowly {
      return true
    }
    if let test = run.test {
      guard test.layout.isSuitePass, !ranBesideRunningNeighbours(run) else { return false }
    }
    let failed = run.tally.notPassed
    return failed > 0 && (run.testSeconds ?? run.seconds) >= Double(failed) * PassSupervisor.slowFailure.seconds
  }

  /// Whether `run` is a suite pass whose neighbours ran at the same time as its test, on the
  /// cores it ran on: Swift Testing's under global. XCTest runs one test at a time.
  private static func ranBesideRunningNeighbours(_ run: RunResult) -> Bool {
    run.test?.layout == .suite && run.ranInParallel && run.test?.test.framework == .swiftTesting
  }

  /// Failed in suite passes significantly more than alone, under global or on one queue alike,
  /// both in fresh processes and in warm repetitions: against fresh processes, both first runs,
  /// the neighbours and the process's warm-up they bring differ; against warm repetitions, the
  /// neighbours and the test's own first run. Only the neighbours differ in both. Against fresh
  /// processes alone, a race that fails more once a process's threads exist read as
  /// interference (FlakeKinds' XCTest handlers: warm alone failing as often as the passes), and
  /// against repetitions alone a first-run test would. At least as many fresh processes as
  /// passes: a global rate moves between processes, and a few alone (a drill-down cut short by
  /// `--budget`) cannot by themselves call a race interference.
  private static func isInterference(_ runs: [RunResult], confidence: Double) -> Bool {
    [true, false].contains { underGlobal in
      let alone = Counts(runs.filter { $0.ranInParallel == underGlobal && $0.test?.layout == .fresh })
      let warm = Counts(runs.filter { $0.ranInParallel == underGlobal && $0.test?.layout == .repetitions })
      return [TestReference.ProcessLayout.suite, .oneAtATime].contains { layout in
        let passes = Counts(runs.filter { $0.ranInParallel == underGlobal && $0.test?.layout == layout })
        return passes.fails && alone.ran >= passes.ran && passes.failMoreThan(alone, confidence: confidence)
          && passes.failMoreThan(warm, confidence: confidence)
      }
    }
  }
}

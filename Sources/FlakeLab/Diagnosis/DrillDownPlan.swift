/// The drill-down's decisions, apart from the processes that carry them out: which arms run how
/// far, when an arm is settled, which contrasts run on while undecided, which seeds are replayed,
/// what the second seed runs, and whose polluters are sought. It is fed what each launch came to
/// and says what to launch next, so every decision is tested without a process, as
/// ``SuitePassMachine``'s are; ``DrillDown`` runs it.
///
/// The stages, in order:
/// 1. Each arm's first ``RunSettling/limit`` iterations, and the rest of those they do not
///    settle. A test that timed out in every pass of the screen first runs its lead arm alone
///    (fresh processes under global: the screen's passes without their neighbours); timed out
///    there too, it hangs, and its other arms, which would each cost three timeouts to say so
///    again, do not run (``RunStop/hangsAlone``).
/// 2. For a test the arms leave `undetermined`, the arms of each contrast still undecided
///    (``CauseContrast/isUndecided(_:in:confidence:contrasts:)``) run on in rounds, each
///    doubling what the arm has run, until the contrast is decided, the arm has run
///    ``undecidedCap`` times its iterations, or the test has spent its share of the budget: a
///    race failing 3 of 80 under global is no contrast yet; 9 of 240 is.
/// 3. The randomness replays: the seeds that failed a test on one queue, and as many that passed,
///    a process each; where they agree too thinly, as many fresh processes again, replayed too.
/// 4. The second seed (``SecondSeed``), sized from the first seed's rates, in stages while
///    undecided.
/// 5. The polluter search's victims (``PolluterSearch``).
///
/// A later stage is more evidence, never a start the budget cuts: stages 2 and 4 go on only in
/// time. An interrupt ends the plan with what has run.
package struct DrillDownPlan {
  /// One run to start: a test under an arm's executor, in a layout, these iterations, with the
  /// first seed or the second.
  package struct Launch {
    package let test: PackageTest
    package let arm: DrillDown.Arm
    package let layout: TestReference.ProcessLayout
    package let indices: Range<Int>
    package let isSecondSeed: Bool
    package let replicates: Int
    /// Whether its failing iterations are listed with their seeds, for a replay.
    package let isScheduled: Bool
  }

  /// What to do next.
  package enum Action {
    /// Start these runs together, and report what each came to, in order.
    case launch([Launch])
    /// Seek these tests' polluters; the plan is then done.
    case searchPolluters([PolluterSearch.Victim])
  }

  private enum Stage {
    case leading([PackageTest])
    case settling
    /// The arms at `open` run on: stage 1's rest, or a round of stage 2.
    case runningOn(open: [Int])
    case replays(plans: [(test: PackageTest, indices: [Int])], grown: Bool)
    case moreSeeds
    case secondSeed(stage: Int, open: [Int])
    case done
  }

  /// The most an arm runs in stages 1 and 2, in times its own iterations: three rounds of stage
  /// 2 at most, each doubling the arm.
  static let undecidedCap = 8

  let arms: [DrillDown.Arm]
  private let tests: [PackageTest]
  private let failingEverywhere: Set<PackageTest>
  /// The tests that timed out in every pass of the screen: their lead arm runs first.
  private let hanging: Set<PackageTest>
  /// The arm a hanging test runs first: fresh processes under global, else the first.
  private let leadArm: DrillDown.Arm?
  /// The lead arm's first iterations, for each hanging test.
  private var leadRuns: [PackageTest: RunResult] = [:]
  private let screen: [RunResult]
  private let suite: [PackageTest]
  private let measurement: RateMeasurement
  /// The seconds of workers' time each test may spend in stage 2 (its share of the budget's
  /// diagnosis); nil without a budget.
  private let share: Double?
  /// Every test with every arm, in order: the runs of stages 1 and 2.
  private let pairs: [(test: PackageTest, arm: DrillDown.Arm)]
  private var stage = Stage.settling
  /// Each pair's run so far, and the iterations planned for it.
  private var armRuns: [RunResult] = []
  private var planned: [Int]
  /// The replays and the fresh processes that gave them more seeds.
  private var replayRuns: [RunResult] = []
  /// The tests given more seeds, and the iterations that gave them.
  private var moreSeedRanges: [(test: PackageTest, range: Range<Int>)] = []
  /// The second seed's questions, and each one's runs so far.
  private var asked: [(test: PackageTest, cause: TestDiagnosis, arms: [DrillDown.Arm], ends: [Int])] = []
  private var secondSeedRuns: [[RunResult]] = []
  /// Set when an interrupt cut the plan short.
  package private(set) var interrupted = false

  /// - Parameter failingEverywhere: the tests that failed in every iteration of the screen: for
  ///   those, three failures alone settle an arm however fast, while none of their arms has
  ///   passed (a broken test has no rate to contrast).
  /// - Parameter screen: the screen's runs, which with the arms' decide the replays, the second
  ///   seed and the polluter searches; `suite`, the tests it ran, in order.
  package init(
    arms: [DrillDown.Arm], tests: [PackageTest], failingEverywhere: Set<PackageTest> = [], screen: [RunResult] = [],
    suite: [PackageTest] = [], measurement: RateMeasurement, share: Double? = nil
  ) {
    self.arms = arms
    self.share = share
    self.tests = tests
    self.failingEverywhere = failingEverywhere
    self.screen = screen
    self.suite = suite
    self.measurement = measurement
    pairs = tests.flatMap { test in arms.map { (test: test, arm: $0) } }
    planned = pairs.map(\.arm.iterations)
    hanging = failingEverywhere.filter { test in
      let runs = screen.filter { $0.test?.test == test }
      return !runs.isEmpty && runs.allSatisfy { $0.tally.ran > 0 && $0.tally.timedOut == $0.tally.ran }
    }
    leadArm = arms.first { $0.layout == .fresh && $0.order == .parallel } ?? arms.first
  }

  /// Every run the plan made, stage by stage: the arms' (one per test and arm, in order), the
  /// replays, the second seed's.
  package var results: [RunResult] { armRuns + replayRuns + secondSeedRuns.flatMap { $0 } }

  /// The first launches: the hanging tests' lead arms, else each arm's first iterations.
  package mutating func start() -> Action {
    let leading = tests.filter(hanging.contains)
    guard !leading.isEmpty, let arm = leadArm else { return firstIterations() }
    stage = .leading(leading)
    return .launch(leading.map { launch($0, arm, 0..<min(RunSettling.limit, arm.iterations), replicates: 1) })
  }

  /// Each arm's first iterations, but those the lead arm ran, and none for a test that hung alone.
  private mutating func firstIterations() -> Action {
    stage = .settling
    return .launch(
      pairs.map { test, arm in
        let skipped = leadRuns[test].map { isLead(arm) || hungAlone($0) } ?? false
        return launch(test, arm, 0..<(skipped ? 0 : min(RunSettling.limit, arm.iterations)), replicates: 1)
      })
  }

  private func isLead(_ arm: DrillDown.Arm) -> Bool {
    arm.layout == leadArm?.layout && arm.executor.id == leadArm?.executor.id
  }

  /// Whether a hanging test's lead run timed out in each of its first iterations (all of them,
  /// for an arm of fewer).
  private func hungAlone(_ lead: RunResult) -> Bool {
    let tally = lead.tally
    return tally.iterations >= min(RunSettling.limit, leadArm?.iterations ?? 0) && tally.timedOut == tally.iterations
  }

  /// The last launches came to `runs`, in order; `interrupted` when Ctrl-C cut them, `inTime`
  /// while the budget's deadline has not passed. Nil when the plan is done.
  package mutating func ran(_ runs: [RunResult], interrupted: Bool, inTime: Bool) -> Action? {
    switch stage {
    case .leading(let leading):
      return leadRan(leading, runs, interrupted: interrupted)
    case .settling:
      return firstIterationsRan(runs, interrupted: interrupted, inTime: inTime)
    case .runningOn(let open):
      for (index, run) in zip(open, runs) { armRuns[index].add(run) }
      guard !interrupted else { return cut(open) }
      return undecided(inTime: inTime)
    case .replays(let plans, let grown):
      replayRuns += merged(runs, plans)
      guard !interrupted else { return end() }
      return grown ? secondSeed(inTime: inTime) : moreSeeds(inTime: inTime)
    case .moreSeeds:
      replayRuns += runs
      guard !interrupted else { return end() }
      let grown = zip(runs, moreSeedRanges).filter { Self.isReplayable($0.0) }
      return grown.isEmpty
        ? secondSeed(inTime: inTime)
        : replays(grown.map { ($0.0, $0.1.test, $0.1.range) }, grown: true, inTime: inTime)
    case .secondSeed(let index, let open):
      var rest = runs[...]
      for question in open {
        let count = asked[question].arms.count
        let more = rest.prefix(count)
        rest = rest.dropFirst(count)
        secondSeedRuns[question] =
          secondSeedRuns[question].isEmpty ? Array(more) : zip(secondSeedRuns[question], more).map { $0.adding($1) }
      }
      guard !interrupted else { return end() }
      return secondSeed(stage: index + 1, inTime: inTime)
    case .done:
      return nil
    }
  }

  // MARK: Stage 1: settling

  /// The hanging tests' lead arms came to `runs`: a lead that hung alone is settled there;
  /// whatever else it came to, every arm's first iterations decide after it (a test that passed
  /// alone somewhere has rates).
  private mutating func leadRan(_ leading: [PackageTest], _ runs: [RunResult], interrupted: Bool) -> Action? {
    guard let lead = leadArm else { return end() }
    for (test, var run) in zip(leading, runs) {
      let hung = hungAlone(run)
      if hung || interrupted {
        run.notRun = lead.iterations - run.tally.iterations
        run.stop = run.stop ?? (hung ? .everyIterationTimedOut : .interrupted)
      }
      leadRuns[test] = run
    }
    guard !interrupted else {
      armRuns = leading.compactMap { leadRuns[$0] }
      return end()
    }
    return firstIterations()
  }

  /// Each arm's first iterations came to `runs` (a hanging test's lead arm, its lead run; its
  /// other arms, none when it hung alone): those they settle stop, the rest run on.
  private mutating func firstIterationsRan(_ runs: [RunResult], interrupted: Bool, inTime: Bool) -> Action? {
    armRuns = zip(pairs, runs).map { pair, run in
      guard let lead = leadRuns[pair.test] else { return run }
      if isLead(pair.arm) { return lead }
      guard hungAlone(lead) else { return run }
      var skipped = run
      skipped.notRun = pair.arm.iterations
      skipped.stop = .hangsAlone
      return skipped
    }
    guard !interrupted else {
      for index in pairs.indices {
        armRuns[index].notRun = planned[index] - armRuns[index].tally.iterations
        armRuns[index].stop = armRuns[index].stop ?? .interrupted
      }
      return end()
    }
    return settled(inTime: inTime)
  }

  /// After each arm's first iterations: the rest of those they did not settle. A test that
  /// failed every pass of the screen yet passed alone somewhere is not broken: it has rates to
  /// contrast (a load that slows the pool fails isLoading under global nearly as often as on one
  /// queue), and its arms run whole.
  private mutating func settled(inTime: Bool) -> Action? {
    let passedAlone = Set(pairs.indices.filter { armRuns[$0].tally.passed > 0 }.map { pairs[$0].test })
    let open = pairs.indices.filter { index in
      let test = pairs[index].test
      let isSettled = Self.settle(
        &armRuns[index], arm: pairs[index].arm,
        failsEverywhere: failingEverywhere.contains(test) && !passedAlone.contains(test))
      return !isSettled && pairs[index].arm.iterations > RunSettling.limit
    }
    guard !open.isEmpty else { return undecided(inTime: inTime) }
    stage = .runningOn(open: open)
    return .launch(
      open.map { index in
        let (test, arm) = pairs[index]
        return launch(test, arm, RunSettling.limit..<arm.iterations, replicates: replicates(arm))
      })
  }

  /// Whether an arm's first iterations settle it, marked so in `result` when they do: all
  /// failed, each by a wait or a block of the queue's thread, or in a test that failed every
  /// pass of the screen and has not passed alone (`failsEverywhere`); or the run stopped.
  static func settle(_ result: inout RunResult, arm: DrillDown.Arm, failsEverywhere: Bool) -> Bool {
    let tally = result.tally
    var evidence = RunSettling.Evidence(tally)
    // The test's own time (its processes once ready, without the start-up a loaded machine
    // stretches), over its iterations, says a wait.
    let seconds = result.testSeconds ?? result.seconds
    let waitedEachTime = seconds >= Double(tally.ran) * PassSupervisor.slowFailure.seconds
    // Each failure with the queue's thread blocked is blocks-thread's answer, as a long wait
    // is, in FIFO order. Seeded orders run on: a test that blocks fails in every order, one
    // whose order decides it (an actor's check, a sleep, then its act) passes in some.
    let blockedEachTime =
      tally.ran > 0 && result.blockedIterations == tally.ran
      && arm.executor.harnessMechanism?.jobOrder != .seeded
    evidence.failureSettles = waitedEachTime || blockedEachTime || failsEverywhere
    let settled = result.stop != nil || RunSettling.stop(evidence) == .everyIterationFailed
    if settled {
      result.stop = result.stop ?? .everyIterationFailed
      result.notRun = arm.iterations - tally.iterations
    }
    return settled
  }

  // MARK: Stage 2: contrasts still undecided

  /// A round of the undecided contrasts: for each test the first seed leaves `undetermined`,
  /// the arms (not settled) of every contrast its runs so far leave undecided run on, each to
  /// twice what it has run, within ``undecidedCap`` times its iterations and the test's share.
  /// Then the replays.
  private mutating func undecided(inTime: Bool) -> Action? {
    guard inTime else { return replays(inTime: inTime) }
    let ends = tests.flatMap { test in
      let open = undecidedArms(of: test)
      let left = share.map { $0 - spent(by: test) } ?? .infinity
      return open.compactMap { index -> (index: Int, end: Int)? in
        let arm = pairs[index].arm
        let run = armRuns[index]
        let perIteration = run.tally.iterations > 0 ? run.seconds / Double(run.tally.iterations) : 0
        let most = min(2 * planned[index], Self.undecidedCap * arm.iterations) - planned[index]
        let affordable = perIteration > 0 ? left / Double(open.count) / perIteration : .infinity
        let more = Int(max(0, min(Double(most), affordable)))
        return more >= RunSettling.limit ? (index, planned[index] + more) : nil
      }
    }
    guard !ends.isEmpty else { return replays(inTime: inTime) }
    stage = .runningOn(open: ends.map(\.index))
    return .launch(
      ends.map { index, end in
        let (test, arm) = pairs[index]
        defer { planned[index] = end }
        return launch(test, arm, planned[index]..<end, replicates: replicates(arm))
      })
  }

  /// The arms of `test` that a round of stage 2 runs: those not settled, of every contrast its
  /// first seed's runs (the screen's and the arms') leave undecided, when they leave it
  /// `undetermined`.
  private func undecidedArms(of test: PackageTest) -> [Int] {
    let runs = firstSeed(of: test)
    let judged = Diagnostician.judge(runs, confidence: measurement.confidence)
    guard judged.verdict == .flaky, judged.diagnosis == .undetermined else { return [] }
    let wanted = CauseContrast.causes.filter {
      CauseContrast.isUndecided($0, in: runs, confidence: measurement.confidence, contrasts: Diagnostician.contrasts)
    }.flatMap { CauseContrast.arms(for: $0) ?? [] }
    return pairs.indices.filter { index in
      pairs[index].test == test && armRuns[index].stop == nil
        && wanted.contains { $0.order == pairs[index].arm.order && $0.layout == pairs[index].arm.layout }
    }
  }

  /// The seconds of workers' time `test`'s arms have spent.
  private func spent(by test: PackageTest) -> Double {
    pairs.indices.filter { pairs[$0].test == test }.reduce(0) { $0 + armRuns[$1].seconds }
  }

  // MARK: Stage 3: randomness replays

  /// The randomness replays: for each test that may depend on randomness, its fresh processes
  /// on one queue that failed, and as many that passed, run again with the same seeds.
  private mutating func replays(inTime: Bool) -> Action? {
    let all = screen + armRuns
    let seeds = tests.filter { test in Diagnostician.mayDependOnRandomness(all.filter { $0.test?.test == test }) }
      .compactMap { test in
        pairs.indices.first { pairs[$0].test == test && pairs[$0].arm.listsFailingSeeds }
          .map { (run: armRuns[$0], test: test, range: 0..<planned[$0]) }
      }
      .filter { Self.isReplayable($0.run) }
    return replays(seeds, grown: false, inTime: inTime)
  }

  /// One replay of each of `seeds`' failing iterations and as many passing ones of its
  /// `range`, a process each with the same seed; `grown` for the seeds of the fresh processes
  /// that stage 3 added.
  private mutating func replays(
    _ seeds: [(run: RunResult, test: PackageTest, range: Range<Int>)], grown: Bool, inTime: Bool
  ) -> Action? {
    guard let arm = seedArm, !seeds.isEmpty else { return secondSeed(inTime: inTime) }
    let plans = seeds.map { run, test, range -> (test: PackageTest, indices: [Int]) in
      let failing = (run.schedule?.failingIterations ?? []).map(\.index)
      let passing = (run.schedule?.indicesWithoutFailure(in: range) ?? []).prefix(failing.count)
      return (test, (failing + passing).sorted())
    }
    stage = .replays(plans: plans, grown: grown)
    return .launch(
      plans.flatMap { plan in
        plan.indices.map { index in
          Launch(
            test: plan.test, arm: arm, layout: .replay, indices: index..<(index + 1), isSecondSeed: false,
            replicates: 1, isScheduled: true)
        }
      })
  }

  /// Where the replays agree on too few seeds to tell the seed from chance
  /// (``Diagnostician/replaysAgreeTooThinly(_:confidence:)``), as many fresh processes again.
  private mutating func moreSeeds(inTime: Bool) -> Action? {
    guard let arm = seedArm else { return secondSeed(inTime: inTime) }
    let thin = tests.filter { test in
      let runs = (screen + armRuns + replayRuns).filter { $0.test?.test == test }
      return runs.contains(where: Diagnostician.isRandomnessReplay)
        && Diagnostician.replaysAgreeTooThinly(runs, confidence: measurement.confidence)
    }
    guard !thin.isEmpty else { return secondSeed(inTime: inTime) }
    stage = .moreSeeds
    // After the iterations the seed arm ran, so that no seed comes twice.
    moreSeedRanges = thin.map { test in
      let start =
        pairs.indices.first { pairs[$0].test == test && pairs[$0].arm.listsFailingSeeds }.map { planned[$0] }
        ?? arm.iterations
      return (test, start..<(start + arm.iterations))
    }
    return .launch(
      moreSeedRanges.map { test, range in
        Launch(
          test: test, arm: arm, layout: .fresh, indices: range, isSecondSeed: false,
          replicates: measurement.replicates(independent: true), isScheduled: true)
      })
  }

  /// The arm whose fresh processes on one queue list their failing seeds.
  private var seedArm: DrillDown.Arm? { arms.first(where: \.listsFailingSeeds) }

  /// Whether `seeds` (fresh processes on one queue) ran whole, and listed failing seeds and
  /// had passing ones.
  static func isReplayable(_ seeds: RunResult) -> Bool {
    seeds.stop == nil && seeds.schedule?.failingIterations.isEmpty == false && seeds.tally.passed > 0
  }

  /// `runs`, a process an iteration, merged into one run per plan.
  private func merged(_ runs: [RunResult], _ plans: [(test: PackageTest, indices: [Int])]) -> [RunResult] {
    var rest = runs[...]
    return plans.compactMap { plan in
      let mine = rest.prefix(plan.indices.count)
      rest = rest.dropFirst(plan.indices.count)
      return mine.dropFirst().reduce(mine.first) { $0?.adding($1) }
    }
  }

  // MARK: Stage 4: the second seed

  /// The second seed's first stage: for each test whose first runs show a cause that a contrast
  /// of rates showed, the arms of that contrast with another seed, each as far as
  /// ``SecondSeed/stageEnds(for:firstSeed:iterations:confidence:)`` says.
  private mutating func secondSeed(inTime: Bool) -> Action? {
    let all = screen + armRuns + replayRuns
    asked = tests.compactMap { test in
      let runs = all.filter { $0.test?.test == test }.map { Report.estimated($0, at: measurement.confidence) }
      guard let cause = Diagnostician.judge(runs, confidence: measurement.confidence).diagnosis,
        let wanted = CauseContrast.arms(for: cause)
      else { return nil }
      let chosen = wanted.compactMap { order, layout in arms.first { $0.order == order && $0.layout == layout } }
      // The arm of fewest iterations (fresh processes, a process each) sets the share.
      guard let fewest = chosen.map(\.iterations).min() else { return nil }
      let ends = SecondSeed.stageEnds(
        for: cause, firstSeed: runs.filter { $0.test?.layout.isSuitePass == false }, iterations: fewest,
        confidence: measurement.confidence)
      return (test, cause, chosen, ends)
    }
    secondSeedRuns = asked.map { _ in [] }
    return secondSeed(stage: 0, inTime: inTime)
  }

  /// Stage `index` of the second seed, for the questions still undecided.
  private mutating func secondSeed(stage index: Int, inTime: Bool) -> Action? {
    let open = asked.indices.filter { question in
      index < asked[question].ends.count
        && (index == 0
          || SecondSeed.isUndecided(
            asked[question].cause,
            in: secondSeedRuns[question].map { Report.estimated($0, at: measurement.confidence) },
            confidence: measurement.confidence))
    }
    guard !open.isEmpty, index == 0 || inTime else { return searchPolluters() }
    stage = .secondSeed(stage: index, open: open)
    return .launch(
      open.flatMap { question in
        let (test, _, arms, ends) = asked[question]
        let start = index == 0 ? 0 : ends[index - 1]
        return arms.map { arm in
          Launch(
            test: test, arm: arm, layout: arm.layout, indices: start..<ends[index], isSecondSeed: true,
            replicates: replicates(arm), isScheduled: false)
        }
      })
  }

  // MARK: Stage 5: polluters

  /// The `interference` victims among the tests, each with the suite passes that failed it most
  /// under an executor whose runs alone never did, and its framework's other tests there.
  private mutating func searchPolluters() -> Action {
    stage = .done
    let runs = (screen + results).map { Report.estimated($0, at: measurement.confidence) }
    return .searchPolluters(tests.compactMap { victim($0, runs: runs) })
  }

  private func victim(_ test: PackageTest, runs all: [RunResult]) -> PolluterSearch.Victim? {
    let runs = all.filter { $0.test?.test == test }
    guard Diagnostician.judge(runs, confidence: measurement.confidence).diagnosis == .interference else { return nil }
    func alone(like executor: ExecutorID) -> (failed: Int, ran: Int) {
      runs.filter { run in
        [.repetitions, .fresh].contains(run.test?.layout) && run.ranInParallel == (executor.jobOrder == .parallel)
      }
      .reduce((0, 0)) { ($0.0 + $1.tally.notPassed, $0.1 + $1.tally.ran) }
    }
    let failing = runs.filter { $0.test?.layout == .suite && $0.tally.notPassed > 0 }
    guard
      let worst = failing.max(by: { $0.estimate.rate < $1.estimate.rate }),
      let executor = arms.first(where: { $0.executor.id == worst.executor })?.executor
    else { return nil }
    // Tests settled out of those passes (a hang, a long wait) ran in few of them.
    let settled = Set(
      all.filter { $0.test?.layout == .suite && $0.executor == worst.executor && $0.stop != nil }
        .compactMap { $0.test?.test })
    return PolluterSearch.Victim(
      test: test, executor: executor, suite: (worst.tally.notPassed, worst.tally.ran),
      alone: alone(like: worst.executor),
      neighbours: suite.filter { $0 != test && $0.framework == test.framework && !settled.contains($0) })
  }

  // MARK: Parts

  /// The runs of `test` alone with the first seed so far, and the screen's.
  private func firstSeed(of test: PackageTest) -> [RunResult] {
    (screen + armRuns).filter { $0.test?.test == test }.map { Report.estimated($0, at: measurement.confidence) }
  }

  private func launch(_ test: PackageTest, _ arm: DrillDown.Arm, _ indices: Range<Int>, replicates: Int) -> Launch {
    Launch(
      test: test, arm: arm, layout: arm.layout, indices: indices, isSecondSeed: false, replicates: replicates,
      isScheduled: arm.listsFailingSeeds)
  }

  private func replicates(_ arm: DrillDown.Arm) -> Int {
    measurement.replicates(independent: arm.executor.iterationsAreIndependent)
  }

  /// An interrupt after stage 1: the iterations of `cut` that neither ran nor were counted out
  /// are marked so.
  private mutating func cut(_ cut: [Int]) -> Action? {
    for index in cut where armRuns[index].stop == nil {
      armRuns[index].notRun = planned[index] - armRuns[index].tally.iterations
      armRuns[index].stop = armRuns[index].notRun > 0 ? .interrupted : nil
    }
    return end()
  }

  private mutating func end() -> Action? {
    interrupted = true
    stage = .done
    return nil
  }
}

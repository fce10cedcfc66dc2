/// The drill-down's decisions, apart from the processes that carry them out: which arms run how
/// far, when an arm is settled, which contrasts run on while undecided, which seeds are replayed,
/// what the second seed runs, and whose polluters are sought. It is fed what each run it asked for came to
/// and says what to launch next, so every decision is tested without a process, as
/// ``SuitePassMachine``'s are; ``SuiteDiagnosis`` runs it.
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
/// 4. The second seed (``SecondSeed``), sized from the first seed's rates, in looks while
///    undecided.
/// 5. The polluter search (``PolluterSearch``), its victims' suite passes one at a time.
///
/// A later stage is more evidence, never a start the budget cuts: stages 2, 4 and 5 go on only
/// in time. An interrupt ends the plan with what has run.
package struct DrillDownPlan {
  /// One run to start: a test under an arm's executor, in a layout, these iterations, with the
  /// first seed or the second; `purpose` says where its result goes.
  package struct Request {
    package let test: PackageTest
    package let arm: DiagnosisArm
    package let layout: TestReference.ProcessLayout
    package let indices: Range<Int>
    package let isSecondSeed: Bool
    package let replicates: Int
    /// Whether its failing iterations are listed with their seeds, for a replay.
    package let isScheduled: Bool
    package let purpose: Purpose
  }

  /// What a request's result is evidence of.
  package enum Purpose: Equatable {
    /// A hanging test's lead arm, run before the others.
    case lead
    /// Pair `pair`'s run of stage 1 or 2 (``pairs``).
    case arm(pair: Int)
    /// One seed of replay `replay`, a process of its own.
    case replay(Int)
    /// Fresh processes that give test `thin` of the replays more seeds.
    case moreSeeds(thin: Int)
    /// The second seed's run of question `question` under its arm `arm`.
    case secondSeed(question: Int, arm: Int)
  }

  /// A request and what it came to.
  package struct Finished {
    package let request: Request
    package let result: RunResult

    package init(_ request: Request, _ result: RunResult) {
      self.request = request
      self.result = result
    }
  }

  /// What to do next.
  package enum Action {
    /// Start these runs together, and report what each came to.
    case launch([Request])
    /// Run this suite pass of the polluter search, and report what its victim came to.
    case pass(PolluterSearch.Pass)
  }

  /// A test under an arm: the runs of stages 1 and 2.
  private struct Pair {
    let test: PackageTest
    let arm: DiagnosisArm
  }

  /// The seeds of one test replayed, a process each.
  private struct Replay {
    let test: PackageTest
    let indices: [Int]
  }

  /// Fresh processes on one queue of a test, which list their failing seeds: the iterations
  /// `range`, run or to run (more seeds for a test whose replays agree too thinly).
  private struct SeedRange {
    let test: PackageTest
    let range: Range<Int>
  }

  /// A cause the first seed showed, asked again with the second: the arms of its contrast,
  /// where each of its stages ends, and what they ran so far.
  private struct Question {
    let test: PackageTest
    let cause: TestDiagnosis
    let arms: [DiagnosisArm]
    let ends: [Int]
    var runs: [RunResult?]
  }

  /// Where the plan is: each stage holds what only it needs.
  private enum Stage {
    /// The hanging tests' lead arms are running.
    case leading
    /// Each arm's first iterations are running, after the lead runs of the hanging tests.
    case settling(leads: [PackageTest: RunResult])
    /// The pairs at `open` run on: stage 1's rest, or a round of stage 2.
    case runningOn(open: [Int])
    /// The replays are running; `grown` for those of the seeds that stage 3 added.
    case replays([Replay], grown: Bool)
    case moreSeeds([SeedRange])
    /// Look `look` of the second seed is running.
    case secondSeed(look: Int)
    case polluters(PolluterSearch)
    case done
  }

  /// The most an arm runs in stages 1 and 2, in times its own iterations: three rounds of stage
  /// 2 at most, each doubling the arm.
  static let undecidedCap = 8

  let arms: [DiagnosisArm]
  /// The tests it diagnoses.
  package let tests: [PackageTest]
  private let failingEverywhere: Set<PackageTest>
  /// The tests that timed out in every pass of the screen: their lead arm runs first.
  private let hanging: Set<PackageTest>
  /// The arm a hanging test runs first: fresh processes under global, else the first.
  private let leadArm: DiagnosisArm?
  private let screen: [RunResult]
  private let suite: [PackageTest]
  private let settings: TestSettings
  private let budget: TestBudget
  /// The seconds of workers' time each test may spend in stage 2, set at the start from the
  /// budget left; nil without a limit.
  private var share: Double?
  private let pairs: [Pair]
  private var stage = Stage.leading
  /// Each pair's run so far, and the iterations planned for it.
  private var armRuns: [RunResult] = []
  private var planned: [Int]
  /// The replays and the fresh processes that gave them more seeds.
  private var replayRuns: [RunResult] = []
  private var questions: [Question] = []
  /// What the polluter search found.
  package private(set) var polluters: [PackageTest: Polluters] = [:]
  /// Set when an interrupt cut the plan short.
  package private(set) var interrupted = false

  /// - Parameter failingEverywhere: the tests that failed in every iteration of the screen: for
  ///   those, three failures alone settle an arm however fast, while none of their arms has
  ///   passed (a broken test has no rate to contrast).
  /// - Parameter screen: the screen's runs, which with the arms' decide the replays, the second
  ///   seed and the polluter searches; `suite`, the tests it ran, in order.
  package init(
    arms: [DiagnosisArm], tests: [PackageTest], failingEverywhere: Set<PackageTest> = [], screen: [RunResult] = [],
    suite: [PackageTest] = [], settings: TestSettings, budget: TestBudget = .unbounded
  ) {
    self.arms = arms
    self.budget = budget
    self.tests = tests
    self.failingEverywhere = failingEverywhere
    self.screen = screen
    self.suite = suite
    self.settings = settings
    pairs = tests.flatMap { test in arms.map { Pair(test: test, arm: $0) } }
    planned = pairs.map(\.arm.iterations)
    hanging = failingEverywhere.filter { test in
      let runs = screen.filter { $0.test?.test == test }
      return !runs.isEmpty && runs.allSatisfy { $0.tally.ran > 0 && $0.tally.timedOut == $0.tally.ran }
    }
    leadArm = arms.first { $0.layout == .fresh && $0.order == .parallel } ?? arms.first
  }

  /// The plan for the tests of `suite` that failed in `screen`. A test whose only failures were
  /// crashes of a process it shared with others, none of which crashed alone, has nothing a run
  /// alone can explain: it is not diagnosed.
  package init(
    afterScreen screen: [RunResult], of suite: [PackageTest], arms: [DiagnosisArm], settings: TestSettings,
    budget: TestBudget = .unbounded
  ) {
    // Grouped once: thousands of tests each looked up in every run would cost the square.
    let byTest = Dictionary(grouping: screen.filter { $0.test != nil }, by: { $0.test!.test })
    let failed = suite.filter { test in
      (byTest[test] ?? []).contains { run in
        run.tally.outcomesByFrequency.contains { !$0.outcome.isOutsideTheRate && !$0.outcome.isCrashBesideOthers }
      }
    }
    let failingEverywhere = failed.filter { test in
      (byTest[test] ?? []).allSatisfy { $0.tally.ran > 0 && $0.tally.notPassed == $0.tally.ran }
    }
    self.init(
      arms: arms, tests: failed, failingEverywhere: Set(failingEverywhere), screen: screen, suite: suite,
      settings: settings, budget: budget)
  }

  /// Every run the plan made, stage by stage: the arms' (one per test and arm, in order), the
  /// replays, the second seed's.
  package var results: [RunResult] { armRuns + replayRuns + questions.flatMap { $0.runs.compactMap { $0 } } }

  /// The first requests at `now`: the hanging tests' lead arms, else each arm's first iterations.
  package mutating func start(at now: ContinuousClock.Instant) -> Action? {
    share = budget.share(of: tests.count, jobs: settings.jobs, at: now)
    let leading = tests.filter(hanging.contains)
    guard !leading.isEmpty, let arm = leadArm else { return firstIterations(after: [:]) }
    stage = .leading
    return .launch(
      leading.map { request($0, arm, 0..<min(RunSettling.limit, arm.iterations), replicates: 1, purpose: .lead) })
  }

  /// Each arm's first iterations, but those the lead arm ran, and none for a test that hung alone.
  private mutating func firstIterations(after leads: [PackageTest: RunResult]) -> Action {
    stage = .settling(leads: leads)
    return .launch(
      pairs.indices.map { index in
        let (test, arm) = (pairs[index].test, pairs[index].arm)
        let skipped = leads[test].map { arm.isSame(as: leadArm) || hungAlone($0) } ?? false
        return request(
          test, arm, 0..<(skipped ? 0 : min(RunSettling.limit, arm.iterations)), replicates: 1,
          purpose: .arm(pair: index))
      })
  }

  /// Whether a hanging test's lead run timed out in each of its first iterations (all of them,
  /// for an arm of fewer).
  private func hungAlone(_ lead: RunResult) -> Bool {
    let tally = lead.tally
    return tally.iterations >= min(RunSettling.limit, leadArm?.iterations ?? 0) && tally.timedOut == tally.iterations
  }

  /// The last requests came to `finished`; `interrupted` when Ctrl-C cut them; `now` tells
  /// whether the budget lets a later stage start. Nil when the plan is done.
  package mutating func ran(_ finished: [Finished], interrupted: Bool, at now: ContinuousClock.Instant) -> Action? {
    switch stage {
    case .leading:
      return leadRan(finished, interrupted: interrupted)
    case .settling(let leads):
      return firstIterationsRan(finished, leads: leads, interrupted: interrupted, at: now)
    case .runningOn(let open):
      for case (.arm(let pair), let run) in finished.map({ ($0.request.purpose, $0.result) }) { armRuns[pair].add(run) }
      guard !interrupted else { return cut(open) }
      return undecided(at: now)
    case .replays(let replays, let grown):
      replayRuns += merged(finished, replays)
      guard !interrupted else { return end() }
      return grown ? secondSeed(at: now) : moreSeeds(at: now)
    case .moreSeeds(let ranges):
      replayRuns += finished.map(\.result)
      guard !interrupted else { return end() }
      let grown = finished.compactMap { done -> (run: RunResult, seeds: SeedRange)? in
        guard case .moreSeeds(let thin) = done.request.purpose, Self.isReplayable(done.result) else { return nil }
        return (done.result, ranges[thin])
      }
      return grown.isEmpty ? secondSeed(at: now) : replays(grown, grown: true, at: now)
    case .secondSeed(let look):
      for done in finished {
        guard case .secondSeed(let question, let arm) = done.request.purpose else { continue }
        questions[question].runs[arm] = questions[question].runs[arm].map { $0.adding(done.result) } ?? done.result
      }
      guard !interrupted else { return end() }
      return secondSeed(look: look + 1, at: now)
    case .polluters, .done:
      return nil
    }
  }

  /// The polluter search's last pass came to `victimRun` for its victim.
  package mutating func passRan(
    _ victimRun: PolluterSearch.Failures?, interrupted: Bool, at now: ContinuousClock.Instant
  ) -> Action? {
    guard case .polluters(var search) = stage else { return nil }
    let next = search.ran(victimRun, interrupted: interrupted, at: now)
    return polluters(search, next: next)
  }

  // MARK: Stage 1: settling

  /// The hanging tests' lead arms came to `finished`: a lead that hung alone is settled there;
  /// whatever else it came to, every arm's first iterations decide after it (a test that passed
  /// alone somewhere has rates).
  private mutating func leadRan(_ finished: [Finished], interrupted: Bool) -> Action? {
    guard let lead = leadArm else { return end() }
    var leads: [PackageTest: RunResult] = [:]
    for done in finished {
      var run = done.result
      let hung = hungAlone(run)
      if hung || interrupted {
        run.notRun = lead.iterations - run.tally.iterations
        run.stop = run.stop ?? (hung ? .everyIterationTimedOut : .interrupted)
      }
      leads[done.request.test] = run
    }
    guard !interrupted else {
      armRuns = tests.compactMap { leads[$0] }
      return end()
    }
    return firstIterations(after: leads)
  }

  /// Each arm's first iterations came to `finished` (a hanging test's lead arm, its lead run; its
  /// other arms, none when it hung alone): those they settle stop, the rest run on.
  private mutating func firstIterationsRan(
    _ finished: [Finished], leads: [PackageTest: RunResult], interrupted: Bool, at now: ContinuousClock.Instant
  ) -> Action? {
    var runs = [RunResult?](repeating: nil, count: pairs.count)
    for case (.arm(let pair), let run) in finished.map({ ($0.request.purpose, $0.result) }) { runs[pair] = run }
    armRuns = pairs.indices.map { index in
      let pair = pairs[index]
      let run = runs[index] ?? Self.nothing(of: pair)
      guard let lead = leads[pair.test] else { return run }
      if pair.arm.isSame(as: leadArm) { return lead }
      guard hungAlone(lead) else { return run }
      var skipped = run
      skipped.notRun = pair.arm.iterations
      skipped.stop = .hangsAlone
      return skipped
    }
    guard !interrupted else {
      for index in armRuns.indices {
        armRuns[index].notRun = planned[index] - armRuns[index].tally.iterations
        armRuns[index].stop = armRuns[index].stop ?? .interrupted
      }
      return end()
    }
    return settled(at: now)
  }

  /// After each arm's first iterations: the rest of those they did not settle. A test that
  /// failed every pass of the screen yet passed alone somewhere is not broken: it has rates to
  /// contrast (a load that slows the pool fails isLoading under global nearly as often as on one
  /// queue), and its arms run whole.
  private mutating func settled(at now: ContinuousClock.Instant) -> Action? {
    let passedAlone = Set(pairs.indices.filter { armRuns[$0].tally.passed > 0 }.map { pairs[$0].test })
    let open = pairs.indices.filter { index in
      let test = pairs[index].test
      let isSettled = Self.settle(
        &armRuns[index], arm: pairs[index].arm,
        failsEverywhere: failingEverywhere.contains(test) && !passedAlone.contains(test))
      return !isSettled && pairs[index].arm.iterations > RunSettling.limit
    }
    guard !open.isEmpty else { return undecided(at: now) }
    stage = .runningOn(open: open)
    return .launch(
      open.map { index in
        let arm = pairs[index].arm
        return request(
          pairs[index].test, arm, RunSettling.limit..<arm.iterations, replicates: replicates(arm),
          purpose: .arm(pair: index))
      })
  }

  /// Whether an arm's first iterations settle it, marked so in `result` when they do: all
  /// failed, each by a wait or a block of the queue's thread, or in a test that failed every
  /// pass of the screen and has not passed alone (`failsEverywhere`); or the run stopped.
  static func settle(_ result: inout RunResult, arm: DiagnosisArm, failsEverywhere: Bool) -> Bool {
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
  private mutating func undecided(at now: ContinuousClock.Instant) -> Action? {
    guard budget.isInTime(at: now) else { return replays(at: now) }
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
    guard !ends.isEmpty else { return replays(at: now) }
    stage = .runningOn(open: ends.map(\.index))
    return .launch(
      ends.map { index, end in
        let arm = pairs[index].arm
        defer { planned[index] = end }
        return request(
          pairs[index].test, arm, planned[index]..<end, replicates: replicates(arm), purpose: .arm(pair: index))
      })
  }

  /// The arms of `test` that a round of stage 2 runs: those not settled, of every contrast its
  /// first seed's runs (the screen's and the arms') leave undecided, when they leave it
  /// `undetermined`.
  private func undecidedArms(of test: PackageTest) -> [Int] {
    let runs = firstSeed(of: test)
    let judged = Diagnostician.judge(runs, confidence: settings.confidence)
    guard judged.verdict == .flaky, judged.diagnosis == .undetermined else { return [] }
    let wanted = CauseContrast.causes.filter {
      CauseContrast.isUndecided($0, in: runs, confidence: settings.confidence, contrasts: Diagnostician.contrasts)
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
  private mutating func replays(at now: ContinuousClock.Instant) -> Action? {
    let all = screen + armRuns
    let seeds = tests.filter { test in Diagnostician.mayDependOnRandomness(all.filter { $0.test?.test == test }) }
      .compactMap { test in
        pairs.indices.first { pairs[$0].test == test && pairs[$0].arm.listsFailingSeeds }
          .map { (run: armRuns[$0], seeds: SeedRange(test: test, range: 0..<planned[$0])) }
      }
      .filter { Self.isReplayable($0.run) }
    return replays(seeds, grown: false, at: now)
  }

  /// One replay of each failing iteration a run of `seeds` listed and as many passing ones of
  /// its range, a process each with the same seed; `grown` for the seeds of the fresh processes
  /// that stage 3 added.
  private mutating func replays(
    _ seeds: [(run: RunResult, seeds: SeedRange)], grown: Bool, at now: ContinuousClock.Instant
  ) -> Action? {
    guard let arm = seedArm, !seeds.isEmpty else { return secondSeed(at: now) }
    let replays = seeds.map { run, seeds in
      let failing = (run.schedule?.failingIterations ?? []).map(\.index)
      let passing = (run.schedule?.indicesWithoutFailure(in: seeds.range) ?? []).prefix(failing.count)
      return Replay(test: seeds.test, indices: (failing + passing).sorted())
    }
    stage = .replays(replays, grown: grown)
    return .launch(
      replays.indices.flatMap { replay in
        replays[replay].indices.map { index in
          Request(
            test: replays[replay].test, arm: arm, layout: .replay, indices: index..<(index + 1), isSecondSeed: false,
            replicates: 1, isScheduled: true, purpose: .replay(replay))
        }
      })
  }

  /// Where the replays agree on too few seeds to tell the seed from chance
  /// (``Diagnostician/replaysAgreeTooThinly(_:confidence:)``), as many fresh processes again.
  private mutating func moreSeeds(at now: ContinuousClock.Instant) -> Action? {
    guard let arm = seedArm else { return secondSeed(at: now) }
    let thin = tests.filter { test in
      let runs = (screen + armRuns + replayRuns).filter { $0.test?.test == test }
      return runs.contains(where: Diagnostician.isRandomnessReplay)
        && Diagnostician.replaysAgreeTooThinly(runs, confidence: settings.confidence)
    }
    guard !thin.isEmpty else { return secondSeed(at: now) }
    // After the iterations the seed arm ran, so that no seed comes twice.
    let ranges = thin.map { test in
      let start =
        pairs.indices.first { pairs[$0].test == test && pairs[$0].arm.listsFailingSeeds }.map { planned[$0] }
        ?? arm.iterations
      return SeedRange(test: test, range: start..<(start + arm.iterations))
    }
    stage = .moreSeeds(ranges)
    return .launch(
      ranges.indices.map { thin in
        Request(
          test: ranges[thin].test, arm: arm, layout: .fresh, indices: ranges[thin].range, isSecondSeed: false,
          replicates: settings.replicates(independent: true), isScheduled: true, purpose: .moreSeeds(thin: thin))
      })
  }

  /// The arm whose fresh processes on one queue list their failing seeds.
  private var seedArm: DiagnosisArm? { arms.first(where: \.listsFailingSeeds) }

  /// Whether `seeds` (fresh processes on one queue) ran whole, and listed failing seeds and
  /// had passing ones.
  static func isReplayable(_ seeds: RunResult) -> Bool {
    seeds.stop == nil && seeds.schedule?.failingIterations.isEmpty == false && seeds.tally.passed > 0
  }

  /// The replays' processes, merged into one run per replay.
  private func merged(_ finished: [Finished], _ replays: [Replay]) -> [RunResult] {
    var merged = [RunResult?](repeating: nil, count: replays.count)
    for case (.replay(let replay), let run) in finished.map({ ($0.request.purpose, $0.result) }) {
      merged[replay] = merged[replay].map { $0.adding(run) } ?? run
    }
    return merged.compactMap { $0 }
  }

  // MARK: Stage 4: the second seed

  /// The second seed's first look: for each test whose first runs show a cause that a contrast
  /// of rates showed, the arms of that contrast with another seed, each as far as
  /// ``SecondSeed/lookEnds(for:firstSeed:iterations:confidence:)`` says.
  private mutating func secondSeed(at now: ContinuousClock.Instant) -> Action? {
    let all = screen + armRuns + replayRuns
    let confidence = settings.confidence
    questions = tests.compactMap { test in
      let runs = all.filter { $0.test?.test == test }.map { Report.estimated($0, at: confidence) }
      guard let cause = Diagnostician.judge(runs, confidence: confidence).diagnosis,
        let wanted = CauseContrast.arms(for: cause)
      else { return nil }
      let chosen = wanted.compactMap { order, layout in arms.first { $0.order == order && $0.layout == layout } }
      // The arm of fewest iterations (fresh processes, a process each) sets the share.
      guard let fewest = chosen.map(\.iterations).min() else { return nil }
      let ends = SecondSeed.lookEnds(
        for: cause, firstSeed: runs.filter { $0.test?.layout.isSuitePass == false }, iterations: fewest,
        confidence: confidence)
      return Question(
        test: test, cause: cause, arms: chosen, ends: ends, runs: Array(repeating: nil, count: chosen.count))
    }
    return secondSeed(look: 0, at: now)
  }

  /// Look `look` of the second seed, for the questions still undecided; after the first, only
  /// in time.
  private mutating func secondSeed(look: Int, at now: ContinuousClock.Instant) -> Action? {
    let confidence = settings.confidence
    let open = questions.indices.filter { index in
      let question = questions[index]
      return look < question.ends.count
        && (look == 0
          || SecondSeed.isUndecided(
            question.cause, in: question.runs.compactMap { $0.map { Report.estimated($0, at: confidence) } },
            confidence: confidence))
    }
    guard !open.isEmpty, look == 0 || budget.isInTime(at: now) else { return searchPolluters(at: now) }
    stage = .secondSeed(look: look)
    return .launch(
      open.flatMap { index in
        let question = questions[index]
        let start = look == 0 ? 0 : question.ends[look - 1]
        return question.arms.indices.map { arm in
          Request(
            test: question.test, arm: question.arms[arm], layout: question.arms[arm].layout,
            indices: start..<question.ends[look], isSecondSeed: true, replicates: replicates(question.arms[arm]),
            isScheduled: false, purpose: .secondSeed(question: index, arm: arm))
        }
      })
  }

  // MARK: Stage 5: polluters

  /// The polluter search over the `interference` victims among the tests, each with the suite
  /// passes that failed it most under an executor whose runs alone never did, and its
  /// framework's other tests there; only in time.
  private mutating func searchPolluters(at now: ContinuousClock.Instant) -> Action? {
    guard budget.isInTime(at: now) else {
      stage = .done
      return nil
    }
    let runs = (screen + results).map { Report.estimated($0, at: settings.confidence) }
    var search = PolluterSearch(
      tests.compactMap { victim($0, runs: runs) }, confidence: settings.confidence, budget: budget)
    let first = search.start(at: now)
    return polluters(search, next: first)
  }

  /// The search's next pass, or the end of the plan with what it found.
  private mutating func polluters(_ search: PolluterSearch, next: PolluterSearch.Pass?) -> Action? {
    guard let next else {
      polluters = search.found
      interrupted = search.interrupted
      stage = .done
      return nil
    }
    stage = .polluters(search)
    return .pass(next)
  }

  private func victim(_ test: PackageTest, runs all: [RunResult]) -> PolluterSearch.Victim? {
    let runs = all.filter { $0.test?.test == test }
    guard Diagnostician.judge(runs, confidence: settings.confidence).diagnosis == .interference else { return nil }
    func alone(like executor: ExecutorID) -> PolluterSearch.Failures {
      runs.filter { run in
        [.repetitions, .fresh].contains(run.test?.layout) && run.ranInParallel == (executor.jobOrder == .parallel)
      }
      .reduce(PolluterSearch.Failures()) { .init(failed: $0.failed + $1.tally.notPassed, ran: $0.ran + $1.tally.ran) }
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
      test: test, executor: executor, suite: .init(failed: worst.tally.notPassed, ran: worst.tally.ran),
      alone: alone(like: worst.executor),
      neighbours: suite.filter { $0 != test && $0.framework == test.framework && !settled.contains($0) })
  }

  // MARK: Parts

  /// The runs of `test` alone with the first seed so far, and the screen's.
  private func firstSeed(of test: PackageTest) -> [RunResult] {
    (screen + armRuns).filter { $0.test?.test == test }.map { Report.estimated($0, at: settings.confidence) }
  }

  private func request(
    _ test: PackageTest, _ arm: DiagnosisArm, _ indices: Range<Int>, replicates: Int, purpose: Purpose
  ) -> Request {
    Request(
      test: test, arm: arm, layout: arm.layout, indices: indices, isSecondSeed: false, replicates: replicates,
      isScheduled: arm.listsFailingSeeds, purpose: purpose)
  }

  /// A run of `pair` with no iteration, where the runner reported none.
  private static func nothing(of pair: Pair) -> RunResult {
    RunResult(
      RunKey(test: pair.test, executor: pair.arm.executor.id), tally: Tally(), seconds: 0,
      iterationsAreIndependent: pair.arm.executor.iterationsAreIndependent)
  }

  private func replicates(_ arm: DiagnosisArm) -> Int {
    settings.replicates(independent: arm.executor.iterationsAreIndependent)
  }

  /// An interrupt after stage 1: the iterations of the pairs at `open` that neither ran nor
  /// were counted out are marked so.
  private mutating func cut(_ open: [Int]) -> Action? {
    for index in open where armRuns[index].stop == nil {
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

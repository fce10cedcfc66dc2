/// One test's answer: its verdict, why it fails, and every run that supports it.
package struct TestFinding: Sendable {
  package let test: PackageTest
  package let verdict: TestVerdict
  /// Set for a flaky or failing test.
  package private(set) var diagnosis: TestDiagnosis?
  /// Every run of the test, the screen's (suite layout) first, then the drill-down's.
  package let runs: [RunResult]
  /// Where the random draw that decides it is made, for a `randomness` diagnosis.
  package var randomDraw: Diagnostician.RandomDraw?
  /// For an `undetermined` diagnosis, the causes whose experiments ran and did not show them.
  package var ruledOut: [TestDiagnosis] = []
  /// For an `undetermined` diagnosis, the causes whose contrasts more iterations may decide.
  package var undecided: [TestDiagnosis] = []
  /// For an `undetermined` diagnosis, the cause the first seed showed and the second did not.
  package var unconfirmed: TestDiagnosis?
  /// The tests whose presence fails it, for an `interference` the search could tell.
  package var polluters: Polluters?
  /// Where the test is declared, where the lab could tell (for CI annotations).
  package var location: SourceLocation?
  /// The line to open first, for a test that is not stable (``LeadLine``).
  package var lead: LeadLine?
  /// What its runs under the thread sanitizer showed, where they ran (``SanitizedArm``).
  package var races: RaceEvidence?

  package init(test: PackageTest, runs: [RunResult], confidence: Double) {
    self.test = test
    self.runs = runs
    (verdict, diagnosis) = Diagnostician.judge(runs, confidence: confidence)
    randomDraw = diagnosis == .randomness ? Diagnostician.randomDraw(runs, confidence: confidence) : nil
    ruledOut = diagnosis == .undetermined ? Diagnostician.ruledOut(runs, confidence: confidence) : []
    unconfirmed = diagnosis == .undetermined ? Diagnostician.unconfirmed(runs, confidence: confidence) : nil
    undecided = diagnosis == .undetermined ? Diagnostician.undecided(runs, confidence: confidence) : []
  }

  package init(test: PackageTest, verdict: TestVerdict, diagnosis: TestDiagnosis?, runs: [RunResult]) {
    self.test = test
    self.verdict = verdict
    self.diagnosis = diagnosis
    self.runs = runs
  }

  /// The diagnosis in words: where the search named the polluters, that precise statement
  /// alone ("fails when A runs before it" says more than "fails beside other tests").
  package var summary: String? {
    guard let diagnosis else { return nil }
    guard diagnosis == .interference, let polluters else { return diagnosis.summary }
    return polluters.tests.isEmpty ? diagnosis.summary + "; " + polluters.when : polluters.when
  }

  /// What to do, with the polluters or the blocking call named where the lab found them.
  package var advice: String? {
    if diagnosis == .interference, let polluters { return polluters.advice }
    if let raceAdvice { return raceAdvice }
    if diagnosis == .blocksThread, let blockedAt {
      // A run loop spun inside a job of the queue: the harness sees the spin, and names who spun
      // it where the stack says.
      let what =
        ThreadBlocks.isIdleRunLoop(blockedAt)
        ? "a run loop spun inside one of the queue's jobs"
          + (ThreadBlocks.frame(of: blockedAt).map { " at \($0)" } ?? "")
          + " (XCTWaiter.wait or RunLoop.run called synchronously from async code, as a package's own "
          + "fulfillment(of:timeout:) shim does)"
        : blockedAt
      return "\(what) blocks the queue's thread until async work ends: await that work there instead "
        + "(XCTest's async fulfillment(of:timeout:), a continuation), in the test or the helper that blocks; never serialize this test"
    }
    if diagnosis == .blocksThread, let wait = Diagnostician.unseenWait(runs) {
      return "each failure on one queue took at least \(Formatting.seconds(wait.oneQueue)), against "
        + "\(Formatting.seconds(wait.global)) for an iteration under global: a wait the harness cannot see "
        + "(a spin on a flag, a lock, a wait in C code) holds the queue's thread until async work ends: "
        + "await that work instead; never serialize this test"
    }
    return diagnosis?.advice
  }

  /// What the sanitized runs say to do, for a test an experiment showed to fail by a race
  /// between threads (``racesDecide``): fix the race they named, or, where they named none, the
  /// logical race. Every other cause keeps its own advice, the races told beside it as
  /// evidence: the sanitizer shows where code races, not that the race fails the test, and its
  /// slowdown fails a deadline's test with no race at all.
  private var raceAdvice: String? {
    guard let races, racesDecide, let diagnosis else { return nil }
    if let first = races.races.first, let packagePath {
      let place = first.race.placeToOpen(in: packagePath)?.place(relativeTo: packagePath)
      let at = place.map { " at \($0)" } ?? ""
      if diagnosis == .outsideExecutors {
        return "the race\(at) is with \(RaceText.unorderedRunners(first.race)), which no executor orders: wait for "
          + "its work to end (a continuation resumed when it is done, a group's notify, the event loop's future) "
          + "rather than assume its order; a serial executor cannot fix this test"
      }
      return "fix the race\(at): protect both accesses with one lock, or move the state into an actor or a Mutex; "
        + "serializing the test would hide it"
    }
    guard races.showsNoDataRace, diagnosis == .needsParallelism else { return nil }
    return "no data race: every access the sanitizer saw is ordered, yet the test failed in \(races.failedRuns) of "
      + "\(races.runs) sanitized runs: a logical race (a read and a write each locked, a state checked across an await, "
      + "an actor's reentrancy): make the check and the act one step (one lock held over both, one actor method "
      + "with no await between them); more locking of each access will not fix it"
  }

  /// Whether the races decide the answer (its line to open, its advice): a race between
  /// threads, shown by one queue against global (`needs-parallelism`) or by the sanitizer
  /// itself (`outside-executors`).
  package var racesDecide: Bool { diagnosis == .needsParallelism || diagnosis == .outsideExecutors }

  /// Where the harness saw the test block its queue's thread in the most failing iterations.
  package var blockedAt: String? {
    runs.filter { $0.blockedIterations > 0 && $0.blockedAt != nil }.max { $0.blockedIterations < $1.blockedIterations }?
      .blockedAt
  }

  /// The package's directory as the command was given it, for paths a person reads.
  package var packagePath: String? { runs.lazy.compactMap(\.test?.packagePath).first }

  /// Every run's counts together.
  private var allRuns: Tally { runs.reduce(into: Tally()) { $0.merge($1.tally) } }

  /// The way it failed most often over all its runs (crashes and time-outs count, skips not).
  package var commonestFailure: Outcome? {
    allRuns.outcomesByFrequency.first { $0.outcome != .passed && !$0.outcome.isOutsideTheRate }?.outcome
  }

  /// Where `outcome` was recorded, the first run that said.
  package func place(of outcome: Outcome) -> SourceLocation? {
    runs.lazy.compactMap { $0.tally.places[outcome] }.first
  }

  /// The test a failure recorded at `place` probably came from: its body holds the line, and it
  /// ran before this one in the suite pass's process (``FailureOrigin``). A hint: the failure
  /// stays this test's, as `swift test` counts it.
  package func origin(of place: SourceLocation) -> PackageTest? {
    runs.lazy.compactMap { $0.origins[place] }.first
  }

  /// `outcome` as the test said it, or as the lab words it.
  package func said(_ outcome: Outcome) -> String {
    runs.lazy.compactMap { $0.tally.examples[outcome] }.first ?? OutcomeText.describe(outcome)
  }

  /// The tests that ran beside this one in suite passes where it failed, the most frequent
  /// first, with in how many such passes.
  package var neighbours: [(test: PackageTest, passes: Int)] {
    var counts: [PackageTest: Int] = [:]
    for run in runs where run.test?.layout.isSuitePass == true {
      counts.merge(run.failedBeside, uniquingKeysWith: +)
    }
    return counts.sorted { ($1.value, $0.key.id) < ($0.value, $1.key.id) }.map { ($0.key, $0.value) }
  }

  /// The command that replays the first failing seeded iteration of the test, where the seed
  /// was shown to reproduce it: for `randomness`, a fresh process with the failing random seed;
  /// else an iteration of a run whose schedule was the scheduler's alone and that failed every
  /// iteration, or whose failing seeds failed again when replayed. A seed replays only what the
  /// scheduler alone decided; threads it does not see (an event loop's, Dispatch's) can decide
  /// a run it calls controlled, and a replay that does not replay points the wrong way.
  package func replay(program: String) -> String? {
    guard let (run, failing) = replayed else { return nil }
    return ScheduleText.replayCommand(run, failing, program: program)
  }

  /// Why a test that failed in runs whose seeds were listed gets no replay, if it gets none.
  package var noReplay: String? {
    guard replayed == nil, runs.contains(where: { $0.schedule?.failingIterations.isEmpty == false }) else { return nil }
    guard runs.contains(where: { $0.schedule?.isControlled == true && $0.schedule?.failingIterations.isEmpty == false })
    else {
      return "threads outside the scheduler (I/O, Dispatch, real-time sleeps) woke its tasks: a seed does not replay it"
    }
    return "no run showed its seed decides it (none failed every iteration, and no failing seed was replayed to fail "
      + "again): threads the scheduler does not see, or real time, may decide it"
  }

  /// The run and failing iteration ``replay(program:)`` names.
  private var replayed: (RunResult, RunSchedule.FailingIteration)? {
    let replays = runs.filter(Diagnostician.isRandomnessReplay)
    // Failing seeds replayed failed again, and passing ones passed: the seed decides the runs.
    let failedAgain = Diagnostician.replayAgreement(runs) != nil
    for run in diagnosis == .randomness ? replays : runs.filter({ !Diagnostician.isRandomnessReplay($0) }) {
      guard let schedule = run.schedule, schedule.isControlled, let failing = schedule.failingIterations.first else {
        continue
      }
      let everyIteration = run.tally.passed == 0 && run.tally.notPassed > 0
      if diagnosis == .randomness || everyIteration || failedAgain { return (run, failing) }
    }
    return nil
  }
}

extension TestFinding {
  /// Each of `tests`' finding from the runs that measured it (the screen's and the
  /// drill-down's), with the polluters the search found for an `interference` and where each
  /// test is declared: the one place the answer of `flakelab test` is derived, after a run and
  /// after `merge` of its reports.
  package static func findings(
    of tests: [PackageTest], runs: [RunResult], polluters: [PackageTest: Polluters],
    races: [PackageTest: RaceEvidence] = [:], locations: [PackageTest: SourceLocation], confidence: Double
  ) -> [TestFinding] {
    let byTest = Dictionary(grouping: runs.filter { $0.test != nil }, by: { $0.test!.test })
    return tests.map { test in
      var finding = TestFinding(
        test: test, runs: (byTest[test] ?? []).map { Report.estimated($0, at: confidence) }, confidence: confidence)
      finding.location = locations[test]
      finding.polluters = finding.diagnosis == .interference ? polluters[test] : nil
      if let evidence = races[test] { finding.noting(evidence) }
      finding.lead = finding.verdict == .stable ? nil : LeadLine.of(finding, locations: locations)
      return finding
    }
  }

  /// Causes that a race with a thread no executor orders overrules: no experiment showed a
  /// cause, or one whose contrast such a thread decides unseen (a `first-run` server test whose
  /// second request races the server's close on an event-loop thread; a seed's order, which
  /// that thread ignores). A cause its own contrast showed stands, the race beside it: one queue
  /// against global (`needs-parallelism`, whose advice is the race's), busy cores (`timing`),
  /// and the others, which no race explains.
  static let overruledByUnorderedRaces: Set<TestDiagnosis> = [.undetermined, .firstRun, .fifoDependent]

  /// The sanitized runs' evidence, and the cause it shows: a race with a Dispatch queue, a
  /// `Thread` or an event loop is `outside-executors`, whatever the executors' contrasts said of
  /// the causes ``overruledByUnorderedRaces`` holds.
  mutating func noting(_ evidence: RaceEvidence) {
    races = evidence
    guard let diagnosis, Self.overruledByUnorderedRaces.contains(diagnosis), !evidence.unorderedRaces.isEmpty else {
      return
    }
    self.diagnosis = .outsideExecutors
    ruledOut = []
    undecided = []
    unconfirmed = nil
  }
}

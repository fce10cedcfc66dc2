import Foundation

/// `flakelab ci`'s run: the suite once, as `swift test` runs it (one pass under the global
/// executor, each framework's tests in a process of their own, XCTest's first, Swift Testing's
/// in parallel), then each test that failed, crashed or hung alone, in a fresh process, until it
/// passes or its retries are spent (``RetryPlan``). Crashes and hangs are outcomes, as in every
/// run of the lab; nothing a run starts outlives it.
package struct CIRunner {
  package let package: TestPackage
  package let preload: String
  package let timeout: Duration
  package let retries: Int
  package let workerExecutable: String
  package let seed: UInt64
  /// `--sanitize`: which tests run again under the thread sanitizer (none by default: a daily
  /// job's time is the binaries').
  package let sanitizing: Sanitizing

  package init(
    package: TestPackage, preload: String, timeout: Duration, retries: Int, workerExecutable: String, seed: UInt64,
    sanitizing: Sanitizing = .none
  ) {
    self.sanitizing = sanitizing
    self.package = package
    self.preload = preload
    self.timeout = timeout
    self.retries = retries
    self.workerExecutable = workerExecutable
    self.seed = seed
  }

  /// Runs `tests` (their pass, then their retries) with `quarantine`'s entries on them.
  @MainActor
  package func run(
    _ tests: [PackageTest], quarantine: Quarantine, failOnFlaky: Bool, context: CIRun.Context = CIRun.Context(),
    onProgress: @escaping (_ phase: String, Supervisor.Progress) -> Void = { _, _ in }
  ) throws -> CIRun {
    SuspendSignal.install()
    defer { SuspendSignal.restoreDefault() }
    return try InterruptSignal.watching {
      try passAndRetries(
        tests, quarantine: quarantine, failOnFlaky: failOnFlaky, context: context, onProgress: onProgress)
    }
  }

  /// The pass, then the rounds of retries; an interrupt ends either with what finished.
  @MainActor
  private func passAndRetries(
    _ tests: [PackageTest], quarantine: Quarantine, failOnFlaky: Bool, context: CIRun.Context,
    onProgress: @escaping (_ phase: String, Supervisor.Progress) -> Void
  ) throws -> CIRun {
    let clock = ContinuousClock()
    let start = clock.now
    let started = Date()
    let passes = PassSupervisor(timeout: timeout) { onProgress("suite", $0) }
    let screened = try passes.run(
      [TestLaunch.passes(of: tests, in: package, executor: GlobalExecutor(), seed: seed, preload: preload)],
      passes: 0..<1, replicates: 1, seed: seed, packagePath: package.path)
    let attempts = Dictionary(
      grouping: screened.compactMap { result in result.test.map { ($0.test, result) } }, by: \.0
    )
    .mapValues { $0.flatMap { Self.attempts(of: $0.1, index: 0, placement: .pass) } }
    let entries = Dictionary(
      quarantine.entries(excusing: .failures).map { ($0.test, $0) }, uniquingKeysWith: { first, _ in first })
    var run = CIRun(
      packagePath: package.path, retries: retries, timeout: timeout, failOnFlaky: failOnFlaky, seed: seed,
      tests: tests.map { test in
        var found = CITest(
          test: test, attempts: attempts[test] ?? [], location: package.locations[test], quarantine: entries[test.id])
        found.locationDoubt = package.locationDoubts[test]
        return found
      }, context: context)
    run.interrupted = passes.wasInterrupted
    run.started = started
    run.passSeconds = (clock.now - start).seconds
    if !run.interrupted { try retry(&run, onProgress: onProgress) }
    run.retrySeconds = (clock.now - start).seconds - run.passSeconds
    if !run.interrupted { try sanitize(&run, screened: screened, onProgress: onProgress) }
    return run
  }

  /// The thread sanitizer's part (``RaceSearch``): each test whose pass failed, alone; with
  /// `--sanitize thread`, every test in sanitized passes. Its races go on the tests; no status
  /// changes, since a race is not a failure.
  private func sanitize(
    _ run: inout CIRun, screened: [RunResult], onProgress: @escaping (String, Supervisor.Progress) -> Void
  ) throws {
    let search = RaceSearch(
      package: package, preload: preload, jobs: RaceSearch.defaultJobs, timeout: timeout,
      confidence: FailureRateEstimate.defaultConfidence, sanitizing: sanitizing)
    let tests = run.tests.map(\.test)
    let found = try search.run(
      RaceSearch.subjects(of: tests, failedIn: screened), passesOver: tests, isInTime: { !InterruptSignal.isRaised },
      onProgress: onProgress)
    for index in run.tests.indices { run.tests[index].races = found.evidence[run.tests[index].test] }
    run.sanitizer = found.summary
    run.interrupted = found.interrupted
  }

  /// Rounds of retries (``RetryPlan``), one process at a time. Round `r` runs as iteration `r`
  /// of the run's seed: each retry draws other random values than the pass and the rounds
  /// before, as a rerun of `swift test` would, and a replay names the round.
  @MainActor
  private func retry(_ run: inout CIRun, onProgress: @escaping (String, Supervisor.Progress) -> Void) throws {
    var probe: HarnessProbe?
    var round = 0
    var steps = RetryPlan.next(run, retries: retries)
    while !steps.isEmpty, round < RetryPlan.rounds(retries: retries) {
      round += 1
      let alone = steps.compactMap(\.testAlone)
      var aloneAttempts: [CITest.Attempt?] = []
      if !alone.isEmpty {
        // Only a run with something to retry alone pays for the probe a run alone needs.
        let probed =
          try probe ?? HarnessProbe.run(binary: package.testBinary, preload: preload, mechanisms: [.untouched])
        probe = probed
        guard let attempts = try runAlone(alone, round: round, probe: probed, onProgress: onProgress) else {
          return cut(&run, steps)
        }
        aloneAttempts = attempts
      }
      var again: [PackageTest: CITest.Attempt] = [:]
      for case .suiteAgain(let group, let checking) in steps {
        let passes = PassSupervisor(timeout: timeout) { onProgress("suite again", $0) }
        let results = try passes.run(
          [TestLaunch.passes(of: group, in: package, executor: GlobalExecutor(), seed: seed, preload: preload)],
          passes: round..<(round + 1), replicates: 1, seed: seed, packagePath: package.path)
        if passes.wasInterrupted { return cut(&run, steps) }
        for result in results {
          guard let test = result.test?.test, checking.contains(test) else { continue }
          again[test] = Self.attempts(of: result, index: round, placement: .suiteAgain).first
        }
      }
      run.record(steps, alone: aloneAttempts, again: again, retries: retries)
      steps = RetryPlan.next(run, retries: retries)
    }
  }

  /// The tests of a round that run alone, one process after another, each's attempt (nil for one
  /// that did not run); nil when an interrupt cut the round, which then says nothing of them.
  @MainActor
  private func runAlone(
    _ tests: [PackageTest], round: Int, probe: HarnessProbe, onProgress: @escaping (String, Supervisor.Progress) -> Void
  ) throws -> [CITest.Attempt?]? {
    let supervisor = Supervisor(
      options: .init(jobs: 1, timeout: timeout, workerExecutable: workerExecutable)
    ) { onProgress("retries", $0) }
    let results = try supervisor.run(
      tests.map { test in
        var alone = TestLaunch.run(
          test, of: package, executor: GlobalExecutor(), indices: round..<(round + 1), seed: seed, layout: .fresh,
          probe: probe, preload: preload)
        alone.replicates = 1
        return alone
      })
    guard !supervisor.wasInterrupted else { return nil }
    return results.map { Self.attempts(of: $0, index: round, placement: .alone).first }
  }

  /// A round the interrupt cut says nothing of its tests: they were not let finish.
  private func cut(_ run: inout CIRun, _ steps: [RetryPlan.Step]) {
    run.interrupted = true
    let cut = Set(steps.flatMap(\.tests))
    for index in run.tests.indices where cut.contains(run.tests[index].test) { run.tests[index].retriesCut = true }
  }

  /// The attempts a run of iteration `index` came to: none when it did not run.
  static func attempts(of result: RunResult, index: Int, placement: CITest.Placement) -> [CITest.Attempt] {
    guard result.tally.iterations > 0 else { return [] }
    let outcome = result.tally.outcomesByFrequency.first?.outcome ?? .passed
    let place = result.tally.places[outcome]
    return [
      CITest.Attempt(
        outcome: outcome, example: result.tally.examples[outcome], seconds: result.testSeconds ?? result.seconds,
        place: place, index: index, placement: placement,
        origin: place.flatMap { result.origins[$0] }.map { FailureOrigin(test: $0.id) })
    ]
  }
}

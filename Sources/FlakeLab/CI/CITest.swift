/// One test in a CI run: its outcome in the suite's one pass, then in each retry (alone, or again
/// after the tests that ran before it), and what that makes it.
package struct CITest: Sendable, Equatable {
  /// What a test is after its pass and its retries.
  package enum Status: String, Sendable, CaseIterable {
    /// Passed in the suite's pass.
    case passed
    /// Failed (or crashed, or hung) in the pass, then passed in a retry: alone, or after the
    /// tests that ran before it.
    case flaky
    /// Failed in the pass and in every retry alone.
    case failed
    /// Failed in the pass and in every run after the tests that ran before it, and passed in
    /// every run alone: not flaky, it fails every time the suite runs as CI runs it, because of
    /// a test before it (a state it leaves, a task that outlives it).
    case failsInSuite
    /// The framework skipped it.
    case skipped
    /// The lab could not run it: its processes ended before it started.
    case notRun
    /// Failed in the pass; Ctrl-C or SIGTERM cut its retries before one passed: neither flaky
    /// nor failed, since the retries that would have told were never run.
    case interrupted

    /// It ran: passed, flaky, failed or failed in the suite. Only these say anything of a rate.
    package var ran: Bool {
      switch self {
      case .passed, .flaky, .failed, .failsInSuite: true
      case .skipped, .notRun, .interrupted: false
      }
    }

    /// Its first attempt failed.
    package var failedFirst: Bool {
      switch self {
      case .flaky, .failed, .failsInSuite, .interrupted: true
      case .passed, .skipped, .notRun: false
      }
    }

    /// It passed where CI runs it, in the suite: passed or flaky. A test that passed only alone
    /// never passed as the suite runs it.
    package var passedOnce: Bool {
      switch self {
      case .passed, .flaky: true
      case .failed, .failsInSuite, .skipped, .notRun, .interrupted: false
      }
    }
  }

  /// Where a run of the test was.
  package enum Placement: String, Sendable, CaseIterable {
    /// The suite's pass, as `swift test` runs it.
    case pass
    /// Alone, in a fresh process.
    case alone
    /// The pass's tests up to this one again, in one process: after the tests that ran before
    /// it (XCTest's, in their order), or beside those that ran beside it (Swift Testing's).
    case suiteAgain
  }

  /// One run of the test: the suite's pass first, then each retry.
  package struct Attempt: Sendable, Equatable {
    package let outcome: Outcome
    /// The failure as the test said it, where folding changed the message.
    package let example: String?
    package let seconds: Double
    /// Where the failure was recorded, when the framework said: the line to open.
    package let place: SourceLocation?
    /// The iteration index its process ran under: 0 for the pass, the round for a retry. With
    /// the run's seed it decides the process's random values and hash order (``CIRun/replay(of:)``).
    package let index: Int
    package let placement: Placement
    /// The test the failure probably came from, when its line lies in another test's body.
    package var origin: FailureOrigin?
    /// The test that was running when this test's failure was recorded, when an experiment
    /// showed the failure this test's (``FailureOrigin``): it landed after this test ended.
    package var recordedWhile: String?

    package init(
      outcome: Outcome, example: String? = nil, seconds: Double, place: SourceLocation? = nil, index: Int = 0,
      placement: Placement? = nil, origin: FailureOrigin? = nil, recordedWhile: String? = nil
    ) {
      self.outcome = outcome
      self.example = example
      self.seconds = seconds
      self.place = place
      self.index = index
      self.placement = placement ?? (index == 0 ? .pass : .alone)
      self.origin = origin
      self.recordedWhile = recordedWhile
    }

    /// Whether it counts against the test: failed, crashed or timed out, unless an experiment
    /// showed the failure another test's.
    package var failed: Bool { outcome != .passed && !outcome.isOutsideTheRate && origin?.shown != true }
  }

  package let test: PackageTest
  package var attempts: [Attempt]
  /// Where the test is declared, where the lab could tell.
  package var location: SourceLocation?
  /// Why `location` may be wrong, where the reading of the sources was unsure.
  package var locationDoubt: String?
  /// The quarantine entry that keeps its failures from failing the job, if it is listed.
  package var quarantine: Quarantine.Entry?
  /// Whether Ctrl-C or SIGTERM came while it was being retried: its status is what the runs
  /// before said, not what its retries would have.
  package var retriesCut = false
  /// What its runs under the thread sanitizer showed (`--sanitize`): where it races. A race is
  /// not a failure: it changes no status and fails no job.
  package var races: RaceEvidence?

  package init(
    test: PackageTest, attempts: [Attempt], location: SourceLocation? = nil, quarantine: Quarantine.Entry? = nil
  ) {
    self.test = test
    self.attempts = attempts
    self.location = location
    self.quarantine = quarantine
  }

  package var status: Status {
    guard let first = attempts.first else { return .notRun }
    if case .skipped = first.outcome { return .skipped }
    guard first.failed else { return first.outcome == .executorChanged ? .notRun : .passed }
    if failsEveryTimeInTheSuite { return .failsInSuite }
    if attempts.dropFirst().contains(where: { $0.outcome == .passed }) { return .flaky }
    return retriesCut ? .interrupted : .failed
  }

  /// The runs in `placement`.
  package func attempts(_ placement: Placement) -> [Attempt] {
    attempts.filter { $0.placement == placement }
  }

  /// Failed in the pass and every time the suite ran again, passed every time alone, and no
  /// interrupt cut that short.
  private var failsEveryTimeInTheSuite: Bool {
    let again = attempts(.suiteAgain)
    let alone = attempts(.alone)
    return !retriesCut && !again.isEmpty && again.allSatisfy(\.failed) && !alone.isEmpty
      && alone.allSatisfy { $0.outcome == .passed }
  }

  /// The failure that says most of the test: its own, before a crash of the pass's process that
  /// none of the tests in flight caused alone.
  package var seen: Attempt? {
    let failures = attempts.filter(\.failed)
    return failures.first { !$0.outcome.isCrashBesideOthers } ?? failures.first
  }

  /// Whether it is flaky only by a crash of the pass's process, charged to every test in flight
  /// because none of them crashed alone, and then passed alone: that says nothing of this test,
  /// only that one of those in flight crashes sometimes.
  package var isFlakyBesideACrash: Bool {
    status == .flaky && attempts.first?.outcome.isCrashBesideOthers == true
  }

  /// Whether the test fails the job: failed for good, failed every time in the suite, or never
  /// started (as `swift test` would fail), or flaky when flaky fails it too; never when it is
  /// quarantined.
  package func failsTheJob(failOnFlaky: Bool) -> Bool {
    guard quarantine == nil else { return false }
    switch status {
    case .failed, .failsInSuite, .notRun: return true
    case .flaky: return failOnFlaky
    case .passed, .skipped, .interrupted: return false
    }
  }
}

extension CITest.Status {
  /// The status as the text answer heads a test's block with.
  package var label: String {
    switch self {
    case .failsInSuite: "FAILS IN SUITE"
    default: rawValue.uppercased()
    }
  }
}

/// One test in a CI run: its outcome in the suite's one pass, then in each retry alone, and what
/// that makes it.
package struct CITest: Sendable, Equatable {
  /// What a test is after its pass and its retries.
  package enum Status: String, Sendable, CaseIterable {
    /// Passed in the suite's pass.
    case passed
    /// Failed (or crashed, or hung) in the pass, then passed in a retry alone.
    case flaky
    /// Failed in the pass and in every retry.
    case failed
    /// The framework skipped it.
    case skipped
    /// The lab could not run it: its processes ended before it started.
    case notRun
    /// Failed in the pass; Ctrl-C or SIGTERM cut its retries before one passed: neither flaky
    /// nor failed, since the retries that would have told were never run.
    case interrupted

    /// It ran: passed, flaky or failed. Only these say anything of a rate.
    package var ran: Bool {
      switch self {
      case .passed, .flaky, .failed: true
      case .skipped, .notRun, .interrupted: false
      }
    }

    /// Its first attempt failed: flaky or failed.
    package var failedFirst: Bool {
      switch self {
      case .flaky, .failed, .interrupted: true
      case .passed, .skipped, .notRun: false
      }
    }

    /// Some attempt passed: passed or flaky.
    package var passedOnce: Bool {
      switch self {
      case .passed, .flaky: true
      case .failed, .skipped, .notRun, .interrupted: false
      }
    }
  }

  /// One run of the test: the suite's pass first, then each retry alone.
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

    package init(outcome: Outcome, example: String? = nil, seconds: Double, place: SourceLocation? = nil, index: Int = 0) {
      self.outcome = outcome
      self.example = example
      self.seconds = seconds
      self.place = place
      self.index = index
    }

    /// Whether it counts against the test: failed, crashed or timed out.
    package var failed: Bool { outcome != .passed && !outcome.isOutsideTheRate }
  }

  package let test: PackageTest
  package var attempts: [Attempt]
  /// Where the test is declared, where the lab could tell.
  package var location: SourceLocation?
  /// The quarantine entry that keeps its failures from failing the job, if it is listed.
  package var quarantine: Quarantine.Entry?
  /// Whether Ctrl-C or SIGTERM came while it was being retried: its status is what the runs
  /// before said, not what its retries would have.
  package var retriesCut = false

  package init(test: PackageTest, attempts: [Attempt], location: SourceLocation? = nil, quarantine: Quarantine.Entry? = nil) {
    self.test = test
    self.attempts = attempts
    self.location = location
    self.quarantine = quarantine
  }

  package var status: Status {
    guard let first = attempts.first else { return .notRun }
    if case .skipped = first.outcome { return .skipped }
    guard first.failed else { return first.outcome == .executorChanged ? .notRun : .passed }
    if attempts.dropFirst().contains(where: { $0.outcome == .passed }) { return .flaky }
    return retriesCut ? .interrupted : .failed
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

  /// Whether the test fails the job: failed for good or never started (as `swift test` would
  /// fail), or flaky when flaky fails it too; never when it is quarantined.
  package func failsTheJob(failOnFlaky: Bool) -> Bool {
    guard quarantine == nil else { return false }
    return status == .failed || status == .notRun || (failOnFlaky && status == .flaky)
  }
}

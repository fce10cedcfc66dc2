package import FlakeLab
package import Foundation

/// What `flakelab history` concludes over a window of the history: each test that failed, with
/// its CI failure rate and interval, its flip rate, the commits on which it both passed and
/// failed and the first of them; the tests that stopped flaking; the quarantined tests ready to
/// leave; and the gate's verdict. Derived once (``HistoryAnalysis``); text, JSON, markdown and
/// HTML render it.
package struct HistoryAnswer: Sendable, Equatable {
  package struct Window: Sendable, Equatable {
    package var from: Date
    package var to: Date
    package var branch: String?

    package init(from: Date, to: Date, branch: String?) {
      self.from = from
      self.to = to
      self.branch = branch
    }
  }

  /// One run of a test, as its timeline shows it.
  package struct Point: Sendable, Equatable {
    package var started: Date
    package var commit: String?
    package var kind: RecordedRun.Kind
    package var status: CITest.Status
    package var attempts: Int
    package var failures: Int
    /// Flaky only by a crash of the process that none of the tests in flight caused alone.
    package var besideACrash = false

    /// A CI run (`ci`, JUnit) in which the test ran and says something of it.
    package var isCIRun: Bool { kind.isCI && status.ran && !besideACrash }
    /// Its first attempt failed, and the failure was its own.
    package var failedFirst: Bool { status.failedFirst && !besideACrash }
  }

  /// A run whose process crashed with tests in flight of which none crashed alone: one of them
  /// crashes, which no run alone showed. Its tests' failures there count for none of them.
  package struct CrashInFlight: Sendable, Equatable {
    package var started: Date
    package var commit: String?
    /// The crash, with the tests in flight that passed alone (those that failed alone too failed
    /// on their own).
    package var crash: CrashBesideOthers

    package init(started: Date, commit: String?, tests: [String]) {
      self.started = started
      self.commit = commit
      crash = CrashBesideOthers(inFlight: tests, how: nil)
    }

    package var tests: [String] { crash.inFlight }
  }

  package struct TestHistory: Sendable, Equatable {
    package var test: String
    /// CI runs (`ci` and JUnit) in which the test ran, and those whose first attempt failed.
    package let ciRuns: Int
    package let ciFailures: Int
    /// The CI failure rate's Wilson interval at the history's confidence, derived from the
    /// counts once, here; nil with no CI run.
    package let ciInterval: WilsonInterval?
    /// Consecutive CI runs whose first attempts differ (one passed, the other failed), and how
    /// many pairs there were.
    package var flips: Int
    package var pairs: Int
    /// Commits on which the test both passed and failed (a flaky run, or a pass and a failure in
    /// runs of the same commit), the strongest evidence of flakiness; oldest first.
    package var flakyCommits: [String]
    /// Where and when it first flaked in the window: the commit of the earliest failure on one
    /// of ``flakyCommits``.
    package var firstFlaked: Point?
    /// Every run of the test in the window, oldest first (lab runs too).
    package var timeline: [Point]

    package init(
      test: String, ciRuns: Int, ciFailures: Int, confidence: Double, flips: Int, pairs: Int, flakyCommits: [String],
      firstFlaked: Point?, timeline: [Point]
    ) {
      self.test = test
      self.ciRuns = ciRuns
      self.ciFailures = ciFailures
      ciInterval = ciRuns == 0 ? nil : WilsonInterval(failures: ciFailures, iterations: ciRuns, confidence: confidence)
      self.flips = flips
      self.pairs = pairs
      self.flakyCommits = flakyCommits
      self.firstFlaked = firstFlaked
      self.timeline = timeline
    }

    /// The CI failure rate: 0 with no CI run.
    package var rate: Double { ciRuns == 0 ? 0 : Double(ciFailures) / Double(ciRuns) }
    /// The interval's bounds: all of [0, 1] with no CI run.
    package var low: Double { ciInterval?.low ?? 0 }
    package var high: Double { ciInterval?.high ?? 1 }

    package var flipRate: Double { pairs == 0 ? 0 : Double(flips) / Double(pairs) }
    /// Whether the window shows it flaky: it both passed and failed on one commit (or in one run).
    package var isFlaky: Bool { firstFlaked != nil }
    /// Whether, never flaky, it failed every time in a suite after the tests before it and passed
    /// alone in some CI run (``CITest/Status/failsInSuite``): a test before it fails it.
    package var failsInSuite: Bool { !isFlaky && timeline.contains { $0.status == .failsInSuite } }
  }

  /// A race the thread sanitizer reported for a test in the window, a finding of its own kind: a
  /// race is no failure, and no rate counts it.
  package struct RaceHistory: Sendable, Equatable {
    package var race: RaceID
    package var variable: String?
    /// The test's run in which the window first showed it, and the last.
    package var first: Point
    package var last: Point
    /// Runs that ran the test sanitized from its first showing on, and of them those that
    /// reported it.
    package var sanitizedRuns: Int
    package var reportedRuns: Int
    /// The test's sanitized runs since the last that reported it.
    package var missedRuns: Int
    /// Whether no run before the window recorded it.
    package var isNew: Bool
    /// Whether the quarantine lists the test's races: they fail no gate.
    package var isQuarantined: Bool

    package init(
      race: RaceID, variable: String?, first: Point, last: Point, sanitizedRuns: Int, reportedRuns: Int,
      missedRuns: Int, isNew: Bool, isQuarantined: Bool
    ) {
      self.race = race
      self.variable = variable
      self.first = first
      self.last = last
      self.sanitizedRuns = sanitizedRuns
      self.reportedRuns = reportedRuns
      self.missedRuns = missedRuns
      self.isNew = isNew
      self.isQuarantined = isQuarantined
    }

    /// Whether it may still be there: fewer than ``HistoryAnalysis/racesGoneAfter`` of the
    /// test's sanitized runs in a row have missed it.
    package var isOpen: Bool { missedRuns < HistoryAnalysis.racesGoneAfter }

    /// Whether it fails a gate on new races: new, not gone, not quarantined.
    package var failsRaceGate: Bool { isNew && isOpen && !isQuarantined }
  }

  package struct GateResult: Sendable, Equatable {
    package var maxFailureRate: Double
    /// Tests whose interval lies wholly above the bound: shown to fail more often.
    package var over: [String]
    /// Tests whose interval straddles the bound: too few runs to tell, which does not fail the job.
    package var undecided: [String]
  }

  package var window: Window
  package var confidence: Double
  /// Runs in the window: CI runs (`ci`, JUnit) and lab runs (`test`).
  package var ciRuns: Int
  package var labRuns: Int
  package var commits: Int
  /// Every test that did not pass in some run of the window, the flaky first, then by rate.
  package var tests: [TestHistory]
  /// Runs whose process crashed with tests in flight that passed alone, oldest first.
  package var crashes: [CrashInFlight]
  /// Tests that flaked in the window and then passed each of their last ``quietRuns`` CI runs.
  package var stoppedFlaking: [String]
  package var quietRuns: Int
  /// Quarantined tests that passed each of their last ``quietRuns`` recorded CI runs.
  package var readyToLeave: [String]
  /// The tests the quarantine lists, sorted.
  package var quarantined: [String] = []
  package var gate: GateResult?
  /// The races the window's sanitized runs reported: those that fail the gate on new races
  /// first, then those not gone, each in the order first reported.
  package var races: [RaceHistory] = []
  /// Whether `--fail-on-new-races` asked for a gate on them.
  package var gatesNewRaces = false

  /// The races that fail the gate on new races, when it was asked for.
  package var newRaces: [RaceHistory] { gatesNewRaces ? races.filter(\.failsRaceGate) : [] }

  /// Whether the job fails: the gate found a test over its bound, or a new race.
  package var failsTheJob: Bool { !(gate?.over.isEmpty ?? true) || !newRaces.isEmpty }
}

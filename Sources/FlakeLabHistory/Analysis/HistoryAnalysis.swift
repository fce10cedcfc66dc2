package import FlakeLab
import Foundation

/// The history's runs of a window, judged (``HistoryAnswer``). A CI run (`flakelab ci`, JUnit)
/// counts once per test, by its first attempt, which is what a job without retries would have
/// seen; the runs are taken as independent trials of that (machines and load differ from run
/// to run, so the interval is of what CI saw, not of a lab's rate). A lab run (`flakelab test`)
/// is evidence on its commit, never a CI rate.
package enum HistoryAnalysis {
  /// Runs in a row a test passed that make it stop flaking, or leave the quarantine, unless told.
  package static let defaultQuietRuns = 20

  /// `runs` (the window's, oldest first) judged; `quarantined`, each quarantined test's last
  /// ``HistoryAnswer/quietRuns`` CI statuses, newest first (their failures fail no gate); a gate
  /// when `maxFailureRate` is set. `knownRaces`, the races runs before the window recorded;
  /// `racesQuarantined`, the tests whose races the quarantine lists; a gate on new races when
  /// `failOnNewRaces`.
  package static func answer(
    _ runs: [RecordedRun], window: HistoryAnswer.Window, quarantined: [String: [CITest.Status]] = [:],
    quietRuns: Int = defaultQuietRuns, maxFailureRate: Double? = nil,
    confidence: Double = FailureRateEstimate.defaultConfidence, knownRaces: Set<RaceID> = [],
    racesQuarantined: Set<String> = [], failOnNewRaces: Bool = false
  ) -> HistoryAnswer {
    var timelines: [String: [HistoryAnswer.Point]] = [:]
    for run in runs {
      for result in run.results {
        timelines[result.test, default: []].append(
          .init(
            started: run.started, commit: run.commit, kind: run.kind, status: result.status, attempts: result.attempts,
            failures: result.failures, besideACrash: result.besideACrash))
      }
    }
    let histories = timelines.map { test(named: $0.key, $0.value, confidence: confidence) }
    let failing = histories.filter { history in history.timeline.contains(where: \.failedFirst) }
      .sorted { ($0.isFlaky ? 0 : 1, -$0.rate, $0.test) < ($1.isFlaky ? 0 : 1, -$1.rate, $1.test) }
    let stopped = failing.filter { history in
      let ci = history.timeline.filter(\.isCIRun)
      return history.isFlaky && ci.count >= quietRuns && ci.suffix(quietRuns).allSatisfy { $0.status == .passed }
    }.map(\.test)
    let ready = readyToLeave(quarantined, quietRuns: quietRuns)
    // A quarantined test fails no job, this gate's either.
    let gated = failing.filter { $0.ciRuns > 0 && quarantined[$0.test] == nil }
    let gate = maxFailureRate.map { bound in
      HistoryAnswer.GateResult(
        maxFailureRate: bound, over: gated.filter { $0.low > bound }.map(\.test),
        undecided: gated.filter { $0.low <= bound && $0.high > bound }.map(\.test))
    }
    let crashes = runs.compactMap { run -> HistoryAnswer.CrashInFlight? in
      let inFlight = run.results.filter(\.besideACrash).map(\.test)
      return inFlight.isEmpty ? nil : .init(started: run.started, commit: run.commit, tests: inFlight.sorted())
    }
    var answer = HistoryAnswer(
      window: window, confidence: confidence, ciRuns: runs.filter(\.kind.isCI).count,
      labRuns: runs.filter { !$0.kind.isCI }.count, commits: Set(runs.compactMap(\.commit)).count,
      tests: failing, crashes: crashes, stoppedFlaking: stopped, quietRuns: quietRuns, readyToLeave: ready, gate: gate)
    answer.quarantined = quarantined.keys.sorted()
    answer.races = races(in: runs, known: knownRaces, quarantined: racesQuarantined)
    answer.gatesNewRaces = failOnNewRaces
    return answer
  }

  /// Recorded runs in a row that ran a test sanitized without reporting one of its races that
  /// make the race gone: a race shows in some of a run's sanitized processes, not all, and one
  /// quiet run of five processes misses a race present in a fifth of them a third of the time;
  /// three miss it once in thirty.
  package static let racesGoneAfter = 3

  /// Each race the runs reported, followed through the test's sanitized runs from its first
  /// report on: a run that ran the test sanitized and did not report it counts against it, and
  /// ``racesGoneAfter`` such runs in a row make it gone.
  private static func races(
    in runs: [RecordedRun], known: Set<RaceID>, quarantined: Set<String>
  ) -> [HistoryAnswer.RaceHistory] {
    var found: [RaceID: HistoryAnswer.RaceHistory] = [:]
    var order: [RaceID] = []
    for run in runs {
      for result in run.results {
        // A test no sanitized process ran to an end (the budget spent first) says nothing.
        guard (result.sanitizedRuns ?? 0) > 0 else { continue }
        let point = HistoryAnswer.Point(
          started: run.started, commit: run.commit, kind: run.kind, status: result.status, attempts: result.attempts,
          failures: result.failures, besideACrash: result.besideACrash)
        let reported = Set(result.races.map { RaceID(test: result.test, lines: $0.lines) })
        // The races already followed for this test: this sanitized run reported each or not.
        for id in order where id.test == result.test && !reported.contains(id) {
          found[id]?.sanitizedRuns += 1
          found[id]?.missedRuns += 1
        }
        for race in result.races {
          let id = RaceID(test: result.test, lines: race.lines)
          if found[id] == nil {
            order.append(id)
            found[id] = .init(
              race: id, variable: race.variable, first: point, last: point, sanitizedRuns: 0, reportedRuns: 0,
              missedRuns: 0, isNew: !known.contains(id), isQuarantined: quarantined.contains(result.test))
          }
          found[id]?.sanitizedRuns += 1
          found[id]?.reportedRuns += 1
          found[id]?.last = point
          found[id]?.missedRuns = 0
        }
      }
    }
    return order.compactMap { found[$0] }.enumerated().sorted { left, right in
      let (l, r) = (left.element, right.element)
      return (l.failsRaceGate ? 0 : 1, l.isOpen ? 0 : 1, left.offset) < (
        r.failsRaceGate ? 0 : 1, r.isOpen ? 0 : 1, right.offset
      )
    }.map(\.element)
  }

  /// The quarantined tests whose last `quietRuns` CI statuses (newest first) all passed.
  package static func readyToLeave(_ recent: [String: [CITest.Status]], quietRuns: Int = defaultQuietRuns) -> [String] {
    recent.filter { $0.value.count >= quietRuns && $0.value.prefix(quietRuns).allSatisfy { $0 == .passed } }.map(\.key)
      .sorted()
  }

  private static func test(
    named test: String, _ timeline: [HistoryAnswer.Point], confidence: Double
  ) -> HistoryAnswer.TestHistory {
    let ci = timeline.filter(\.isCIRun)
    let failures = ci.filter(\.failedFirst).count
    let flips = zip(ci, ci.dropFirst()).filter { $0.failedFirst != $1.failedFirst }.count
    // A commit on which the test both passed and failed, in order of its first run.
    var passedOn: Set<String> = []
    var failedOn: Set<String> = []
    var flaky: [String] = []
    for point in timeline where !point.besideACrash {
      guard let commit = point.commit else { continue }
      if point.status.passedOnce { passedOn.insert(commit) }
      if point.failedFirst { failedOn.insert(commit) }
      if passedOn.contains(commit), failedOn.contains(commit), !flaky.contains(commit) { flaky.append(commit) }
    }
    // A flaky run with no commit is evidence too; its own point is where it flaked.
    let first = timeline.first { point in
      point.failedFirst && (point.status == .flaky || point.commit.map(flaky.contains) == true)
    }
    return HistoryAnswer.TestHistory(
      test: test, ciRuns: ci.count, ciFailures: failures, confidence: confidence, flips: flips,
      pairs: max(0, ci.count - 1), flakyCommits: flaky, firstFlaked: first, timeline: timeline)
  }
}

import Foundation

/// What `flakelab test` says of its tests besides the blocks of those that are not stable: the
/// stable ones and how many passes under each executor their verdict rests on, those skipped or
/// never started, those never measured under an executor (and why), and what was cut short.
/// Derived once from a report; the text answer, markdown and HTML render its sentences.
package struct SuiteSummary: Sendable, Equatable {
  /// Under one executor of the screen, the fewest and the most passes a verdict rests on.
  package struct Passes: Sendable, Equatable {
    package let executor: ExecutorID
    package let fewest: Int
    package let most: Int
    /// The fewest of the tests measured there at all (a test that turned the executor off in
    /// every pass has none, and its verdict rests on the other executors).
    package let fewestMeasured: Int?
    /// The screen's mode: suite passes, or the tests one at a time or each alone.
    package var layout = TestReference.ProcessLayout.suite
  }

  /// A test under an executor of the screen, named for why: not one of its iterations counted
  /// there (``unmeasured``), or it left that executor's later passes (``settled``).
  package struct TestUnder: Sendable, Equatable {
    package let test: String
    package let executor: ExecutorID
    /// Why: the test turned the executor off in every iteration, or the run stopped before any.
    package let why: Why
  }

  package enum Why: Sendable, Equatable, Hashable {
    case executorChanged
    case stopped(RunStop?)
  }

  /// Runs cut short by one cause, and the iterations they did not run.
  package struct Cut: Sendable, Equatable {
    package let stop: RunStop
    package let runs: Int
    package let iterations: Int
  }

  /// Passes of the screen under one executor, where half of `--budget` ended them: the screen
  /// starts no pass that would end after half of it, to leave the diagnosis the rest.
  package struct ScreenCut: Sendable, Equatable {
    package let executor: ExecutorID
    package let ran: Int
    package let planned: Int
  }

  /// A test that took a second or more a pass under an executor, the slowest first.
  package struct Slow: Sendable, Equatable {
    package let test: String
    package let executor: ExecutorID
    /// Its own time a pass, on average.
    package let seconds: Double
    /// Its diagnosis, when it is not stable: why a pass takes it that long (blocks-thread: it
    /// waits out its timeouts on one queue).
    package var cause: TestDiagnosis? = nil
  }

  package let stable: [String]
  /// The screen's other modes under the executors that ran them (one at a time, alone), each
  /// with the passes a stable verdict rests on there.
  package let stableAlsoOver: [Passes]
  package let stableOver: [Passes]
  package let skipped: [String]
  package let neverStarted: [String]
  package let unmeasured: [TestUnder]
  package let cut: [Cut]
  package let screenCut: [ScreenCut]
  /// `--budget`, where it ended the screen's passes.
  package let budget: Duration?
  /// Tests that left an executor's later passes after their first ones waited in vain.
  package let settled: [TestUnder]
  package let slowest: [Slow]
  /// No test failed: the rule of three then says what the passes can and cannot exclude.
  package let noFailure: Bool

  package init(_ report: Report) {
    let stableFindings = report.tests.filter { $0.verdict == .stable }
    stable = stableFindings.map(\.test.id)
    let stableRuns = stableFindings.flatMap(\.runs)
    stableOver = Self.passes(stableRuns, in: .suite, under: report.runs.map(\.executor).uniqued())
    stableAlsoOver = [TestReference.ProcessLayout.oneAtATime, .alone].flatMap { Self.passes(stableRuns, in: $0) }
    skipped = report.tests.filter { $0.verdict == .skipped }.map(\.test.id)
    // A test measured under no executor because each left its executor off ran: it is unmeasured
    // there, never "never started".
    let turnedOff = { (finding: TestFinding) in
      finding.runs.contains { $0.test?.layout == .suite && $0.tally.executorChanged > 0 }
    }
    neverStarted = report.tests.filter { $0.verdict == .notRun && !turnedOff($0) }.map(\.test.id)
    unmeasured = report.tests.filter { $0.verdict != .skipped && ($0.verdict != .notRun || turnedOff($0)) }.flatMap {
      finding in
      finding.runs.filter { $0.test?.layout == .suite && $0.tally.ran == 0 && $0.tally.skipped == 0 }.map { run in
        TestUnder(
          test: finding.test.id, executor: run.executor,
          why: run.tally.executorChanged > 0 ? .executorChanged : .stopped(run.stop))
      }
    }
    let isScreen = report.runs.contains { $0.test?.layout == .suite }
    // A pass is a process of each framework's tests: an executor's passes are its runs' fewest.
    let screenRuns = (isScreen ? report.runs : []).filter { $0.stop == .budgetSpent && $0.notRun > 0 }
    screenCut = screenRuns.map(\.executor).uniqued().map { executor in
      let runs = screenRuns.filter { $0.executor == executor }
      return ScreenCut(
        executor: executor, ran: runs.map(\.tally.iterations).min() ?? 0,
        planned: runs.map { $0.tally.iterations + $0.notRun }.max() ?? 0)
    }
    budget = screenCut.isEmpty ? nil : report.budget
    let allRuns =
      report.runs.filter { !isScreen || $0.stop != .budgetSpent }
      + report.tests.flatMap(\.runs).filter { $0.test?.layout != .suite }
    cut = [RunStop.budgetSpent, .interrupted].compactMap { stop in
      let runs = allRuns.filter { $0.stop == stop && $0.notRun > 0 }
      return runs.isEmpty ? nil : Cut(stop: stop, runs: runs.count, iterations: runs.reduce(0) { $0 + $1.notRun })
    }
    let screen = report.tests.flatMap(\.runs).filter { $0.test?.layout == .suite }
    settled = screen.filter {
      [.everyIterationFailedSlowly, .everyIterationTimedOut].contains($0.stop) && $0.notRun > 0
    }
    .compactMap { run in run.test.map { TestUnder(test: $0.test.id, executor: run.executor, why: .stopped(run.stop)) } }
    slowest = Self.slowest(screen, causes: report.tests)
    noFailure = report.unstableTests.isEmpty && report.testsInFlightAtCrashes.isEmpty && !stable.isEmpty
  }

  /// Under each of `executors` (those `runs` ran under, in order, when nil), the passes in
  /// `layout` the stable verdicts rest on.
  private static func passes(
    _ runs: [RunResult], in layout: TestReference.ProcessLayout, under executors: [ExecutorID]? = nil
  ) -> [Passes] {
    let inLayout = runs.filter { $0.test?.layout == layout }
    return (executors ?? inLayout.map(\.executor).uniqued()).compactMap { executor in
      let passes = inLayout.filter { $0.executor == executor }.map(\.tally.ran)
      guard let fewest = passes.min(), let most = passes.max() else { return nil }
      let fewestMeasured = passes.filter { $0 > 0 }.min()
      return Passes(executor: executor, fewest: fewest, most: most, fewestMeasured: fewestMeasured, layout: layout)
    }
  }

  /// The tests that took ``slow`` or more a pass in `screen`, each once, under the executor it
  /// was slowest under, with its diagnosis among `findings`; the slowest first.
  private static func slowest(_ screen: [RunResult], causes findings: [TestFinding]) -> [Slow] {
    let slow = screen.compactMap { run -> Slow? in
      guard let test = run.test, let seconds = run.testSeconds, run.tally.iterations > 0 else { return nil }
      let perPass = seconds / Double(run.tally.iterations)
      return perPass >= Self.slow ? Slow(test: test.test.id, executor: run.executor, seconds: perPass) : nil
    }
    let causes = Dictionary(findings.map { ($0.test.id, $0.diagnosis) }, uniquingKeysWith: { first, _ in first })
    return Dictionary(grouping: slow, by: \.test).values.compactMap { $0.max { $0.seconds < $1.seconds } }
      .map { slow in
        var slow = slow
        slow.cause = causes[slow.test] ?? nil
        return slow
      }
      .sorted { ($1.seconds, $0.test) < ($0.seconds, $1.test) }
  }

  /// A headline and the tests it names: the stable, the skipped, the never started, and each
  /// executor under which some tests were never measured, for one reason.
  package struct Group: Sendable, Equatable {
    package let headline: String
    package let tests: [String]
    /// Whether the sentence names the tests (all but the stable, which are many and fine).
    package let namesTests: Bool
  }

  package var groups: [Group] {
    var groups: [Group] = []
    if !stable.isEmpty {
      groups.append(
        Group(
          headline: "\(Self.count(stable.count, "test")) stable over \(passesText)", tests: stable, namesTests: false))
    }
    if !skipped.isEmpty {
      groups.append(
        Group(
          headline: "\(Self.count(skipped.count, "test")) skipped by the framework", tests: skipped, namesTests: true))
    }
    if !neverStarted.isEmpty {
      groups.append(
        Group(
          headline: "\(Self.count(neverStarted.count, "test")) never started", tests: neverStarted, namesTests: true))
    }
    for group in Dictionary(grouping: unmeasured, by: { UnmeasuredGroup(executor: $0.executor, why: $0.why) })
      .sorted(by: { ($0.key.executor.name, $0.key.text) < ($1.key.executor.name, $1.key.text) })
    {
      groups.append(
        Group(
          headline:
            "\(Self.count(group.value.count, "test")) never measured under \(group.key.executor) (\(group.key.text))",
          tests: group.value.map(\.test), namesTests: true))
    }
    return groups
  }

  /// A test that takes this long a pass is named among the slowest.
  static let slow = 1.0

  /// The slowest tests, those that left an executor's later passes, what was cut short, and
  /// what passes without a failure can and cannot exclude; each test ID as `code` renders it.
  package func notes(code: (String) -> String) -> [String] {
    var notes: [String] = []
    if !slowest.isEmpty {
      let named = slowest.prefix(5).map {
        "\(code($0.test)) \(Formatting.duration(.seconds($0.seconds))) (\($0.executor)\($0.cause.map { "; \($0.rawValue)" } ?? ""))"
      }
      notes.append(
        "Slowest, a pass on average: " + Formatting.list(named)
          + (slowest.count > 5 ? " and \(slowest.count - 5) more" : "")
          + " (JSON runs[].testSeconds).")
    }
    for group in Dictionary(grouping: settled, by: \.executor).sorted(by: { $0.key.name < $1.key.name }) {
      notes.append(
        "\(Self.count(group.value.count, "test")) left the later passes under \(group.key) once settled (each of its first "
          + "\(RunSettling.limit) timed out or failed after waiting \(Formatting.duration(PassSupervisor.slowFailure)) or more): "
          + Self.names(group.value.map(\.test), code) + ".")
    }
    if !screenCut.isEmpty {
      let half = budget.map { " (\(Formatting.duration($0 / 2)) of \(Formatting.duration($0)))" } ?? ""
      let passes = screenCut.map { "\($0.ran) of \($0.planned) passes under \($0.executor)" }
      let stop =
        noFailure
        ? "No test failed, so the screen went on past half of --budget\(half), toward its end"
        : "The screen stops at half of --budget\(half) once a test has failed, to leave the diagnosis the rest"
      notes.append(
        stop + ": it ran " + Formatting.list(passes) + ". Raise --budget, or lower --iterations, for every pass.")
    }
    notes += cut.map { cut in
      (cut.stop == .budgetSpent ? "The --budget cut " : "The interrupt cut ")
        + "\(Self.count(cut.runs, "run")) short: \(Self.count(cut.iterations, "iteration")) not run."
    }
    if let caught = detectableText {
      notes.append(
        (noFailure ? "No test failed. " : "") + "A stable answer is as strong as its passes: with 95% probability they "
          + "catch a test that fails in \(caught); a rarer failure can pass them all: raise --iterations to catch it.")
    }
    return notes
  }

  /// The share of passes a failing test must fail in for `passes` of them to show a failure with
  /// 95% probability: 1 − 0.05^(1/n) (13.9% in 20 passes, 20.6% in 13).
  package static func detectableRate(passes: Int) -> Double {
    passes > 0 ? 1 - pow(0.05, 1 / Double(passes)) : 1
  }

  /// `13.93% of passes or more under global (20 passes) and serial (20 passes); 45.07% alone (5
  /// passes under global)`: under each executor, then in each other mode of the screen, from the
  /// fewest passes a stable verdict rests on there.
  /// Under an executor where a stable test had no pass (it turned the executor off), from the
  /// fewest of the others: that test's verdict rests on the other executors, which is said.
  private var detectableText: String? {
    guard let suite = suiteDetectableText else { return nil }
    let modes = stableAlsoOver.compactMap { passes in
      passes.fewestMeasured.map { fewest in
        let mode = passes.layout == .alone ? "alone" : "one at a time"
        return "\(Formatting.percent(Self.detectableRate(passes: fewest))) \(mode) "
          + "(\(Formatting.count(fewest)) pass\(fewest == 1 ? "" : "es") under \(passes.executor))"
      }
    }
    return modes.isEmpty ? suite : suite + "; " + Formatting.list(modes)
  }

  private var suiteDetectableText: String? {
    let parts = stableOver.compactMap { passes in
      passes.fewestMeasured.map { fewest in
        (
          rate: Formatting.percent(Self.detectableRate(passes: fewest)),
          under: "\(passes.executor) (\(Formatting.count(fewest)) pass\(fewest == 1 ? "" : "es"))"
        )
      }
    }
    guard !parts.isEmpty else { return nil }
    let unmeasured = stableOver.filter { $0.fewest == 0 }.map(\.executor.name)
    let rest =
      unmeasured.isEmpty
      ? "" : " (a test with no pass under \(Formatting.list(unmeasured, or: true)) rests on the others)"
    if Set(parts.map(\.rate)).count == 1 {
      return "\(parts[0].rate) of passes or more under " + Formatting.list(parts.map(\.under)) + rest
    }
    return Formatting.list(parts.map { "\($0.rate) of passes or more under \($0.under)" }) + rest
  }

  /// The summary in sentences, each test ID as `code` renders it.
  package func sentences(code: (String) -> String) -> [String] {
    groups.map { group in
      group.headline + (group.namesTests ? ": " + Self.names(group.tests, code) : "") + "."
    } + notes(code: code)
  }

  /// `20 passes under global and serial` when every executor gave every stable test as many;
  /// otherwise each executor's own, `9–20 passes under global and 0–9 under serial`.
  private var passesText: String {
    func range(_ passes: Passes) -> String {
      passes.fewest == passes.most
        ? Formatting.count(passes.most) : "\(Formatting.count(passes.fewest))–\(Formatting.count(passes.most))"
    }
    guard let first = stableOver.first else { return "no pass" }
    let noun = first.most == 1 ? " pass" : " passes"
    if stableOver.allSatisfy({ $0.fewest == first.fewest && $0.most == first.most }) {
      return range(first) + noun + " under " + Formatting.list(stableOver.map(\.executor.name))
    }
    return Formatting.list(
      stableOver.enumerated().map { index, passes in
        range(passes) + (index == 0 ? noun : "") + " under \(passes.executor)"
      })
  }

  private struct UnmeasuredGroup: Hashable {
    let executor: ExecutorID
    let why: Why

    var text: String {
      switch why {
      case .executorChanged:
        "the executor was off when each iteration ended: the test, or one before it in its process, turned it off"
      case .stopped(let stop?): ReportText.reason(stop)
      case .stopped(nil): "no iteration ran"
      }
    }
  }

  /// `a, b and c`; past five names, `a, b, c, d, e and 90 more`.
  private static func names(_ ids: [String], _ code: (String) -> String) -> String {
    let shown = ids.prefix(5).map(code)
    return ids.count > 5 ? shown.joined(separator: ", ") + " and \(ids.count - 5) more" : Formatting.list(shown)
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    "\(Formatting.count(number)) \(noun)\(number == 1 ? "" : "s")"
  }
}

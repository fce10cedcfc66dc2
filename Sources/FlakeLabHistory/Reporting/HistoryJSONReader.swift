import FlakeLab
import Foundation

extension HistoryJSON {
  /// The answer `bytes` hold, as ``render(_:)`` wrote it (the derived `flaky`, `failsInSuite`,
  /// `flipRate`, `failureRate`, `low`, `high` and `failsTheJob` are derived again), or nil when
  /// they are not one.
  package static func read(_ bytes: some Collection<UInt8>) -> HistoryAnswer? {
    guard let document = JSONParser.parse(bytes), document["command"]?.string == "history",
      let window = document["window"], let from = date(window["from"]), let to = date(window["to"]),
      let confidence = document["confidence"]?.number, let ciRuns = document["ciRuns"]?.int,
      let labRuns = document["labRuns"]?.int, let commits = document["commits"]?.int,
      let tests = document["tests"]?.array?.map({ test($0, confidence: confidence) }), !tests.contains(nil),
      let crashes = document["crashes"]?.array?.map(crash), !crashes.contains(nil),
      let quietRuns = document["quietRuns"]?.int
    else { return nil }
    // An answer written before races were kept has none.
    let races = (document["races"]?.array ?? []).map(race)
    guard !races.contains(nil) else { return nil }
    var gate: HistoryAnswer.GateResult?
    if let entry = document["gate"], entry != .null {
      guard let bound = entry["maxFailureRate"]?.number else { return nil }
      gate = .init(maxFailureRate: bound, over: strings(entry["over"]), undecided: strings(entry["undecided"]))
    }
    var answer = HistoryAnswer(
      window: .init(from: from, to: to, branch: window["branch"]?.string), confidence: confidence, ciRuns: ciRuns,
      labRuns: labRuns, commits: commits, tests: tests.compactMap { $0 }, crashes: crashes.compactMap { $0 },
      stoppedFlaking: strings(document["stoppedFlaking"]), quietRuns: quietRuns,
      readyToLeave: strings(document["readyToLeave"]), gate: gate)
    answer.quarantined = strings(document["quarantined"])
    answer.races = races.compactMap { $0 }
    answer.gatesNewRaces = document["failOnNewRaces"]?.bool ?? false
    return answer
  }

  private static func race(_ entry: JSONValue) -> HistoryAnswer.RaceHistory? {
    guard let test = entry["test"]?.string, let lines = entry["lines"]?.array?.compactMap(\.string),
      let first = entry["first"].flatMap(point), let last = entry["last"].flatMap(point),
      let sanitizedRuns = entry["sanitizedRuns"]?.int, let reportedRuns = entry["reportedRuns"]?.int,
      let missedRuns = entry["missedRuns"]?.int, let isNew = entry["new"]?.bool,
      let isQuarantined = entry["quarantined"]?.bool
    else { return nil }
    return .init(
      race: RaceID(test: test, lines: lines), variable: entry["variable"]?.string, first: first, last: last,
      sanitizedRuns: sanitizedRuns, reportedRuns: reportedRuns, missedRuns: missedRuns, isNew: isNew,
      isQuarantined: isQuarantined)
  }

  /// A test's history; its rate and interval are derived again from its counts at the answer's
  /// `confidence`, as the analysis derived them.
  private static func test(_ entry: JSONValue, confidence: Double) -> HistoryAnswer.TestHistory? {
    guard let name = entry["test"]?.string, let ciRuns = entry["ciRuns"]?.int,
      let ciFailures = entry["ciFailures"]?.int,
      let flips = entry["flips"]?.int, let pairs = entry["pairs"]?.int,
      let timeline = entry["timeline"]?.array?.map(point), !timeline.contains(nil)
    else { return nil }
    let first = entry["firstFlaked"].flatMap { $0 == .null ? nil : point($0) }
    return .init(
      test: name, ciRuns: ciRuns, ciFailures: ciFailures, confidence: confidence, flips: flips, pairs: pairs,
      flakyCommits: strings(entry["flakyCommits"]), firstFlaked: first, timeline: timeline.compactMap { $0 })
  }

  private static func point(_ entry: JSONValue) -> HistoryAnswer.Point? {
    guard let started = date(entry["started"]), let kind = entry["kind"]?.string.flatMap(RecordedRun.Kind.init),
      let status = entry["status"]?.string.flatMap(CITest.Status.init), let attempts = entry["attempts"]?.int,
      let failures = entry["failures"]?.int
    else { return nil }
    return .init(
      started: started, commit: entry["commit"]?.string, kind: kind, status: status, attempts: attempts,
      failures: failures, besideACrash: entry["besideACrash"]?.bool ?? false)
  }

  private static func crash(_ entry: JSONValue) -> HistoryAnswer.CrashInFlight? {
    guard let started = date(entry["started"]) else { return nil }
    return .init(started: started, commit: entry["commit"]?.string, tests: strings(entry["tests"]))
  }

  private static func date(_ value: JSONValue?) -> Date? {
    value?.string.flatMap(Timestamp.date)
  }

  private static func strings(_ value: JSONValue?) -> [String] {
    value?.array?.compactMap(\.string) ?? []
  }
}

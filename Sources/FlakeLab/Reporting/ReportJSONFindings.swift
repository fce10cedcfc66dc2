/// `tests[]` of the JSON report, both ways: each test's finding as ``TestFinding`` holds it, so
/// that a saved report keeps its answer for `merge`, `--baseline` and every format rendered
/// from it. The screen's runs are `runs[]`; a finding adds the diagnosis's (`drillDown`) in
/// the shape of `runs[]`. `arms`, `advice`, `neighbours` and `replay` are derived, written for
/// scripts and not read.
extension ReportJSON {
  /// A test's verdict and diagnosis with the counts of every arm behind them.
  static func finding(_ finding: TestFinding, in report: Report) -> JSONValue {
    let neighbours: [JSONValue] = (finding.diagnosis == .interference ? finding.neighbours : []).map {
      .object([(Key.test, .string($0.test.id)), (Key.passes, .int($0.passes))])
    }
    let raceEvidence: JSONValue = finding.races.map { races($0, packagePath: finding.packagePath) } ?? .null
    return .object([
      (Key.test, .string(finding.test.id)),
      (Key.framework, .string(finding.test.framework.rawValue)),
      (Key.verdict, .string(finding.verdict.rawValue)),
      (Key.diagnosis, finding.diagnosis.map { .string($0.rawValue) } ?? .null),
      (Key.advice, finding.advice.map(JSONValue.string) ?? .null),
      (Key.randomDraw, finding.randomDraw.map { .string($0.rawValue) } ?? .null),
      (Key.ruledOut, .array(finding.ruledOut.map { .string($0.rawValue) })),
      (Key.unconfirmed, finding.unconfirmed.map { .string($0.rawValue) } ?? .null),
      (Key.undecided, .array(finding.undecided.map { .string($0.rawValue) })),
      (Key.source, finding.location.map(location) ?? .null),
      (Key.open, finding.lead.map(lead) ?? .null),
      (Key.neighbours, .array(neighbours)),
      (Key.polluters, finding.polluters.map(polluters) ?? .null),
      (Key.races, raceEvidence),
      (Key.arms, .array(finding.runs.map(arm))),
      (Key.replay, finding.replay(program: report.program).map { .string($0) } ?? .null),
      (Key.noReplay, finding.noReplay.map { .string($0) } ?? .null),
      (Key.drillDown, .array(finding.runs.filter { $0.test?.layout != .suite }.map { run($0, in: report) })),
    ])
  }

  /// `{"path": "/…/UISchedulerTests.swift", "line": 30, "reason": "failure", "detail":
  /// "XCTAssertFalse failed"}`: the line to open first, and why (``LeadLine``).
  private static func lead(_ lead: LeadLine) -> JSONValue {
    .object([
      (Key.path, .string(lead.location.path)), (Key.line, .int(lead.location.line)),
      (Key.reason, .string(lead.reason.rawValue)), (Key.detail, lead.detail.map(JSONValue.string) ?? .null),
    ])
  }

  /// `{"tests": ["A"], "together": false, "complete": true, "placement": "before", "failed": 3,
  /// "passes": 3, "candidates": 12, "processes": 9}`: each of `tests` fails the test (all of
  /// them together when `together`); empty when only many neighbours together do. `complete`:
  /// without them, every other neighbour let it pass.
  private static func polluters(_ polluters: Polluters) -> JSONValue {
    .object([
      (Key.tests, .array(polluters.tests.map { .string($0.id) })),
      (Key.together, .bool(polluters.together)),
      (Key.complete, .bool(polluters.isComplete)),
      (Key.placement, .string(polluters.placement.rawValue)),
      (Key.failed, .int(polluters.failed)),
      (Key.passes, .int(polluters.passes)),
      (Key.candidates, .int(polluters.candidates)),
      (Key.processes, .int(polluters.processes)),
    ])
  }

  /// One run of a finding's, its counts and rate.
  private static func arm(_ run: RunResult) -> JSONValue {
    .object([
      (Key.processLayout, .string(run.test?.layout.rawValue ?? "")),
      (Key.executor, .string(run.executor.name)),
      (Key.ran, .int(run.tally.ran)),
      (Key.notPassed, .int(run.tally.notPassed)),
      (Key.timedOut, .int(run.tally.timedOut)),
      (Key.crashed, .int(run.tally.crashed)),
      (Key.executorChanged, .int(run.tally.executorChanged)),
      (Key.failureRate, run.estimate.hasRate ? .double(run.estimate.rate) : .null),
      (Key.low, .double(run.estimate.low)),
      (Key.high, .double(run.estimate.high)),
      (Key.notRun, .int(run.notRun)),
      (Key.stopped, run.stop.map { .string($0.rawValue) } ?? .null),
    ])
  }

  /// The finding `entry` holds, its runs the screen's of its test (`screen`, the report's
  /// `runs[]`) and its diagnosis's. A report from before `drillDown` gives the screen's only.
  static func finding(_ entry: JSONValue, screen: [RunResult], name: String) throws(ReportFileError) -> TestFinding {
    guard let id = entry[Key.test]?.string else { throw .malformed(path: name, .finding(test: "?")) }
    let malformed = ReportFileError.malformed(path: name, .finding(test: id))
    guard let framework = entry[Key.framework]?.string.flatMap(PackageTest.Framework.init),
      let verdict = entry[Key.verdict]?.string.flatMap(TestVerdict.init)
    else { throw malformed }
    let test = PackageTest(id: id, framework: framework)
    var diagnosis: TestDiagnosis?
    if let named = entry[Key.diagnosis]?.string {
      guard let known = TestDiagnosis(reading: named) else { throw malformed }
      diagnosis = known
    }
    var drilled: [RunResult] = []
    for run in entry[Key.drillDown]?.array ?? [] {
      let result = try self.run(run, name: name)
      guard result.test?.test == test, result.test?.layout != .suite else { throw malformed }
      drilled.append(result)
    }
    var finding = TestFinding(
      test: test, verdict: verdict, diagnosis: diagnosis,
      runs: screen.filter { $0.test?.test == test && $0.test?.layout == .suite } + drilled)
    if let draw = entry[Key.randomDraw]?.string {
      guard let known = Diagnostician.RandomDraw(rawValue: draw) else { throw malformed }
      finding.randomDraw = known
    }
    for cause in entry[Key.ruledOut]?.array ?? [] {
      guard let known = cause.string.flatMap(TestDiagnosis.init(reading:)) else { throw malformed }
      finding.ruledOut.append(known)
    }
    for cause in entry[Key.undecided]?.array ?? [] {
      guard let known = cause.string.flatMap(TestDiagnosis.init(reading:)) else { throw malformed }
      finding.undecided.append(known)
    }
    if let cause = entry[Key.unconfirmed]?.string {
      guard let known = TestDiagnosis(reading: cause) else { throw malformed }
      finding.unconfirmed = known
    }
    if let source = entry[Key.source], source.isObject {
      guard let location = location(reading: source) else { throw malformed }
      finding.location = location
    }
    if let open = entry[Key.open], open.isObject {
      guard let location = location(reading: open),
        let reason = open[Key.reason]?.string.flatMap(LeadLine.Reason.init(rawValue:))
      else { throw malformed }
      finding.lead = LeadLine(location: location, reason: reason, detail: open[Key.detail]?.string)
    }
    if let polluters = entry[Key.polluters], polluters.isObject {
      guard let read = Self.polluters(polluters, framework: framework) else { throw malformed }
      finding.polluters = read
    }
    if let races = entry[Key.races], races.isObject {
      guard let read = Self.races(reading: races, framework: framework) else { throw malformed }
      finding.races = read
    }
    return finding
  }

  /// The polluters as ``polluters(_:)`` wrote them; they are of the victim's framework.
  private static func polluters(_ entry: JSONValue, framework: PackageTest.Framework) -> Polluters? {
    guard let tests = entry[Key.tests]?.array,
      let placement = entry[Key.placement]?.string.flatMap(Polluters.Placement.init),
      let failed = entry[Key.failed]?.int, let passes = entry[Key.passes]?.int,
      let candidates = entry[Key.candidates]?.int,
      let processes = entry[Key.processes]?.int
    else { return nil }
    let ids = tests.compactMap(\.string)
    guard ids.count == tests.count else { return nil }
    return Polluters(
      tests: ids.map { PackageTest(id: $0, framework: framework) }, together: entry[Key.together]?.bool ?? false,
      isComplete: entry[Key.complete]?.bool ?? false, placement: placement, failed: failed, passes: passes,
      candidates: candidates, processes: processes)
  }
}

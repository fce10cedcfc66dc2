/// The machine-readable report (`--format json`), documented field by field in the README, and
/// read back for `merge` and `--baseline` by the same type: every key is declared once, in
/// ``Key``, and the counts once, in ``CountField``.
///
/// The shape only grows: fields are added, never renamed or removed, so scripts keep working.
package enum ReportJSON {
  /// The name of every field.
  package enum Key {
    package static let flakelab = "flakelab"
    package static let machine = "machine"
    package static let cores = "cores"
    package static let os = "os"
    package static let swift = "swift"
    package static let interrupted = "interrupted"
    package static let timeoutSeconds = "timeoutSeconds"
    package static let budgetSeconds = "budgetSeconds"
    package static let seed = "seed"
    package static let shard = "shard"
    package static let index = "index"
    package static let count = "count"
    package static let runs = "runs"
    package static let scenario = "scenario"
    package static let variant = "variant"
    package static let executor = "executor"
    package static let iterationsIndependent = "iterationsIndependent"
    package static let iterations = "iterations"
    package static let passed = "passed"
    package static let failed = "failed"
    package static let crashed = "crashed"
    package static let timedOut = "timedOut"
    package static let deadlocked = "deadlocked"
    package static let skipped = "skipped"
    package static let executorChanged = "executorChanged"
    package static let notRun = "notRun"
    package static let stopped = "stopped"
    package static let ignoredEvents = "ignoredEvents"
    package static let rerunForLostEvents = "rerunForLostEvents"
    package static let blockedIterations = "blockedIterations"
    package static let blockedPassingIterations = "blockedPassingIterations"
    package static let origins = "origins"
    package static let ruledOut = "ruledOut"
    package static let secondSeed = "secondSeed"
    package static let unconfirmed = "unconfirmed"
    package static let undecided = "undecided"
    package static let blockedAt = "blockedAt"
    package static let testSeconds = "testSeconds"
    package static let iterationTimes = "iterationTimes"
    package static let fastestFailureSeconds = "fastestFailureSeconds"
    package static let failureRate = "failureRate"
    package static let confidence = "confidence"
    package static let level = "level"
    package static let low = "low"
    package static let high = "high"
    package static let method = "method"
    package static let dispersion = "dispersion"
    package static let replicates = "replicates"
    package static let seconds = "seconds"
    package static let failures = "failures"
    package static let observation = "observation"
    package static let outcomes = "outcomes"
    package static let outcome = "outcome"
    package static let example = "example"
    package static let frequency = "frequency"
    package static let problems = "problems"
    package static let schedule = "schedule"
    package static let fingerprint = "fingerprint"
    package static let controlled = "controlled"
    package static let failingIterations = "failingIterations"
    package static let replay = "replay"
    package static let noReplay = "noReplay"
    package static let test = "test"
    package static let framework = "framework"
    package static let processLayout = "processLayout"
    package static let tests = "tests"
    package static let sanitizer = "sanitizer"
    package static let races = "races"
    package static let diagnosis = "diagnosis"
    package static let randomDraw = "randomDraw"
    package static let advice = "advice"
    package static let neighbours = "neighbours"
    package static let polluters = "polluters"
    package static let placement = "placement"
    package static let together = "together"
    package static let complete = "complete"
    package static let candidates = "candidates"
    package static let processes = "processes"
    package static let source = "source"
    package static let path = "path"
    package static let line = "line"
    package static let place = "place"
    package static let open = "open"
    package static let detail = "detail"
    package static let passes = "passes"
    package static let arms = "arms"
    package static let ran = "ran"
    package static let notPassed = "notPassed"
    package static let packagePath = "packagePath"
    package static let claim = "claim"
    package static let verdict = "verdict"
    package static let reason = "reason"
    package static let crash = "crash"
    package static let failedBeside = "failedBeside"
    package static let drillDown = "drillDown"
    package static let crashBesideOthers = "crashBesideOthers"
    package static let how = "how"
    package static let beforeTheTestStarted = "beforeTheTestStarted"
    package static let beside = "beside"
    package static let crashedAlone = "crashedAlone"
  }

  /// The counts a run and each of its replicates carry, in the order written.
  package struct CountField: Sendable {
    package let key: String
    package let count: @Sendable (ReplicateCounts) -> Int
    /// Whether a report from before the field may lack it (it then counted none).
    let isRecent: Bool

    package static let all = [
      CountField(key: Key.iterations, count: \.iterations, isRecent: false),
      CountField(key: Key.passed, count: \.passed, isRecent: false),
      CountField(key: Key.failed, count: \.failed, isRecent: false),
      CountField(key: Key.crashed, count: \.crashed, isRecent: false),
      CountField(key: Key.timedOut, count: \.timedOut, isRecent: false),
      CountField(key: Key.deadlocked, count: \.deadlocked, isRecent: false),
      CountField(key: Key.skipped, count: \.skipped, isRecent: true),
      CountField(key: Key.executorChanged, count: \.executorChanged, isRecent: true),
    ]
  }

  package static func render(_ report: Report) -> String {
    document(report).serialized() + "\n"
  }

  package static func document(_ report: Report) -> JSONValue {
    .object([
      (Key.flakelab, .string(Report.labVersion)),
      (Key.machine, machine(report.machine)),
      (Key.interrupted, .bool(report.interrupted)),
      (Key.timeoutSeconds, report.timeout.map { .double($0.seconds) } ?? .null),
      (Key.budgetSeconds, report.budget.map { .double($0.seconds) } ?? .null),
      (Key.seed, report.seed.map { .string(String($0)) } ?? .null),
      (
        Key.shard,
        report.shard.map { .object([(Key.index, .int($0.index)), (Key.count, .int($0.count))]) }
          ?? .null
      ),
      (Key.runs, .array(report.runs.map { run($0, in: report) })),
      (Key.tests, .array(report.tests.map { finding($0, in: report) })),
      (Key.sanitizer, report.sanitizer.map(sanitizer) ?? .null),
    ])
  }

  static func run(_ result: RunResult, in report: Report) -> JSONValue {
    let tally = result.tally
    let estimate = result.estimate
    let failures: [JSONValue] = tally.outcomesByFrequency.compactMap { outcome, count in
      guard case .failed(let observation) = outcome else { return nil }
      return .object([(Key.observation, .string(observation)), (Key.count, .int(count))])
    }
    var members: [(String, JSONValue)] = [
      (Key.scenario, .string(result.scenario)),
      (Key.variant, .string(result.variant)),
      (Key.executor, .string(result.executor.name)),
      (Key.iterationsIndependent, .bool(result.iterationsAreIndependent)),
    ]
    let counts = ReplicateCounts(tally)
    members += CountField.all.map { ($0.key, .int($0.count(counts))) }
    members += [
      (Key.notRun, .int(result.notRun)),
      (Key.stopped, result.stop.map { .string($0.rawValue) } ?? .null),
      (Key.ignoredEvents, .int(result.ignoredEvents)),
      (Key.rerunForLostEvents, .int(result.rerunForLostEvents)),
      (Key.blockedIterations, .int(result.blockedIterations)),
      (Key.blockedPassingIterations, .int(result.blockedPassingIterations)),
      (Key.blockedAt, result.blockedAt.map { .string($0) } ?? .null),
      (Key.testSeconds, result.testSeconds.map { .double($0) } ?? .null),
      (Key.iterationTimes, iterationTimes(result.iterationTimes)),
      // A run that only skipped has no rate: null, never a 0% no iteration measured.
      (Key.failureRate, estimate.hasRate ? .double(tally.failureRate) : .null),
      (
        Key.confidence,
        .object([
          (Key.level, .double(estimate.confidence)),
          (Key.low, estimate.hasRate ? .double(estimate.low) : .null),
          (Key.high, estimate.hasRate ? .double(estimate.high) : .null),
          (Key.method, .string(estimate.method.rawValue)),
        ])
      ),
      (Key.dispersion, estimate.dispersion.map { .double(($0 * 1e6).rounded() / 1e6) } ?? .null),
      (Key.replicates, .array(result.replicates.map(replicateDocument))),
      (Key.seconds, .double((result.seconds * 1e6).rounded() / 1e6)),
      (Key.failures, .array(failures)),
      (Key.outcomes, .array(outcomes(tally))),
      (Key.problems, .array(result.problems.map { .string(ProblemText.describe($0)) })),
    ]
    if let schedule = result.schedule {
      members.append((Key.schedule, scheduleDocument(schedule, of: result, program: report.program)))
    }
    members += testMembers(result)
    if let verdict = result.verdict {
      members += [
        (Key.claim, .string(verdict.claim.rawValue)), (Key.verdict, .string(verdict.status.rawValue)),
        (Key.reason, .string(verdict.reason)),
      ]
    }
    return .object(members)
  }

  /// A package test's run: the test, and the tests beside it in the passes it failed.
  private static func testMembers(_ result: RunResult) -> [(String, JSONValue)] {
    guard let test = result.test else { return [] }
    var members: [(String, JSONValue)] = [
      (Key.test, .string(test.test.id)), (Key.framework, .string(test.test.framework.rawValue)),
      (Key.processLayout, .string(test.layout.rawValue)), (Key.packagePath, .string(test.packagePath)),
    ]
    if test.isConfirmation { members.append((Key.secondSeed, .bool(true))) }
    if !result.failedBeside.isEmpty {
      let beside = result.failedBeside.sorted { ($1.value, $0.key.id) < ($0.value, $1.key.id) }
      members.append(
        (
          Key.failedBeside,
          .array(beside.map { .object([(Key.test, .string($0.key.id)), (Key.passes, .int($0.value))]) })
        ))
    }
    if !result.origins.isEmpty {
      let origins = result.origins.sorted { ($0.key.path, $0.key.line) < ($1.key.path, $1.key.line) }
      let entries: [JSONValue] = origins.map {
        .object([(Key.place, location($0.key)), (Key.test, .string($0.value.id))])
      }
      members.append((Key.origins, .array(entries)))
    }
    return members
  }

  /// A test alone's iteration times; null for a run that timed none (a scenario, a suite pass).
  private static func iterationTimes(_ times: IterationTimes) -> JSONValue {
    guard times.iterations > 0 else { return .null }
    return .object([
      (Key.iterations, .int(times.iterations)), (Key.seconds, .double(times.seconds)),
      (Key.fastestFailureSeconds, times.fastestFailure.map { .double($0) } ?? .null),
    ])
  }

  private static func replicateDocument(_ counts: ReplicateCounts) -> JSONValue {
    .object(CountField.all.map { ($0.key, .int($0.count(counts))) })
  }

  /// Seeds are strings: 64-bit values do not survive JSON readers that parse numbers as doubles.
  private static func scheduleDocument(
    _ schedule: RunSchedule, of result: RunResult, program: String
  ) -> JSONValue {
    .object([
      (Key.seed, .string(String(schedule.seed))),
      (Key.fingerprint, .string(ScheduleText.hex(schedule.fingerprint))),
      (Key.controlled, .bool(schedule.isControlled)),
      (
        Key.failingIterations,
        .array(
          schedule.failingIterations.map { failing in
            .object(
              [
                (Key.index, .int(failing.index)), (Key.seed, .string(String(failing.seed))),
                (Key.fingerprint, .string(ScheduleText.hex(failing.fingerprint))),
                (Key.outcome, .string(OutcomeCoding.kind(of: failing.outcome))),
                (Key.observation, .string(OutcomeCoding.observation(of: failing.outcome) ?? "")),
              ] + OutcomeCoding.members(of: failing.outcome).filter { $0.0 == Key.crash } + [
                (
                  Key.replay,
                  schedule.isControlled
                    ? .string(ScheduleText.replayCommand(result, failing, program: program)) : .null
                )
              ])
          })
      ),
    ])
  }

  /// `{"cores": 2, "os": "Ubuntu 24.04", "swift": "6.3"}`, read back by ``machine(_:)-(JSONValue)``.
  package static func machine(_ machine: MachineInfo) -> JSONValue {
    .object([(Key.cores, .int(machine.cores)), (Key.os, .string(machine.os)), (Key.swift, .string(machine.swift))])
  }

  /// `{"path": "/…/UISchedulerTests.swift", "line": 30}`.
  static func location(_ location: SourceLocation) -> JSONValue {
    .object([(Key.path, .string(location.path)), (Key.line, .int(location.line))])
  }

  /// The location ``location(_:)`` wrote; nil for anything else.
  static func location(reading entry: JSONValue?) -> SourceLocation? {
    guard let path = entry?[Key.path]?.string, let line = entry?[Key.line]?.int else { return nil }
    return SourceLocation(path: path, line: line)
  }

  /// Every distinct outcome with its count and frequency, passes first, then most frequent.
  private static func outcomes(_ tally: Tally) -> [JSONValue] {
    tally.histogram.map { outcome, count in
      var members = OutcomeCoding.members(of: outcome)
      if let example = tally.examples[outcome] { members.append((Key.example, .string(example))) }
      if let place = tally.places[outcome] { members.append((Key.place, location(place))) }
      members += [
        (Key.count, .int(count)),
        (Key.frequency, .double(Double(count) / Double(max(tally.iterations, 1)))),
      ]
      return .object(members)
    }
  }
}

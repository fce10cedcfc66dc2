/// The machine-readable report (`--format json`), documented field by field in the README.
///
/// The shape only grows: fields are added, never renamed or removed, so scripts keep working.
package enum JSONReport {
  package static func render(_ report: Report) -> String {
    document(report).serialized() + "\n"
  }

  static func document(_ report: Report) -> JSONValue {
    .object([
      ("flakelab", .string(Report.labVersion)),
      (
        "machine",
        .object([
          ("cores", .int(report.machine.cores)),
          ("os", .string(report.machine.os)),
          ("swift", .string(report.machine.swift)),
        ])
      ),
      ("interrupted", .bool(report.interrupted)),
      ("timeoutSeconds", report.timeout.map { .double($0.seconds) } ?? .null),
      ("seed", report.seed.map { .string(String($0)) } ?? .null),
      (
        "shard",
        report.shard.map { .object([("index", .int($0.index)), ("count", .int($0.count))]) }
          ?? .null
      ),
      ("runs", .array(report.runs.map { run($0, in: report) })),
    ])
  }

  private static func run(_ result: RunResult, in report: Report) -> JSONValue {
    let tally = result.tally
    let estimate = result.estimate
    let failures: [JSONValue] = tally.outcomesByFrequency.compactMap { outcome, count in
      guard case .failed(let observation) = outcome else { return nil }
      return .object([("observation", .string(observation)), ("count", .int(count))])
    }
    var members: [(String, JSONValue)] = [
      ("scenario", .string(result.scenario)),
      ("variant", .string(result.variant)),
      ("executor", .string(result.executor.name)),
      ("iterationsIndependent", .bool(result.iterationsAreIndependent)),
      ("iterations", .int(tally.iterations)),
      ("passed", .int(tally.passed)),
      ("failed", .int(tally.failed)),
      ("crashed", .int(tally.crashed)),
      ("timedOut", .int(tally.timedOut)),
      ("deadlocked", .int(tally.deadlocked)),
      ("skipped", .int(tally.skipped)),
      ("executorChanged", .int(tally.executorChanged)),
      ("notRun", .int(result.notRun)),
      ("ignoredEvents", .int(result.ignoredEvents)),
      // A run that only skipped has no rate: null, never a 0% no iteration measured.
      ("failureRate", estimate.hasRate ? .double(tally.failureRate) : .null),
      (
        "confidence",
        .object([
          ("level", .double(estimate.confidence)),
          ("low", estimate.hasRate ? .double(estimate.low) : .null),
          ("high", estimate.hasRate ? .double(estimate.high) : .null),
          ("method", .string(estimate.method.rawValue)),
        ])
      ),
      ("dispersion", estimate.dispersion.map { .double(($0 * 1e6).rounded() / 1e6) } ?? .null),
      ("replicates", .array(result.replicates.map(replicateDocument))),
      ("seconds", .double((result.seconds * 1e6).rounded() / 1e6)),
      ("failures", .array(failures)),
      ("outcomes", .array(outcomes(tally))),
      ("problems", .array(result.problems.map { .string(ProblemText.describe($0)) })),
    ]
    if let schedule = result.schedule {
      members.append(("schedule", scheduleDocument(schedule, of: result, program: report.program)))
    }
    if let test = result.test {
      members += [
        ("test", .string(test.test.id)), ("framework", .string(test.test.framework.rawValue)),
        ("processLayout", .string(test.layout.rawValue)), ("packagePath", .string(test.packagePath)),
      ]
    }
    if let verdict = result.verdict {
      members += [
        ("claim", .string(verdict.claim.rawValue)), ("verdict", .string(verdict.status.rawValue)),
        ("reason", .string(verdict.reason)),
      ]
    }
    return .object(members)
  }

  private static func replicateDocument(_ counts: ReplicateCounts) -> JSONValue {
    .object([
      ("iterations", .int(counts.iterations)), ("passed", .int(counts.passed)),
      ("failed", .int(counts.failed)), ("crashed", .int(counts.crashed)),
      ("timedOut", .int(counts.timedOut)), ("deadlocked", .int(counts.deadlocked)),
      ("skipped", .int(counts.skipped)), ("executorChanged", .int(counts.executorChanged)),
    ])
  }

  /// Seeds are strings: 64-bit values do not survive JSON readers that parse numbers as doubles.
  private static func scheduleDocument(
    _ schedule: RunSchedule, of result: RunResult, program: String
  ) -> JSONValue {
    .object([
      ("seed", .string(String(schedule.seed))),
      ("fingerprint", .string(ScheduleText.hex(schedule.fingerprint))),
      ("controlled", .bool(schedule.isControlled)),
      (
        "failingIterations",
        .array(
          schedule.failingIterations.map { failing in
            .object([
              ("index", .int(failing.index)), ("seed", .string(String(failing.seed))),
              ("fingerprint", .string(ScheduleText.hex(failing.fingerprint))),
              ("outcome", .string(OutcomeCoding.kind(of: failing.outcome))),
              ("observation", .string(OutcomeCoding.observation(of: failing.outcome) ?? "")),
              (
                "replay",
                schedule.isControlled
                  ? .string(ScheduleText.replayCommand(result, failing, program: program)) : .null
              ),
            ])
          })
      ),
    ])
  }

  /// Every distinct outcome with its count and frequency, passes first, then most frequent.
  private static func outcomes(_ tally: Tally) -> [JSONValue] {
    tally.histogram.map { outcome, count in
      var members: [(String, JSONValue)] = [("outcome", .string(OutcomeCoding.kind(of: outcome)))]
      if let observation = OutcomeCoding.observation(of: outcome) {
        members.append(("observation", .string(observation)))
      }
      if let example = tally.examples[outcome] { members.append(("example", .string(example))) }
      members += [
        ("count", .int(count)),
        ("frequency", .double(Double(count) / Double(max(tally.iterations, 1)))),
      ]
      return .object(members)
    }
  }
}

/// How an ``Outcome`` is named in JSON, both ways.
enum OutcomeCoding {
  static func kind(of outcome: Outcome) -> String {
    switch outcome {
    case .passed: "passed"
    case .failed: "failed"
    case .crashed: "crashed"
    case .timedOut: "timedOut"
    case .deadlocked: "deadlocked"
    case .skipped: "skipped"
    case .executorChanged: "executorChanged"
    }
  }

  static func observation(of outcome: Outcome) -> String? {
    switch outcome {
    case .passed, .timedOut, .executorChanged: nil
    case .failed(let observation), .crashed(let observation), .deadlocked(let observation),
      .skipped(reason: let observation):
      observation
    }
  }

  static func outcome(kind: String, observation: String?) -> Outcome? {
    switch (kind, observation) {
    case ("passed", _): .passed
    case ("timedOut", _): .timedOut
    case ("executorChanged", _): .executorChanged
    case ("failed", let observation?): .failed(observation: observation)
    case ("crashed", let observation?): .crashed(observation: observation)
    case ("deadlocked", let observation?): .deadlocked(observation: observation)
    case ("skipped", let reason?): .skipped(reason: reason)
    default: nil
    }
  }
}

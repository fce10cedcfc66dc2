/// `flakelab ci --format json` and `--output`: the run as data for scripts and a job's
/// artifacts, read back whole by ``CIJSONReader`` (the history's import): `{"flakelab",
/// "command": "ci", "id", "started", "commit", "branch", "machine", "packagePath", "retries",
/// "timeoutSeconds", "seed", "selection", "program", "interrupted", "quarantineFile",
/// "staleQuarantine": [{"test", "closest"}], "passSeconds", "retrySeconds", "failOnFlaky",
/// "failsTheJob", "tests": [{"test", "framework", "status", "retriesCut", "quarantine": {"reason",
/// "added"} | null, "source", "sourceDoubt", "replay", "attempts": [{"outcome", "observation", "crash",
/// "example", "place", "index", "placement", "origin": {"test", "shown"}, "recordedWhile",
/// "seconds"}]}]}`. Every key is declared once, in ``Key``; fields
/// are only ever added.
package enum CIJSON {
  /// The name of every field the writer writes and the reader reads.
  package enum Key {
    package static let flakelab = "flakelab"
    package static let command = "command"
    package static let id = "id"
    package static let started = "started"
    package static let commit = "commit"
    package static let branch = "branch"
    package static let machine = "machine"
    package static let packagePath = "packagePath"
    package static let retries = "retries"
    package static let timeoutSeconds = "timeoutSeconds"
    package static let seed = "seed"
    package static let selection = "selection"
    package static let program = "program"
    package static let interrupted = "interrupted"
    package static let quarantineFile = "quarantineFile"
    package static let staleQuarantine = "staleQuarantine"
    package static let closest = "closest"
    package static let passSeconds = "passSeconds"
    package static let retrySeconds = "retrySeconds"
    package static let failOnFlaky = "failOnFlaky"
    package static let failsTheJob = "failsTheJob"
    package static let tests = "tests"
    package static let test = "test"
    package static let framework = "framework"
    package static let status = "status"
    package static let retriesCut = "retriesCut"
    package static let quarantine = "quarantine"
    package static let reason = "reason"
    package static let added = "added"
    package static let source = "source"
    package static let replay = "replay"
    package static let attempts = "attempts"
    package static let example = "example"
    package static let place = "place"
    package static let index = "index"
    package static let seconds = "seconds"
    package static let placement = "placement"
    package static let origin = "origin"
    package static let shown = "shown"
    package static let recordedWhile = "recordedWhile"
    package static let sourceDoubt = "sourceDoubt"
  }

  /// The `command` of a ci report, by which an import tells it from `flakelab test`'s.
  package static let command = "ci"

  package static func render(_ run: CIRun) -> String {
    document(run).serialized() + "\n"
  }

  package static func document(_ run: CIRun) -> JSONValue {
    let tests: [JSONValue] = run.tests.map { test in
      .object([
        (Key.test, .string(test.test.id)), (Key.framework, .string(test.test.framework.rawValue)),
        (Key.status, .string(test.status.rawValue)), (Key.retriesCut, .bool(test.retriesCut)),
        (
          Key.quarantine,
          test.quarantine.map { .object([(Key.reason, .string($0.reason)), (Key.added, .string($0.added))]) } ?? .null
        ),
        (Key.source, test.location.map(ReportJSON.location) ?? .null),
        (Key.sourceDoubt, test.locationDoubt.map(JSONValue.string) ?? .null),
        (Key.replay, run.replay(of: test).map(JSONValue.string) ?? .null),
        (ReportJSON.Key.races, test.races.map { ReportJSON.races($0, packagePath: run.packagePath) } ?? .null),
        (
          Key.attempts,
          .array(
            test.attempts.map { attempt in
              .object(
                OutcomeCoding.members(of: attempt.outcome)
                  + (attempt.example.map { [(Key.example, .string($0))] } ?? [])
                  + (attempt.place.map { [(Key.place, ReportJSON.location($0))] } ?? [])
                  + [(Key.index, .int(attempt.index)), (Key.placement, .string(attempt.placement.rawValue))]
                  + (attempt.origin.map { [(Key.origin, origin($0))] } ?? [])
                  + (attempt.recordedWhile.map { [(Key.recordedWhile, .string($0))] } ?? [])
                  + [(Key.seconds, .double(rounded(attempt.seconds, 1e6)))])
            })
        ),
      ])
    }
    return JSONValue.object([
      (Key.flakelab, .string(Report.labVersion)), (Key.command, .string(command)), (Key.id, .string(run.id)),
      (Key.started, .string(Timestamp.iso8601(run.started))),
      (Key.commit, run.context.git.map { .string($0.commit) } ?? .null),
      (Key.branch, run.context.git?.branch.map(JSONValue.string) ?? .null),
      (Key.machine, ReportJSON.machine(run.machine)),
      (Key.packagePath, .string(run.packagePath)), (Key.retries, .int(run.retries)),
      (Key.timeoutSeconds, .double(run.timeout.seconds)),
      // As a string: a 64-bit seed is more than a JSON number keeps exactly.
      (Key.seed, .string(String(run.seed))), (Key.selection, .array(run.context.selection.map(JSONValue.string))),
      (Key.program, .string(run.context.program)), (Key.interrupted, .bool(run.interrupted)),
      (Key.quarantineFile, run.context.quarantineFile.map(JSONValue.string) ?? .null),
      (
        Key.staleQuarantine,
        .array(
          run.context.staleQuarantine.map {
            .object([
              (Key.test, .string($0.entry.test)), (Key.reason, .string($0.entry.reason)),
              (Key.added, .string($0.entry.added)),
              (Key.closest, $0.closest.map(JSONValue.string) ?? .null),
            ])
          })
      ),
      (Key.passSeconds, .double(rounded(run.passSeconds, 1e3))),
      (Key.retrySeconds, .double(rounded(run.retrySeconds, 1e3))),
      (Key.failOnFlaky, .bool(run.failOnFlaky)), (Key.failsTheJob, .bool(run.failsTheJob)), (Key.tests, .array(tests)),
      (ReportJSON.Key.sanitizer, run.sanitizer.map(ReportJSON.sanitizer) ?? .null),
    ])
  }

  private static func origin(_ origin: FailureOrigin) -> JSONValue {
    .object([(Key.test, .string(origin.test)), (Key.shown, origin.shown.map(JSONValue.bool) ?? .null)])
  }

  /// `value` to `1 / scale`: what the report keeps, and so what a run read back holds.
  package static func rounded(_ value: Double, _ scale: Double) -> Double {
    (value * scale).rounded() / scale
  }
}

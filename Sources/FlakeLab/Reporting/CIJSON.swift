/// `flakelab ci --format json` and `--output`: the run as data for scripts and a job's
/// artifacts: `{"flakelab", "command": "ci", "id", "started", "commit", "branch", "machine",
/// "packagePath", "retries", "timeoutSeconds", "interrupted", "quarantineFile",
/// "staleQuarantine": [{"test", "closest"}], "passSeconds",
/// "retrySeconds", "failsTheJob", "tests": [{"test", "framework", "status", "retriesCut",
/// "quarantine": {reason, added} | null, "source", "attempts": [{"outcome", "observation",
/// "crash", "example", "seconds"}]}]}`. Fields are only ever added.
package enum CIJSON {
  package static func render(_ run: CIRun) -> String {
    let tests: [JSONValue] = run.tests.map { test in
      .object([
        ("test", .string(test.test.id)), ("framework", .string(test.test.framework.rawValue)),
        ("status", .string(test.status.rawValue)), ("retriesCut", .bool(test.retriesCut)),
        (
          "quarantine",
          test.quarantine.map { .object([("reason", .string($0.reason)), ("added", .string($0.added))]) } ?? .null
        ),
        ("source", test.location.map { .object([("path", .string($0.path)), ("line", .int($0.line))]) } ?? .null),
        (
          "attempts",
          .array(
            test.attempts.map { attempt in
              .object(
                OutcomeCoding.members(of: attempt.outcome) + (attempt.example.map { [("example", .string($0))] } ?? [])
                  + (attempt.place.map { [("place", JSONReport.location($0))] } ?? [])
                  + [("seconds", .double((attempt.seconds * 1e6).rounded() / 1e6))])
            })
        ),
      ])
    }
    return JSONValue.object([
      ("flakelab", .string(Report.labVersion)), ("command", .string("ci")), ("id", .string(run.id)),
      ("started", .string(Timestamp.iso8601(run.started))),
      ("commit", run.git.map { .string($0.commit) } ?? .null), ("branch", run.git?.branch.map(JSONValue.string) ?? .null),
      (
        "machine",
        .object([
          ("cores", .int(run.machine.cores)), ("os", .string(run.machine.os)), ("swift", .string(run.machine.swift)),
        ])
      ),
      ("packagePath", .string(run.packagePath)), ("retries", .int(run.retries)),
      ("timeoutSeconds", .double(run.timeout.seconds)), ("interrupted", .bool(run.interrupted)),
      ("quarantineFile", run.quarantineFile.map(JSONValue.string) ?? .null),
      (
        "staleQuarantine",
        .array(
          run.staleQuarantine.map {
            .object([("test", .string($0.entry.test)), ("closest", $0.closest.map(JSONValue.string) ?? .null)])
          })
      ),
      ("passSeconds", .double((run.passSeconds * 1e3).rounded() / 1e3)),
      ("retrySeconds", .double((run.retrySeconds * 1e3).rounded() / 1e3)),
      ("failsTheJob", .bool(run.failsTheJob)), ("tests", .array(tests)),
    ]).serialized() + "\n"
  }
}

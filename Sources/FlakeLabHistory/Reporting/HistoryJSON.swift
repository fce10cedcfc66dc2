import FlakeLab
import Foundation

/// `flakelab history --format json`: the answer as data: `{"flakelab", "command": "history",
/// "window": {"from", "to", "branch"}, "confidence", "ciRuns", "labRuns", "commits", "tests":
/// [{"test", "flaky", "ciRuns", "ciFailures", "failureRate", "low", "high", "flips", "pairs",
/// "flipRate", "flakyCommits", "firstFlaked": point | null, "timeline": [point]}], "crashes":
/// [{"started", "commit", "tests"}], "stoppedFlaking", "quietRuns", "readyToLeave", "quarantined", "gate": {"maxFailureRate", "over",
/// "undecided"} | null, "races": [{"test", "lines", "variable", "first": point, "last": point,
/// "sanitizedRuns", "reportedRuns", "missedRuns", "open", "new", "quarantined"}], "failOnNewRaces", "failsTheJob"}`,
/// a point being `{"started", "commit", "kind", "status", "attempts", "failures",
/// "besideACrash"}`. Fields are only ever added.
package enum HistoryJSON {
  package static func render(_ answer: HistoryAnswer) -> String {
    func point(_ point: HistoryAnswer.Point) -> JSONValue {
      .object([
        ("started", .string(Timestamp.iso8601(point.started))), ("commit", point.commit.map(JSONValue.string) ?? .null),
        ("kind", .string(point.kind.rawValue)), ("status", .string(point.status.rawValue)),
        ("attempts", .int(point.attempts)), ("failures", .int(point.failures)),
        ("besideACrash", .bool(point.besideACrash)),
      ])
    }
    let tests: [JSONValue] = answer.tests.map { test in
      .object([
        ("test", .string(test.test)), ("flaky", .bool(test.isFlaky)), ("failsInSuite", .bool(test.failsInSuite)),
        ("ciRuns", .int(test.ciRuns)),
        ("ciFailures", .int(test.ciFailures)), ("failureRate", .double(test.rate)), ("low", .double(test.low)),
        ("high", .double(test.high)), ("flips", .int(test.flips)), ("pairs", .int(test.pairs)),
        ("flipRate", .double(test.flipRate)), ("flakyCommits", .array(test.flakyCommits.map(JSONValue.string))),
        ("firstFlaked", test.firstFlaked.map(point) ?? .null), ("timeline", .array(test.timeline.map(point))),
      ])
    }
    let gate: JSONValue =
      answer.gate.map { gate in
        .object([
          ("maxFailureRate", .double(gate.maxFailureRate)), ("over", .array(gate.over.map(JSONValue.string))),
          ("undecided", .array(gate.undecided.map(JSONValue.string))),
        ])
      } ?? .null
    return JSONValue.object([
      ("flakelab", .string(Report.labVersion)), ("command", .string("history")),
      (
        "window",
        .object([
          ("from", .string(Timestamp.iso8601(answer.window.from))),
          ("to", .string(Timestamp.iso8601(answer.window.to))),
          ("branch", answer.window.branch.map(JSONValue.string) ?? .null),
        ])
      ),
      ("confidence", .double(answer.confidence)), ("ciRuns", .int(answer.ciRuns)), ("labRuns", .int(answer.labRuns)),
      ("commits", .int(answer.commits)), ("tests", .array(tests)),
      (
        "crashes",
        .array(
          answer.crashes.map { crash in
            .object([
              ("started", .string(Timestamp.iso8601(crash.started))),
              ("commit", crash.commit.map(JSONValue.string) ?? .null),
              ("tests", .array(crash.tests.map(JSONValue.string))),
            ])
          })
      ),
      ("stoppedFlaking", .array(answer.stoppedFlaking.map(JSONValue.string))), ("quietRuns", .int(answer.quietRuns)),
      ("readyToLeave", .array(answer.readyToLeave.map(JSONValue.string))),
      ("quarantined", .array(answer.quarantined.map(JSONValue.string))), ("gate", gate),
      (
        "races",
        .array(
          answer.races.map { race in
            .object([
              ("test", .string(race.race.test)), ("lines", .array(race.race.lines.map(JSONValue.string))),
              ("variable", race.variable.map(JSONValue.string) ?? .null), ("first", point(race.first)),
              ("last", point(race.last)), ("sanitizedRuns", .int(race.sanitizedRuns)),
              ("reportedRuns", .int(race.reportedRuns)), ("missedRuns", .int(race.missedRuns)),
              ("open", .bool(race.isOpen)), ("new", .bool(race.isNew)),
              ("quarantined", .bool(race.isQuarantined)),
            ])
          })
      ),
      ("failOnNewRaces", .bool(answer.gatesNewRaces)), ("failsTheJob", .bool(answer.failsTheJob)),
    ]).serialized() + "\n"
  }
}

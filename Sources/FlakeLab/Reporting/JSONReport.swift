/// The machine-readable report (`--format json`), documented field by field in the README.
///
/// The shape only grows: fields are added, never renamed or removed, so scripts keep working.
public enum JSONReport {
  public static func render(_ report: Report) -> String {
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
      ("runs", .array(report.runs.map(run))),
    ])
  }

  private static func run(_ result: RunResult) -> JSONValue {
    let tally = result.tally
    let failures: [JSONValue] = tally.outcomesByFrequency.compactMap { outcome, count in
      guard case .failed(let observation) = outcome else { return nil }
      return .object([("observation", .string(observation)), ("count", .int(count))])
    }
    return .object([
      ("scenario", .string(result.scenario)),
      ("variant", .string(result.variant)),
      ("executor", .string(result.executor)),
      ("iterations", .int(tally.iterations)),
      ("passed", .int(tally.passed)),
      ("failed", .int(tally.failed)),
      ("failureRate", .double(tally.failureRate)),
      ("seconds", .double((result.seconds * 1e6).rounded() / 1e6)),
      ("failures", .array(failures)),
    ])
  }
}

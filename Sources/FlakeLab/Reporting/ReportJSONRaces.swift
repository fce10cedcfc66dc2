/// `tests[].races` and the report's `sanitizer`, both ways: what the thread sanitizer's runs of a
/// test showed (``RaceEvidence``), each race with its two accesses, each access with `path` and
/// `line` (the line to open, derived from its stack and written for scripts) and its stack.
extension ReportJSON {
  enum RaceKey {
    static let runs = "runs"
    static let failedRuns = "failedRuns"
    static let alongside = "alongside"
    static let races = "races"
    static let kind = "kind"
    static let variable = "variable"
    static let accesses = "accesses"
    static let access = "access"
    static let size = "size"
    static let runner = "runner"
    static let thread = "thread"
    static let path = "path"
    static let line = "line"
    static let function = "function"
    static let image = "image"
    static let stack = "stack"
    static let createdAt = "createdAt"
    static let buildSeconds = "buildSeconds"
    static let runsSeconds = "runsSeconds"
    static let processes = "processes"
    static let unavailable = "unavailable"
    static let unattributedRaces = "unattributedRaces"
  }

  /// `{"runs": 5, "failedRuns": 3, "alongside": [], "races": [{"kind": "data race", "variable":
  /// null, "runs": 5, "accesses": [{"access": "write", "size": 8, "runner": "task", "thread": "T1",
  /// "path": "/…/Counter.swift", "line": 5, "function": "Counter.bump()", "stack": […],
  /// "createdAt": […]}, …]}]}`.
  static func races(_ evidence: RaceEvidence, packagePath: String?) -> JSONValue {
    .object([
      (RaceKey.runs, .int(evidence.runs)),
      (RaceKey.failedRuns, .int(evidence.failedRuns)),
      (RaceKey.alongside, .array(evidence.alongside.map { .string($0.id) })),
      (
        RaceKey.races,
        .array(
          evidence.races.map { seen in
            .object([
              (RaceKey.kind, .string(seen.race.kind)),
              (RaceKey.variable, seen.race.variable.map(JSONValue.string) ?? .null),
              (RaceKey.runs, .int(seen.runs)),
              (RaceKey.accesses, .array(seen.race.accesses.map { access($0, packagePath: packagePath ?? "/") })),
            ])
          })
      ),
    ])
  }

  private static func access(_ access: DataRace.Access, packagePath: String) -> JSONValue {
    let place = access.place(in: packagePath)
    return .object([
      (RaceKey.access, .string(access.isWrite ? "write" : "read")),
      (RaceKey.size, access.size.map(JSONValue.int) ?? .null),
      (RaceKey.runner, .string(access.runner.rawValue)),
      (RaceKey.thread, .string(access.thread)),
      (RaceKey.path, place.map { .string($0.path) } ?? .null),
      (RaceKey.line, place.map { .int($0.line) } ?? .null),
      (RaceKey.function, access.function(in: packagePath).map(JSONValue.string) ?? .null),
      (RaceKey.stack, .array(access.stack.map(frame))),
      (RaceKey.createdAt, .array(access.createdAt.map(frame))),
    ])
  }

  private static func frame(_ frame: DataRace.Frame) -> JSONValue {
    .object([
      (RaceKey.function, .string(frame.function)),
      (RaceKey.path, frame.path.map(JSONValue.string) ?? .null),
      (RaceKey.line, .int(frame.line)),
      (RaceKey.image, .string(frame.image)),
    ])
  }

  /// The evidence ``races(_:packagePath:)`` wrote, its tests of `framework`; nil where malformed.
  static func races(reading entry: JSONValue, framework: PackageTest.Framework) -> RaceEvidence? {
    guard let runs = entry[RaceKey.runs]?.int, let failedRuns = entry[RaceKey.failedRuns]?.int,
      let alongside = entry[RaceKey.alongside]?.array, let races = entry[RaceKey.races]?.array
    else { return nil }
    var seen: [RaceEvidence.Seen] = []
    for race in races {
      guard let kind = race[RaceKey.kind]?.string, let count = race[RaceKey.runs]?.int,
        let accesses = race[RaceKey.accesses]?.array?.compactMap(access(reading:)), accesses.count == 2
      else { return nil }
      seen.append(
        RaceEvidence.Seen(
          race: DataRace(kind: kind, variable: race[RaceKey.variable]?.string, accesses: accesses), runs: count))
    }
    let ids = alongside.compactMap(\.string)
    guard ids.count == alongside.count else { return nil }
    return RaceEvidence(
      runs: runs, failedRuns: failedRuns, races: seen,
      alongside: ids.map { PackageTest(id: $0, framework: framework) })
  }

  private static func access(reading entry: JSONValue) -> DataRace.Access? {
    guard let kind = entry[RaceKey.access]?.string, ["read", "write"].contains(kind),
      let runner = entry[RaceKey.runner]?.string.flatMap(DataRace.Runner.init(rawValue:)),
      let thread = entry[RaceKey.thread]?.string,
      let stack = entry[RaceKey.stack]?.array, let createdAt = entry[RaceKey.createdAt]?.array
    else { return nil }
    let frames = stack.compactMap(frame(reading:))
    let creation = createdAt.compactMap(frame(reading:))
    guard frames.count == stack.count, creation.count == createdAt.count else { return nil }
    return DataRace.Access(
      isWrite: kind == "write", size: entry[RaceKey.size]?.int, runner: runner, thread: thread, stack: frames,
      createdAt: creation)
  }

  private static func frame(reading entry: JSONValue) -> DataRace.Frame? {
    guard let function = entry[RaceKey.function]?.string, let line = entry[RaceKey.line]?.int,
      let image = entry[RaceKey.image]?.string
    else { return nil }
    return DataRace.Frame(function: function, path: entry[RaceKey.path]?.string, line: line, image: image)
  }

  /// `{"buildSeconds": 41.2, "runsSeconds": 12.5, "processes": 10, "unattributedRaces": 0,
  /// "unavailable": null}`.
  static func sanitizer(_ summary: SanitizerSummary) -> JSONValue {
    .object([
      (RaceKey.buildSeconds, summary.build.map { .double($0.seconds) } ?? .null),
      (RaceKey.runsSeconds, .double(summary.runs.seconds)),
      (RaceKey.processes, .int(summary.processes)),
      (RaceKey.unattributedRaces, .int(summary.unattributedRaces)),
      (RaceKey.unavailable, summary.unavailable.map(JSONValue.string) ?? .null),
    ])
  }

  static func sanitizer(reading entry: JSONValue) -> SanitizerSummary? {
    guard let runs = entry[RaceKey.runsSeconds]?.seconds, let processes = entry[RaceKey.processes]?.int else {
      return nil
    }
    return SanitizerSummary(
      build: entry[RaceKey.buildSeconds]?.seconds.map { .milliseconds(Int64(($0 * 1000).rounded())) },
      runs: .milliseconds(Int64((runs * 1000).rounded())), processes: processes,
      unattributedRaces: entry[RaceKey.unattributedRaces]?.int ?? 0, unavailable: entry[RaceKey.unavailable]?.string)
  }
}

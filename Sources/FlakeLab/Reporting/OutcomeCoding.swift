/// How an ``Outcome`` is written in JSON and read back: its kind, its observation in words (for
/// scripts), and for a crash the ``Crash`` as values (`crash`), which readers use instead of
/// the words.
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
    case .failed(let observation), .deadlocked(let observation), .skipped(reason: let observation): observation
    case .crashed(let crash): OutcomeText.observation(of: crash)
    }
  }

  /// `outcome`, `observation` and, for a crash, `crash`: `{"how": "signal 6 (SIGABRT): …",
  /// "beforeTheTestStarted": false, "beside": ["M.b()"], "crashedAlone": false}`.
  static func members(of outcome: Outcome) -> [(String, JSONValue)] {
    var members: [(String, JSONValue)] = [(ReportJSON.Key.outcome, .string(kind(of: outcome)))]
    if let observation = observation(of: outcome) { members.append((ReportJSON.Key.observation, .string(observation))) }
    if case .crashed(let crash) = outcome {
      members.append(
        (
          ReportJSON.Key.crash,
          .object([
            (ReportJSON.Key.how, .string(crash.how)),
            (ReportJSON.Key.beforeTheTestStarted, .bool(crash.beforeTheTestStarted)),
            (ReportJSON.Key.beside, .array(crash.beside.map { .string($0.id) })),
            (ReportJSON.Key.crashedAlone, .bool(crash.crashedAlone)),
          ])
        ))
    }
    return members
  }

  /// The outcome `entry` holds, as ``members(of:)`` wrote it; tests beside a crash are of
  /// `framework`, the crashed test's (one process runs one framework's tests).
  static func outcome(_ entry: JSONValue, framework: PackageTest.Framework?) -> Outcome? {
    guard let kind = entry[ReportJSON.Key.outcome]?.string else { return nil }
    let observation = entry[ReportJSON.Key.observation]?.string
    switch (kind, observation) {
    case ("passed", _): return .passed
    case ("timedOut", _): return .timedOut
    case ("executorChanged", _): return .executorChanged
    case ("failed", let observation?): return .failed(observation: observation)
    case ("deadlocked", let observation?): return .deadlocked(observation: observation)
    case ("skipped", let reason?): return .skipped(reason: reason)
    case ("crashed", let observation?):
      guard let crash = entry[ReportJSON.Key.crash], let how = crash[ReportJSON.Key.how]?.string else {
        return .crashed(legacyCrash(observation, framework: framework))
      }
      let beside = (crash[ReportJSON.Key.beside]?.array ?? []).compactMap(\.string).map {
        PackageTest(id: $0, framework: framework ?? .swiftTesting)
      }
      return .crashed(
        Crash(
          how: how, beforeTheTestStarted: crash[ReportJSON.Key.beforeTheTestStarted]?.bool ?? false, beside: beside,
          crashedAlone: crash[ReportJSON.Key.crashedAlone]?.bool ?? true))
    default: return nil
    }
  }

  /// A crash as reports before `crash` wrote it, in words only: `… (while A, B were in flight;
  /// none crashed alone)` was charged to every test in flight.
  private static func legacyCrash(_ observation: String, framework: PackageTest.Framework?) -> Crash {
    let prefix = "before the test started, "
    let beforeStart = observation.hasPrefix(prefix)
    let text = beforeStart ? String(observation.dropFirst(prefix.count)) : observation
    guard text.hasSuffix("; none crashed alone)"), let open = text.range(of: " (while ", options: .backwards) else {
      return Crash(how: text, beforeTheTestStarted: beforeStart)
    }
    let names = text[open.upperBound...].components(separatedBy: " were in flight")[0].components(separatedBy: ", ")
    return Crash(
      how: String(text[..<open.lowerBound]), beforeTheTestStarted: beforeStart,
      beside: names.map { PackageTest(id: $0, framework: framework ?? .swiftTesting) }, crashedAlone: false)
  }
}

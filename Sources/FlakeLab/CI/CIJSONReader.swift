package import Foundation

/// `flakelab ci`'s JSON report (``CIJSON``) read back as the ``CIRun`` it was written from, for
/// `history import`: every field the writer writes, by the same ``CIJSON/Key``s, so that a run
/// read back equals the run written. A report comes from a CI artifact anyone could have
/// edited, so what it says is checked, not trusted: each test's status must be what its
/// attempts make it (a `passed` with three failed attempts is refused), a test appears once, the
/// run has an ID, it started in 2026 or later and no later than tomorrow, its seed is a 64-bit
/// number, no attempt's index is negative, and no later FlakeLab wrote it. Fields an earlier
/// FlakeLab did not write take the value that FlakeLab had (no seed: 0).
package enum CIJSONReader {
  private typealias Key = CIJSON.Key

  /// What makes a ci report unusable: the part of it that is wrong.
  package struct Malformed: Error, Equatable {
    package let what: String
  }

  package static func read(_ document: JSONValue, now: Date = Date()) throws(Malformed) -> CIRun {
    guard let version = document[Key.flakelab]?.string else {
      throw Malformed(what: "the flakelab version that wrote it")
    }
    guard !isLater(version, than: Report.labVersion) else {
      throw Malformed(
        what: "a version this flakelab knows: flakelab \(version) wrote it, and this is \(Report.labVersion)")
    }
    guard document[Key.command]?.string == CIJSON.command else { throw Malformed(what: "\"command\": \"ci\"") }
    guard let id = document[Key.id]?.string, !id.isEmpty else { throw Malformed(what: "its run's id") }
    guard let started = document[Key.started]?.string.flatMap(Timestamp.date) else {
      throw Malformed(what: "when it started")
    }
    guard Timestamp.hasCome(started, now: now) else {
      throw Malformed(what: "a date that has come: it says it started \(Timestamp.iso8601(started))")
    }
    guard started >= Self.earliest else {
      throw Malformed(
        what: "a date since flakelab ci wrote reports (2026): it says it started \(Timestamp.iso8601(started))")
    }
    let seed = try self.seed(document[Key.seed])
    var seen = Set<String>()
    var tests: [CITest] = []
    for entry in document[Key.tests]?.array ?? [] {
      let test = try self.test(entry)
      guard seen.insert(test.test.id).inserted else {
        throw Malformed(what: "each test once: \(test.test.id) is there twice")
      }
      tests.append(test)
    }
    let retries = document[Key.retries]?.int ?? 0
    guard (0...RetryPlan.mostRetries).contains(retries) else {
      throw Malformed(what: "retries of 0 to \(RetryPlan.mostRetries), not \(retries)")
    }
    var run = CIRun(
      machine: document[Key.machine].map(ReportJSON.machine) ?? .current,
      packagePath: document[Key.packagePath]?.string ?? "", retries: retries,
      timeout: .milliseconds(Int64((try seconds(document, Key.timeoutSeconds) * 1000).rounded())),
      failOnFlaky: document[Key.failOnFlaky]?.bool ?? false, seed: seed, tests: tests)
    run.id = id
    run.started = started
    run.context.selection = document[Key.selection]?.array?.compactMap(\.string) ?? []
    run.context.program = document[Key.program]?.string ?? run.context.program
    run.interrupted = document[Key.interrupted]?.bool ?? false
    run.context.git = document[Key.commit]?.string.map { GitState(commit: $0, branch: document[Key.branch]?.string) }
    run.context.quarantineFile = document[Key.quarantineFile]?.string
    run.context.staleQuarantine = (document[Key.staleQuarantine]?.array ?? []).compactMap(staleEntry)
    run.passSeconds = try seconds(document, Key.passSeconds)
    run.retrySeconds = try seconds(document, Key.retrySeconds)
    if let entry = document[ReportJSON.Key.sanitizer], entry.isObject {
      guard let summary = ReportJSON.sanitizer(reading: entry) else {
        throw Malformed(what: "a thread sanitizer's summary with its seconds and processes")
      }
      run.sanitizer = summary
    }
    return run
  }

  /// The run's seed, a string of 0 to 2^64 − 1; 0 in a report from before it said one.
  private static func seed(_ value: JSONValue?) throws(Malformed) -> UInt64 {
    guard let value else { return 0 }
    guard let seed = value.string.flatMap({ UInt64($0) }) else {
      throw Malformed(what: "a seed of 0 to 2^64 − 1, as a string")
    }
    return seed
  }

  /// A quarantine entry that names no test of the package, with the closest name there is.
  private static func staleEntry(_ entry: JSONValue) -> Quarantine.StaleEntry? {
    guard let test = entry[Key.test]?.string else { return nil }
    return Quarantine.StaleEntry(
      entry: .init(test: test, reason: entry[Key.reason]?.string ?? "", added: entry[Key.added]?.string ?? ""),
      closest: entry[Key.closest]?.string)
  }

  private static func test(_ entry: JSONValue) throws(Malformed) -> CITest {
    guard let id = entry[Key.test]?.string, !id.isEmpty,
      let framework = entry[Key.framework]?.string.flatMap(PackageTest.Framework.init(rawValue:)),
      let status = entry[Key.status]?.string.flatMap(CITest.Status.init), let written = entry[Key.attempts]?.array
    else { throw Malformed(what: "a test's id, framework, status and attempts") }
    var attempts: [CITest.Attempt] = []
    for (position, attempt) in written.enumerated() {
      guard let outcome = OutcomeCoding.outcome(attempt, framework: framework) else {
        throw Malformed(what: "a known outcome for each attempt of \(id)")
      }
      let index = attempt[Key.index]?.int ?? position
      guard index >= 0 else { throw Malformed(what: "attempts of \(id) at indices of 0 or more, not \(index)") }
      // An earlier FlakeLab retried alone only: its pass is index 0, its retries the rest.
      var placement: CITest.Placement?
      if let written = attempt[Key.placement] {
        guard let read = written.string.flatMap(CITest.Placement.init(rawValue:)) else {
          throw Malformed(what: "a placement of pass, alone or suiteAgain for each attempt of \(id)")
        }
        placement = read
      }
      attempts.append(
        .init(
          outcome: outcome, example: attempt[Key.example]?.string, seconds: try seconds(attempt, Key.seconds),
          place: ReportJSON.location(reading: attempt[Key.place]), index: index, placement: placement,
          origin: attempt[Key.origin].flatMap(origin), recordedWhile: attempt[Key.recordedWhile]?.string))
    }
    let quarantine = entry[Key.quarantine].flatMap { value -> Quarantine.Entry? in
      guard value.isObject else { return nil }
      return Quarantine.Entry(test: id, reason: value[Key.reason]?.string ?? "", added: value[Key.added]?.string ?? "")
    }
    var test = CITest(
      test: PackageTest(id: id, framework: framework), attempts: attempts,
      location: ReportJSON.location(reading: entry[Key.source]), quarantine: quarantine)
    test.retriesCut = entry[Key.retriesCut]?.bool ?? false
    test.locationDoubt = entry[Key.sourceDoubt]?.string
    if let races = entry[ReportJSON.Key.races], races.isObject {
      guard let read = ReportJSON.races(reading: races, framework: test.test.framework) else {
        throw Malformed(what: "races as flakelab writes them: \(id)'s are not")
      }
      test.races = read
    }
    guard test.status == status else {
      throw Malformed(
        what:
          "a status its attempts agree with: \(id) says \(status.rawValue), its attempts make it \(test.status.rawValue)"
      )
    }
    return test
  }

  /// The seconds `object` says at `key`, 0 when it says none; a number no run could have lasted
  /// (negative, 1e30) is refused.
  private static func seconds(_ object: JSONValue, _ key: String) throws(Malformed) -> Double {
    guard let value = object[key], value != .null else { return 0 }
    guard let seconds = value.seconds else {
      throw Malformed(what: "a \(key) of 0 to \(Int(JSONValue.mostSeconds)) seconds")
    }
    return seconds
  }

  private static func origin(_ value: JSONValue) -> FailureOrigin? {
    value[Key.test]?.string.map { FailureOrigin(test: $0, shown: value[Key.shown]?.bool) }
  }

  /// No ci report was written before 2026, when `flakelab ci` first wrote one: a run dated
  /// 1970 (a clock at zero, a forged file) would stand as the oldest run of every window.
  static let earliest = Timestamp.date("2026-01-01T00:00:00Z")!

  /// Whether version `a` (`1.2.3`) is later than `b`.
  package static func isLater(_ a: String, than b: String) -> Bool {
    let parts = { (text: String) in text.split(separator: ".").map { Int($0) ?? 0 } }
    let (left, right) = (parts(a), parts(b))
    for index in 0..<max(left.count, right.count) {
      let (x, y) = (index < left.count ? left[index] : 0, index < right.count ? right[index] : 0)
      if x != y { return x > y }
    }
    return false
  }
}

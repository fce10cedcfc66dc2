package import Foundation

/// `flakelab ci`'s JSON report (``CIJSON``) read back as the ``CIRun`` it was written from, for
/// `history import`. A report comes from a CI artifact anyone could have edited, so what it says
/// is checked, not trusted: each test's status must be what its attempts make it (a `passed`
/// with three failed attempts is refused), a test appears once, the run has an ID, it started no
/// later than tomorrow, and no later FlakeLab wrote it.
package enum CIJSONReader {
  /// What makes a ci report unusable: the part of it that is wrong.
  package struct Malformed: Error, Equatable {
    package let what: String
  }

  package static func read(_ document: JSONValue, now: Date = Date()) throws(Malformed) -> CIRun {
    guard let version = document["flakelab"]?.string else { throw Malformed(what: "the flakelab version that wrote it") }
    guard !isLater(version, than: Report.labVersion) else {
      throw Malformed(what: "a version this flakelab knows: flakelab \(version) wrote it, and this is \(Report.labVersion)")
    }
    guard let id = document["id"]?.string, !id.isEmpty else { throw Malformed(what: "its run's id") }
    guard let started = document["started"]?.string.flatMap(Timestamp.date) else { throw Malformed(what: "when it started") }
    guard Timestamp.hasCome(started, now: now) else {
      throw Malformed(what: "a date that has come: it says it started \(Timestamp.iso8601(started))")
    }
    var seen = Set<String>()
    var tests: [CITest] = []
    for entry in document["tests"]?.array ?? [] {
      let test = try self.test(entry)
      guard seen.insert(test.test.id).inserted else { throw Malformed(what: "each test once: \(test.test.id) is there twice") }
      tests.append(test)
    }
    var run = CIRun(
      machine: document["machine"].map(JSONReport.machine) ?? .current, packagePath: document["packagePath"]?.string ?? "",
      retries: document["retries"]?.int ?? 0, timeout: .seconds(document["timeoutSeconds"]?.number ?? 0),
      failOnFlaky: false, tests: tests)
    run.id = id
    run.started = started
    run.interrupted = document["interrupted"]?.bool ?? false
    run.git = document["commit"]?.string.map { GitState(commit: $0, branch: document["branch"]?.string) }
    return run
  }

  private static func test(_ entry: JSONValue) throws(Malformed) -> CITest {
    guard let id = entry["test"]?.string, !id.isEmpty,
      let framework = entry["framework"]?.string.flatMap(PackageTest.Framework.init(rawValue:)),
      let status = entry["status"]?.string.flatMap(CITest.Status.init), let written = entry["attempts"]?.array
    else { throw Malformed(what: "a test's id, framework, status and attempts") }
    var attempts: [CITest.Attempt] = []
    for attempt in written {
      guard let outcome = OutcomeCoding.outcome(attempt, framework: framework) else {
        throw Malformed(what: "a known outcome for each attempt of \(id)")
      }
      attempts.append(
        .init(
          outcome: outcome, example: attempt["example"]?.string, seconds: attempt["seconds"]?.number ?? 0,
          place: JSONReport.location(reading: attempt["place"])))
    }
    var test = CITest(test: PackageTest(id: id, framework: framework), attempts: attempts)
    test.retriesCut = entry["retriesCut"]?.bool ?? false
    guard test.status == status else {
      throw Malformed(what: "a status its attempts agree with: \(id) says \(status.rawValue), its attempts make it \(test.status.rawValue)")
    }
    return test
  }

  /// Whether version `a` (`1.2.3`) is later than `b`.
  static func isLater(_ a: String, than b: String) -> Bool {
    let parts = { (text: String) in text.split(separator: ".").map { Int($0) ?? 0 } }
    let (left, right) = (parts(a), parts(b))
    for index in 0..<max(left.count, right.count) {
      let (x, y) = (index < left.count ? left[index] : 0, index < right.count ? right[index] : 0)
      if x != y { return x > y }
    }
    return false
  }
}

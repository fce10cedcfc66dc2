import FlakeLab
import Foundation

/// JUnit XML from any runner as a run of the history: `swift test --xunit-output` (XCTest's file
/// and Swift Testing's), xcodebuild's results through the tools that write JUnit, and Maven
/// Surefire's reruns (`<flakyFailure>`, `<rerunFailure>`), which `flakelab ci --format junit`
/// writes too. Each `<testcase>` is a test: with `<skipped>` skipped, with `<failure>` or
/// `<error>` failed, with only flaky reruns flaky, else passed; in `flakelab ci`'s own file, what
/// its test cases' `status` says (a quarantined failure is `<skipped>` there, for the CI's view).
enum JUnitImport {
  static func run(
    _ bytes: [UInt8], path: String, source: String, modified: Date, commit: String?, branch: String?
  ) throws(ImportError) -> RecordedRun {
    let root: XMLTree
    do {
      root = try XMLTree.parse(try XMLTree.utf8(bytes))
    } catch {
      throw .malformedXML(path: path, line: error.line, reason: error.reason)
    }
    guard root.name == "testsuites" || root.name == "testsuite" else { throw .notJUnit(path: path, root: root.name) }
    let suites = root.name == "testsuite" ? [root] : root.descendants(named: "testsuite")
    // The suites' own time when they say it, else the file's; a time that is no date is refused,
    // never rolled into another day or replaced by the file's.
    var times: [Date] = []
    for text in suites.compactMap({ $0.attributes["timestamp"] }) {
      guard let date = Timestamp.date(text) else { throw .notADate(path: path, text: text) }
      times.append(date)
    }
    let started = times.min() ?? modified
    guard Timestamp.hasCome(started) else { throw .notYet(path: path, started: started) }
    let ownStatus = root.name == "testsuites" && root.attributes["name"] == CIJUnit.name
    var results: [RecordedRun.Result] = []
    var seen: [String: Int] = [:]
    for testcase in root.descendants(named: "testcase") {
      guard !(testcase.attributes["name"] ?? "").isEmpty else { throw .unnamedTestCase(path: path) }
      let result = ownStatus ? Self.flakeLabResult(testcase) ?? Self.result(testcase) : Self.result(testcase)
      // A test twice in one file (a runner's rerun written as a second test case) is one test
      // that ran twice.
      if let index = seen[result.test] {
        results[index] = Self.merged(results[index], result)
      } else {
        seen[result.test] = results.count
        results.append(result)
      }
    }
    // `flakelab ci`'s own file names its run: filed as that run, where and when it ran.
    let property = { (name: String) in
      suites.lazy.flatMap { $0.descendants(named: "property") }.first { $0.attributes["name"] == name }?.attributes[
        "value"]
    }
    if ownStatus, let id = property(CIJUnit.Property.run), !id.isEmpty {
      var ran = started
      if let text = property(CIJUnit.Property.started) {
        guard let date = Timestamp.date(text) else { throw .notADate(path: path, text: text) }
        ran = date
      }
      guard Timestamp.hasCome(ran) else { throw .notYet(path: path, started: ran) }
      let ranOn = property(CIJUnit.Property.commit)
      return RecordedRun(
        source: RecordedRun.source(ofCIRun: id), kind: .ci, started: ran, commit: ranOn ?? commit,
        branch: ranOn != nil ? property(CIJUnit.Property.branch) : branch,
        machine: .init(host: suites.lazy.compactMap { $0.attributes["hostname"] }.first), results: results)
    }
    return RecordedRun(
      source: source, kind: .junit, started: started, commit: commit, branch: branch,
      machine: .init(host: suites.lazy.compactMap { $0.attributes["hostname"] }.first), results: results)
  }

  /// The FlakeLab ID of a test case: `classname/name` as XCTest's and a suite's tests are named,
  /// `Module.name()` for a Swift Testing test at file scope, whose classname is its module.
  static func id(classname: String?, name: String) -> String {
    guard let classname, !classname.isEmpty else { return name }
    return classname.contains(".") ? classname + "/" + name : classname + "." + name
  }

  private static func result(_ testcase: XMLTree) -> RecordedRun.Result {
    let id = id(classname: testcase.attributes["classname"], name: testcase.attributes["name"] ?? "")
    let kinds = testcase.children.compactMap { CIJUnit.Element(rawValue: $0.name) }
    let failed = kinds.filter(CIJUnit.Element.failed.contains).count
    let reruns = kinds.filter(CIJUnit.Element.rerunsFailed.contains).count
    let flaky = kinds.filter(CIJUnit.Element.flaky.contains).count
    if kinds.contains(.skipped) || wasNotRun(testcase) {
      return .init(test: id, status: .skipped, attempts: 0, failures: 0)
    }
    if failed > 0 { return .init(test: id, status: .failed, attempts: 1 + reruns, failures: 1 + reruns) }
    if flaky > 0 { return .init(test: id, status: .flaky, attempts: flaky + 1, failures: flaky) }
    return .init(test: id, status: .passed, attempts: 1, failures: 0)
  }

  /// A test case other runners mark as not run without a `<skipped>`: googletest's disabled
  /// tests (`status="notrun"`, `result="suppressed"` or `"skipped"`), and `executed="False"`.
  private static func wasNotRun(_ testcase: XMLTree) -> Bool {
    let said = { (name: String) in testcase.attributes[name]?.lowercased() }
    return ["notrun", "disabled", "skipped", "ignored"].contains(said("status"))
      || ["suppressed", "skipped"].contains(said("result")) || said("executed") == "false"
  }

  /// A test case of `flakelab ci`'s file, by its `status`. A quarantined test's reruns are not in
  /// the file, so its counts are the fewest its status allows.
  private static func flakeLabResult(_ testcase: XMLTree) -> RecordedRun.Result? {
    guard let status = testcase.attributes["status"].flatMap(CITest.Status.init) else { return nil }
    let id = id(classname: testcase.attributes["classname"], name: testcase.attributes["name"] ?? "")
    let runs = testcase.children.filter { CIJUnit.Element(rawValue: $0.name).map { $0 != .skipped } ?? false }
    let besideACrash = status == .flaky && runs.first?.attributes["type"] == CIJUnit.crashBesideOthers
    switch status {
    case .skipped, .notRun: return .init(test: id, status: status, attempts: 0, failures: 0)
    case .interrupted: return .init(test: id, status: status, attempts: 1, failures: 1)
    case .passed: return .init(test: id, status: status, attempts: 1, failures: 0)
    case .flaky:
      let failures = max(runs.count, 1)
      return .init(test: id, status: status, attempts: failures + 1, failures: failures, besideACrash: besideACrash)
    case .failed:
      let failures = max(runs.count, 1)
      return .init(test: id, status: status, attempts: failures, failures: failures)
    case .failsInSuite:
      // Its runs alone passed, and are not in the file: one each, as many as the suite's failed.
      let failures = max(runs.count, 2)
      return .init(test: id, status: status, attempts: 2 * failures - 1, failures: failures)
    }
  }

  private static func merged(_ first: RecordedRun.Result, _ second: RecordedRun.Result) -> RecordedRun.Result {
    let attempts = first.attempts + second.attempts
    let failures = first.failures + second.failures
    let status: CITest.Status =
      if attempts == 0 { .skipped } else if failures == 0 { .passed } else if failures == attempts { .failed } else {
        .flaky
      }
    return .init(test: first.test, status: status, attempts: attempts, failures: failures)
  }
}

/// JUnit XML of `flakelab ci`, as Maven Surefire writes reruns, which Jenkins and GitLab read: a
/// test that failed and then passed alone is a passing `<testcase>` holding a `<flakyFailure>`
/// (`<flakyError>` for a crash or a hang) per failed run; one that failed every time holds a
/// `<failure>` (`<error>`) and a `<rerunFailure>` (`<rerunError>`) per retry. A quarantined test
/// that failed is `<skipped>` with what happened: it does not fail the job, and the report says so.
/// A test that failed every time after the tests before it and passed alone is a `<failure>`
/// with a `<rerunFailure>` per run in the suite that failed again. Each test case's `status` is
/// what the run made of it (`passed`, `flaky`, `failed`, `failsInSuite`, `skipped`, `notRun`),
/// so a history importing the file keeps a quarantined failure as a failure; a run
/// of a test in flight when the pass's process crashed, none of them crashing alone, has the
/// type `crashBesideOthers`. Each suite's properties hold the run's seed; a test case that failed
/// has the command that replays it in its `<system-out>`.
package enum CIJUnit {
  /// The elements a test case's runs are written as, which the history's JUnit import reads
  /// back: a failure (an assertion) or an error (a crash, a hang, a test never run), first as the
  /// test's own, then as a rerun that failed again, or in a test that passed in the end.
  package enum Element: String, CaseIterable {
    case failure, error, rerunFailure, rerunError, flakyFailure, flakyError, skipped

    /// The runs of a test that failed for good: the first of them.
    package static let failed: Set<Element> = [.failure, .error]
    /// Its later runs that failed again.
    package static let rerunsFailed: Set<Element> = [.rerunFailure, .rerunError]
    /// The failed runs of a test that passed in the end.
    package static let flaky: Set<Element> = [.flakyFailure, .flakyError]
  }

  /// The name of the file's `<testsuites>`, by which an import knows the file is this one.
  package static let name = "flakelab ci"

  /// The type of a run that crashed beside others, none of which crashed alone.
  package static let crashBesideOthers = "crashBesideOthers"

  package static func render(_ run: CIRun) -> String {
    var suites: [(name: String, tests: [CITest])] = []
    for test in run.tests {
      if let index = suites.firstIndex(where: { $0.name == test.test.suite }) {
        suites[index].tests.append(test)
      } else {
        suites.append((test.test.suite, [test]))
      }
    }
    func count(_ tests: [CITest], _ kind: Kind) -> Int { tests.filter { self.kind(of: $0) == kind }.count }
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      "<testsuites name=\"\(name)\" tests=\"\(run.tests.count)\" failures=\"\(count(run.tests, .failure))\" "
        + "errors=\"\(count(run.tests, .error))\" time=\"\(seconds(run.tests))\">",
    ]
    for suite in suites {
      lines.append(
        "  <testsuite name=\"\(XMLText.escaped(suite.name))\" tests=\"\(suite.tests.count)\" failures=\"\(count(suite.tests, .failure))\" "
          + "errors=\"\(count(suite.tests, .error))\" skipped=\"\(count(suite.tests, .skipped))\" time=\"\(seconds(suite.tests))\">"
      )
      lines +=
        ["    <properties>"]
        + properties(run).map { "      <property name=\"\($0.name)\" value=\"\(XMLText.escaped($0.value))\"/>" }
        + ["    </properties>"]
      for test in suite.tests { lines += testcase(test, replay: run.replay(of: test), packagePath: run.packagePath) }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The run's own properties, on each suite: its seed and retries, and what files it in a
  /// history (its ID, start, commit and branch), so that its JUnit imported is the run its JSON or
  /// `--record` stored, never a second one.
  package enum Property {
    package static let run = "run"
    package static let started = "started"
    package static let commit = "commit"
    package static let branch = "branch"
  }

  private static func properties(_ run: CIRun) -> [(name: String, value: String)] {
    let git = run.context.git.map { git in
      [(Property.commit, git.commit)] + (git.branch.map { [(Property.branch, $0)] } ?? [])
    }
    return [
      ("seed", String(run.seed)), ("retries", String(run.retries)), (Property.run, run.id),
      (Property.started, Timestamp.iso8601(run.started)),
    ] + (git ?? [])
  }

  private enum Kind { case passed, failure, error, skipped }

  /// What the test case is to a CI's test view: a crash, a hang or a test never run is an error.
  private static func kind(of test: CITest) -> Kind {
    if test.quarantine != nil, test.status != .passed { return .skipped }
    switch test.status {
    case .passed, .flaky: return .passed
    case .skipped, .interrupted: return .skipped
    case .notRun: return .error
    case .failed, .failsInSuite: return test.attempts.first.map(isError) ?? false ? .error : .failure
    }
  }

  private static func isError(_ attempt: CITest.Attempt) -> Bool {
    switch attempt.outcome {
    case .crashed, .timedOut: true
    default: false
    }
  }

  private static func testcase(_ test: CITest, replay: String?, packagePath: String) -> [String] {
    let open =
      "    <testcase name=\"\(XMLText.escaped(test.test.function))\" classname=\"\(XMLText.escaped(test.test.suite))\" "
      + "time=\"\(seconds([test]))\" status=\"\(test.status.rawValue)\""
    var children: [String] = []
    if let entry = test.quarantine, test.status != .passed {
      let said = test.seen.map { ": " + CIText.said($0) } ?? ""
      children.append(
        "<\(Element.skipped) message=\"\(XMLText.escaped("quarantined since \(entry.added) (\(entry.reason)); \(test.status.rawValue)\(said)"))\"/>"
      )
    } else {
      switch test.status {
      case .passed: break
      case .skipped:
        children.append(
          "<\(Element.skipped) message=\"\(XMLText.escaped(test.attempts.first.map(CIText.said) ?? "skipped"))\"/>")
      case .notRun:
        children.append(
          "<\(Element.error) message=\"the test never started: its processes ended before it\" type=\"notRun\"/>")
      case .interrupted:
        let said = test.seen.map { ": " + CIText.said($0) } ?? ""
        children.append(
          "<\(Element.skipped) message=\"\(XMLText.escaped("failed in the pass, then the interrupt cut its retries short\(said)"))\"/>"
        )
      case .flaky:
        children += test.attempts.filter(\.failed).map {
          element(isError($0) ? .flakyError : .flakyFailure, $0, packagePath: packagePath)
        }
      case .failed, .failsInSuite:
        let failed = test.attempts.filter(\.failed)
        children += failed.prefix(1).map { element(isError($0) ? .error : .failure, $0, packagePath: packagePath) }
        children += failed.dropFirst().map {
          element(isError($0) ? .rerunError : .rerunFailure, $0, packagePath: packagePath)
        }
      }
    }
    if let replay { children.append("<system-out>replay: \(XMLText.escaped(replay))</system-out>") }
    guard !children.isEmpty else { return [open + "/>"] }
    return [open + ">"] + children.map { "      " + $0 } + ["    </testcase>"]
  }

  private static func element(_ name: Element, _ attempt: CITest.Attempt, packagePath: String) -> String {
    let type = attempt.outcome.isCrashBesideOthers ? crashBesideOthers : OutcomeCoding.kind(of: attempt.outcome)
    let place = attempt.place.map { " at " + $0.place(relativeTo: packagePath) } ?? ""
    return "<\(name) message=\"\(XMLText.escaped(CIText.said(attempt) + place))\" type=\"\(type)\"/>"
  }

  private static func seconds(_ tests: [CITest]) -> String {
    String(format: "%.3f", tests.reduce(0) { $0 + $1.attempts.reduce(0) { $0 + $1.seconds } })
  }
}

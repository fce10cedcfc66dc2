/// GitHub Actions workflow commands for `flakelab ci`: an `::error` for each test that fails the
/// job, a `::warning` for each flaky or quarantined one that did not pass, at the line its
/// failure was recorded at (else the test's declaration); and one for
/// each crash of the pass none of the tests in flight caused alone, which has no line of its own.
package enum CIAnnotations {
  package static func lines(_ run: CIRun, workspace: String) -> [String] {
    let crashes = run.crashes.map { crash in
      let failsTheJob = crash.tests.contains { $0.failsTheJob(failOnFlaky: run.failOnFlaky) }
      let tests = crash.tests.map(\.test.id).sorted()
      return (failsTheJob ? "::error " : "::warning ") + "title="
        + ReportAnnotations.property("crash of the pass's process")
        + "::"
        + ReportAnnotations.data(
          crash.crash.sentence + " Flaky, each passed alone: " + Formatting.list(tests) + "."
            + (crash.crash.how.map { " Seen: " + $0 } ?? ""))
    }
    let tests = run.shown.map { test in
      var properties: [String] = []
      if let location = test.seen?.place ?? test.location {
        properties += [
          "file=" + ReportAnnotations.property(location.path(relativeTo: workspace)), "line=\(location.line)",
        ]
      }
      let label = test.quarantine != nil ? "quarantined, \(test.status.rawValue)" : test.status.rawValue
      properties.append("title=" + ReportAnnotations.property("\(test.test.id) \(label)"))
      let seen =
        (test.seen.map { ": " + CIText.said($0) } ?? "") + (run.replay(of: test).map { ". Replay: " + $0 } ?? "")
      let command = test.failsTheJob(failOnFlaky: run.failOnFlaky) ? "::error " : "::warning "
      return command + properties.joined(separator: ",") + "::"
        + ReportAnnotations.data(CIText.story(test, of: run) + seen)
    }
    return tests + crashes
  }
}

/// GitHub Actions workflow commands for `flakelab ci`: an `::error` at the line of each test that
/// fails the job, a `::warning` at each flaky or quarantined one that did not pass.
package enum CIAnnotations {
  package static func lines(_ run: CIRun, workspace: String) -> [String] {
    let shown = run.tests.filter { $0.status != .passed && $0.status != .skipped }
    return shown.map { test in
      var properties: [String] = []
      if let location = test.location {
        properties += [
          "file=" + GitHubAnnotations.property(location.path(relativeTo: workspace)), "line=\(location.line)",
        ]
      }
      let label = test.quarantine != nil ? "quarantined, \(test.status.rawValue)" : test.status.rawValue
      properties.append("title=" + GitHubAnnotations.property("\(test.test.id) \(label)"))
      let seen = test.attempts.first(where: \.failed).map { ": " + ($0.example ?? OutcomeText.describe($0.outcome)) } ?? ""
      let command = test.failsTheJob(failOnFlaky: run.failOnFlaky) ? "::error " : "::warning "
      return command + properties.joined(separator: ",") + "::" + GitHubAnnotations.data(CIText.story(test) + seen)
    }
  }
}

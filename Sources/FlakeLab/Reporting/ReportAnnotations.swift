import Foundation

/// GitHub Actions workflow commands: one `::warning` per test that is not stable, at the line to
/// open (``LeadLine``: the failing assertion, the blocking call, the polluter; else the test's
/// declaration), so that a pull request shows it beside the code to change. The runner reads them
/// from a step's output; the message is the verdict, the diagnosis, the failures and what to do.
package enum ReportAnnotations {
  /// The commands for `report`, paths relative to `workspace` (`$GITHUB_WORKSPACE`, the
  /// checkout the pull request's files are shown from).
  package static func lines(_ report: Report, workspace: String) -> [String] {
    let answer = SuiteAnswer(report)
    let crash = answer.crash.map { crash in
      "::warning title=" + property("flakelab: the test process crashed") + "::"
        + data(crash.sentence + (crash.how.map { " Seen: \($0)" } ?? ""))
    }
    return (crash.map { [$0] } ?? [])
      + answer.unstable.flatMap { finding in
        [annotation(finding, workspace: workspace)] + races(finding, workspace: workspace)
      }
  }

  /// The test's annotation, at its line to open.
  private static func annotation(_ finding: TestFinding, workspace: String) -> String {
    var properties: [String] = []
    if let location = finding.lead?.location ?? finding.location {
      properties += ["file=" + property(location.path(relativeTo: workspace)), "line=\(location.line)"]
    }
    properties.append("title=" + property("\(finding.test.id) is \(finding.verdict.rawValue)"))
    let failures = finding.runs.filter { $0.tally.notPassed > 0 }.map {
      "\($0.test?.layout.rawValue ?? "run") \($0.executor) \(Formatting.count($0.tally.notPassed))/\(Formatting.count($0.tally.ran))"
    }
    var message =
      finding.diagnosis.map { "\($0.rawValue): \(finding.summary ?? $0.summary)" } ?? finding.verdict.rawValue
    message += ". Failed: " + failures.joined(separator: ", ") + "."
    if let advice = finding.advice { message += " Do: \(advice)." }
    return "::warning " + properties.joined(separator: ",") + "::" + data(message)
  }

  /// One annotation at each racing line the thread sanitizer named for the test, but the line
  /// its own annotation is at: a pull request shows both accesses.
  private static func races(_ finding: TestFinding, workspace: String) -> [String] {
    guard let evidence = finding.races, let packagePath = finding.packagePath else { return [] }
    var annotated: Set<SourceLocation> = Set([finding.lead?.location].compactMap { $0 })
    return evidence.races.prefix(3).flatMap { seen in
      seen.race.accesses.compactMap { access -> String? in
        guard let place = access.place(in: packagePath), annotated.insert(place).inserted else { return nil }
        let properties = [
          "file=" + property(place.path(relativeTo: workspace)), "line=\(place.line)",
          "title=" + property("\(finding.test.id): a data race"),
        ]
        return "::warning " + properties.joined(separator: ",") + "::"
          + data(RaceText.describe(seen, of: evidence, packagePath: packagePath))
      }
    }
  }

  /// A command's message: `%`, carriage return and newline escaped, other control characters
  /// shown as escapes.
  static func data(_ text: String) -> String {
    Formatting.printable(text, keeping: ["\n", "\r"]).replacingOccurrences(of: "%", with: "%25").replacingOccurrences(
      of: "\r", with: "%0D"
    )
    .replacingOccurrences(of: "\n", with: "%0A")
  }

  /// A property's value: a message's escapes, and the separators `:` and `,`.
  static func property(_ text: String) -> String {
    data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
  }
}

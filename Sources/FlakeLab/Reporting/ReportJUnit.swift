import Foundation

/// JUnit XML (`--format junit`) for the CI tools that read test results, valid against the
/// Jenkins `junit-10.xsd` schema: one `<testsuite>` per scenario (or test suite), with the
/// report's seed and confidence as its properties, and one `<testcase>` per variant and
/// executor, whose counts, rate and interval are its `<system-out>` (the schema allows no
/// properties on a test case).
///
/// A test case fails when the run has a problem (a gate not met, a violated claim, a rise over
/// the baseline) or, with no gate at all, when no iteration passed; the `<failure>` carries the
/// rate, its interval and the top outcomes. A claim `check` could not show is `<skipped>`.
package enum ReportJUnit {
  package static func render(_ report: Report) -> String {
    var suites: [(name: String, runs: [RunResult])] = []
    for run in report.runs {
      if let index = suites.firstIndex(where: { $0.name == run.scenario }) {
        suites[index].runs.append(run)
      } else {
        suites.append((run.scenario, [run]))
      }
    }
    let failures = report.runs.filter(isFailure).count
    let skipped = report.runs.filter(isSkipped).count
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      "<testsuites name=\"flakelab\" tests=\"\(report.runs.count)\" failures=\"\(failures)\" errors=\"0\" disabled=\"\(skipped)\" time=\"\(seconds(report.runs))\">",
    ]
    for suite in suites {
      let suiteFailures = suite.runs.filter(isFailure).count
      let suiteSkipped = suite.runs.filter(isSkipped).count
      lines.append(
        "  <testsuite name=\"\(XMLText.escaped(suite.name))\" tests=\"\(suite.runs.count)\" failures=\"\(suiteFailures)\" errors=\"0\" skipped=\"\(suiteSkipped)\" time=\"\(seconds(suite.runs))\">"
      )
      lines.append("    <properties>")
      let properties = [("confidence", "\(report.confidence)")] + (report.seed.map { [("seed", "\($0)")] } ?? [])
      for (name, value) in properties {
        lines.append("      <property name=\"\(name)\" value=\"\(XMLText.escaped(value))\"/>")
      }
      lines.append("    </properties>")
      for run in suite.runs { lines += testcase(run, in: report) }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A run that fails the command, or that ran iterations none of which passed.
  static func isFailure(_ run: RunResult) -> Bool {
    !run.problems.isEmpty || (run.tally.ran > 0 && run.tally.passed == 0 && !isSkipped(run))
  }

  /// A claim `check` could not show, or a test its framework skipped in every iteration.
  static func isSkipped(_ run: RunResult) -> Bool {
    run.problems.isEmpty
      && (run.verdict?.status == .notShown || (run.tally.iterations > 0 && !run.tally.hasRate))
  }

  private static func testcase(_ run: RunResult, in report: Report) -> [String] {
    let tally = run.tally
    let estimate = run.estimate
    var lines = [
      "    <testcase classname=\"\(XMLText.escaped(run.scenario))\" name=\"\(XMLText.escaped("\(run.variant) [\(run.executor)]"))\" time=\"\(String(format: "%.3f", run.seconds))\">"
    ]
    let rate = RateText.withInterval(estimate)
    if isSkipped(run), let verdict = run.verdict {
      lines.append(
        "      <skipped message=\"\(XMLText.escaped("\(verdict.claim.rawValue)? not shown: \(verdict.reason)"))\"/>")
    } else if isSkipped(run) {
      let reason = tally.outcomesByFrequency.first.map { OutcomeText.describe($0.outcome) } ?? "skipped"
      lines.append("      <skipped message=\"\(XMLText.escaped(reason))\"/>")
    } else if isFailure(run) {
      let problems = run.problems.isEmpty ? ["no iteration passed"] : run.problems.map(ProblemText.describe)
      let outcomes = tally.outcomesByFrequency.prefix(5).map {
        "\($0.count) × \(OutcomeText.describe($0.outcome))"
          + (tally.places[$0.outcome].map { " at " + $0.place(relativeTo: run.test?.packagePath) } ?? "")
      }
      let body = (problems + ["failure rate \(rate) over \(tally.iterations) iterations"] + outcomes)
        .joined(separator: "\n")
      lines.append(
        "      <failure type=\"flakelab\" message=\"\(XMLText.escaped(problems.joined(separator: "; ")))\">\(XMLText.escaped(body))</failure>"
      )
    }
    let counts = ReplicateCounts(tally)
    var figures = ReportJSON.CountField.all.map { ($0.key, "\($0.count(counts))") }
    figures += [
      (ReportJSON.Key.failureRate, "\(tally.failureRate)"), ("confidenceLow", "\(estimate.low)"),
      ("confidenceHigh", "\(estimate.high)"), ("confidenceMethod", estimate.method.rawValue),
      (ReportJSON.Key.replicates, "\(run.replicates.count)"),
    ]
    figures += estimate.dispersion.map { [("dispersion", "\($0)")] } ?? []
    // What a budget, an interrupt or a settled answer left unrun, and why.
    figures +=
      run.notRun > 0
      ? [(ReportJSON.Key.notRun, "\(run.notRun)"), (ReportJSON.Key.stopped, run.stop?.rawValue ?? "")] : []
    figures += run.verdict.map { [("claim", $0.claim.rawValue), ("verdict", $0.status.rawValue)] } ?? []
    figures += run.schedule.map { [("seed", "\($0.seed)")] } ?? []
    figures += run.test.map { [("test", $0.test.id), ("framework", $0.test.framework.rawValue)] } ?? []
    // The thread sanitizer's races of the test, on each of its runs: a CI shows one at a time.
    if let finding = report.tests.first(where: { $0.test == run.test?.test }) {
      figures += SuiteAnswerText.raceLines(finding).map { ("race", $0) }
    }
    let text = figures.map { "\($0.0)=\($0.1)" }.joined(separator: "\n")
    // Element text keeps its line breaks, which CI tools show as the test's output.
    lines.append("      <system-out>\(XMLText.escaped(text, inAttribute: false))</system-out>")
    lines.append("    </testcase>")
    return lines
  }

  private static func seconds(_ runs: [RunResult]) -> String {
    String(format: "%.3f", runs.reduce(0) { $0 + $1.seconds })
  }

}

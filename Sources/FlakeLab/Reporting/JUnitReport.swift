import Foundation

/// JUnit XML (`--format junit`) for the CI tools that read test results: one `<testsuite>` per
/// scenario, one `<testcase>` per variant and executor, with the counts as properties and a
/// `<failure>` carrying the rate, its interval and the top outcomes when the run has a problem
/// (a gate not met, a violated claim, a rise over the baseline).
public enum JUnitReport {
  public static func render(_ report: Report) -> String {
    var suites: [(name: String, runs: [RunResult])] = []
    for run in report.runs {
      if let index = suites.firstIndex(where: { $0.name == run.scenario }) {
        suites[index].runs.append(run)
      } else {
        suites.append((run.scenario, [run]))
      }
    }
    let failures = report.runs.filter { !$0.problems.isEmpty }.count
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      "<testsuites name=\"flakelab\" tests=\"\(report.runs.count)\" failures=\"\(failures)\" time=\"\(seconds(report.runs))\">",
    ]
    for suite in suites {
      let suiteFailures = suite.runs.filter { !$0.problems.isEmpty }.count
      lines.append(
        "  <testsuite name=\"\(escape(suite.name))\" tests=\"\(suite.runs.count)\" failures=\"\(suiteFailures)\" errors=\"0\" time=\"\(seconds(suite.runs))\">"
      )
      for run in suite.runs { lines += testcase(run, in: report) }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }

  private static func testcase(_ run: RunResult, in report: Report) -> [String] {
    let tally = run.tally
    let interval = report.interval(of: run)
    var lines = [
      "    <testcase classname=\"\(escape(run.scenario))\" name=\"\(escape("\(run.variant) [\(run.executor)]"))\" time=\"\(String(format: "%.3f", run.seconds))\">",
      "      <properties>",
    ]
    let properties: [(String, String)] = [
      ("iterations", "\(tally.iterations)"), ("passed", "\(tally.passed)"),
      ("failed", "\(tally.failed)"), ("crashed", "\(tally.crashed)"),
      ("timedOut", "\(tally.timedOut)"), ("failureRate", "\(tally.failureRate)"),
      ("confidenceLow", "\(interval.low)"), ("confidenceHigh", "\(interval.high)"),
    ] + (run.verdict.map { [("claim", $0.claim.rawValue), ("verdict", $0.status.rawValue)] } ?? [])
    for (name, value) in properties {
      lines.append("        <property name=\"\(name)\" value=\"\(escape(value))\"/>")
    }
    lines.append("      </properties>")
    if !run.problems.isEmpty {
      let rate = RateText.withInterval(tally.failureRate, interval)
      let outcomes = tally.outcomesByFrequency.prefix(5).map {
        "\($0.count) × \(OutcomeText.describe($0.outcome))"
      }
      let body = (run.problems + ["failure rate \(rate) over \(tally.iterations) iterations"] + outcomes)
        .joined(separator: "\n")
      lines.append(
        "      <failure type=\"flakelab\" message=\"\(escape(run.problems.joined(separator: "; ")))\">\(escape(body))</failure>"
      )
    }
    lines.append("    </testcase>")
    return lines
  }

  private static func seconds(_ runs: [RunResult]) -> String {
    String(format: "%.3f", runs.reduce(0) { $0 + $1.seconds })
  }

  /// Text safe in XML attributes and elements; characters XML 1.0 forbids are dropped.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += "&#10;"
      case "\t", "\r": out += "&#\(scalar.value);"
      case _ where scalar.value < 0x20: continue
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

import FlakeLab
import Foundation

/// `flakelab history`: the answer as text, most telling first: the tests that passed and failed
/// on the same commit, then those that only failed, then what stopped flaking, what may leave
/// the quarantine, and the gate.
package enum HistoryText {
  package static func render(_ answer: HistoryAnswer, path: String) -> String {
    var lines = [header(answer, path: path)]
    lines.append(
      "\(runs(answer.ciRuns, "CI run")) and \(runs(answer.labRuns, "lab run")) on \(runs(answer.commits, "commit")).")
    let flaky = answer.tests.filter(\.isFlaky)
    let inSuite = answer.tests.filter(\.failsInSuite)
    let failed = answer.tests.filter { !$0.isFlaky && !$0.failsInSuite }
    if answer.tests.isEmpty {
      lines.append("No test failed in the window.")
    }
    if !flaky.isEmpty {
      lines += ["", "Flaky: passed and failed on the same commit (\(flaky.count)):"]
      for test in flaky {
        lines.append("  " + test.test)
        lines.append("    " + rate(test, confidence: answer.confidence))
        if let first = test.firstFlaked {
          let commits = test.flakyCommits.count
          lines.append(
            "    first flaked on \(short(first.commit)) (\(day(first.started)))"
              + (commits > 1 ? "; flaky on \(commits) commits" : ""))
        }
      }
    }
    if !inSuite.isEmpty {
      lines += [
        "", "Failed in the suite every time and passed alone: a test before it fails it, not flaky (\(inSuite.count)):",
      ]
      for test in inSuite { lines += ["  " + test.test, "    " + rate(test, confidence: answer.confidence)] }
    }
    if !failed.isEmpty {
      lines += ["", "Failed, never beside a pass on the same commit (\(failed.count)):"]
      for test in failed { lines += ["  " + test.test, "    " + rate(test, confidence: answer.confidence)] }
    }
    if !answer.crashes.isEmpty {
      lines += [
        "",
        "Crashed with tests in flight, none of which crashed alone (\(runs(answer.crashes.count, "run"))): "
          + CrashBesideOthers.meaning + ":",
      ]
      lines += answer.crashes.map(crashLine).map { "  " + $0 }
    }
    if !answer.stoppedFlaking.isEmpty {
      lines += ["", "Stopped flaking: passed each of their last \(answer.quietRuns) CI runs:"]
      lines += answer.stoppedFlaking.map { "  " + $0 }
    }
    if !answer.readyToLeave.isEmpty {
      lines += ["", "Ready to leave the quarantine: passed each of their last \(answer.quietRuns) recorded CI runs:"]
      lines += answer.readyToLeave.map { "  \($0)    (flakelab quarantine remove \(ScheduleText.shellQuoted($0)))" }
    }
    if let gate = answer.gate {
      let gateLines = gateLines(gate, answer: answer)
      lines += [""] + gateLines.prefix(1) + gateLines.dropFirst().map { "  " + $0 }
    }
    return Formatting.lines(lines)
  }

  static func header(_ answer: HistoryAnswer, path: String) -> String {
    "flakelab \(Report.labVersion) · history \(path) · \(day(answer.window.from)) to \(day(answer.window.to))"
      + (answer.window.branch.map { " · branch \($0)" } ?? " · every branch")
  }

  /// `CI: failed first in 3 of 12 runs, 25.00% (95% interval 8.89%–53.23%); flipped 5 times in 11`.
  static func rate(_ test: HistoryAnswer.TestHistory, confidence: Double) -> String {
    guard test.ciRuns > 0 else { return "no CI run in the window (lab runs only)" }
    return "CI: failed first in \(test.ciFailures) of \(runs(test.ciRuns, "run")), \(Formatting.percent(test.rate)) "
      + "(\(Int((confidence * 100).rounded()))% interval \(Formatting.percent(test.low))–\(Formatting.percent(test.high)))"
      + (test.pairs == 0
        ? ""
        : "; flipped in \(test.flips) of \(test.pairs) pairs of runs in a row (\(Formatting.percent(test.flipRate)))")
  }

  /// The gate's verdict, then the tests too few runs leave undecided, when there are any.
  static func gateLines(_ gate: HistoryAnswer.GateResult, answer: HistoryAnswer) -> [String] {
    let bound = Formatting.percent(gate.maxFailureRate)
    let verdict =
      gate.over.isEmpty
      ? "Gate --max-failure-rate \(bound): passed; no test's CI failure rate is shown above it."
      : "Gate --max-failure-rate \(bound): FAILED: "
        + gate.over.map { name in
          let test = answer.tests.first { $0.test == name }
          return name + (test.map { " (interval \(Formatting.percent($0.low))–\(Formatting.percent($0.high)))" } ?? "")
        }.joined(separator: ", ")
    guard !gate.undecided.isEmpty else { return [verdict] }
    return [
      verdict, "Too few runs to tell either way (not failing the job): " + gate.undecided.joined(separator: ", "),
    ]
  }

  /// `2026-11-24 14:03:27 UTC fab95a48ac: M.a(), M.b()`: to the second, since one commit's runs
  /// of a day would otherwise read as one line repeated.
  static func crashLine(_ crash: HistoryAnswer.CrashInFlight) -> String {
    let time = Timestamp.iso8601(crash.started).prefix(19).replacingOccurrences(of: "T", with: " ")
    return "\(time) UTC \(short(crash.commit)): " + crash.tests.joined(separator: ", ")
  }

  static func runs(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  static func short(_ commit: String?) -> String {
    commit.map { String($0.prefix(10)) } ?? "no commit"
  }

  static func day(_ date: Date) -> String {
    String(Timestamp.iso8601(date).prefix(10))
  }
}

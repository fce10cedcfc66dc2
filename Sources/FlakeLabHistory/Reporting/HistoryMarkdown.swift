import FlakeLab

/// `flakelab history --format markdown`: the answer as a table, for a job summary or an issue.
package enum HistoryMarkdown {
  package static func render(_ answer: HistoryAnswer, path: String) -> String {
    var lines = [
      "### FlakeLab history", "",
      ReportMarkdown.escaped(HistoryText.header(answer, path: path)) + ": "
        + "\(HistoryText.runs(answer.ciRuns, "CI run")) and \(HistoryText.runs(answer.labRuns, "lab run")) "
        + "on \(HistoryText.runs(answer.commits, "commit")).",
      "",
    ]
    if answer.tests.isEmpty {
      lines.append("No test failed in the window.")
    } else {
      lines += [
        "| Test | Flaky | CI failed first | Rate (\(Int((answer.confidence * 100).rounded()))% interval) | Flips | First flaked |",
        "|---|---|---|---|---|---|",
      ]
      for test in answer.tests {
        let first = test.firstFlaked.map { "`\(HistoryText.short($0.commit))` \(HistoryText.day($0.started))" } ?? "—"
        let rate =
          test.ciRuns == 0
          ? "—" : "\(Formatting.percent(test.rate)) (\(Formatting.percent(test.low))–\(Formatting.percent(test.high)))"
        lines.append(
          "| \(ReportMarkdown.code(test.test)) | \(flaky(test)) "
            + "| \(test.ciFailures) of \(test.ciRuns) | \(rate) | \(test.flips) of \(test.pairs) | \(first) |")
      }
    }
    if !answer.crashes.isEmpty {
      lines += [
        "",
        "**Crashed with tests in flight**, none of which crashed alone: "
          + ReportMarkdown.escaped(CrashBesideOthers.meaning) + ".", "",
      ]
      lines += answer.crashes.map { "- " + ReportMarkdown.escaped(HistoryText.crashLine($0)) }
    }
    if !answer.stoppedFlaking.isEmpty {
      lines += [
        "",
        "**Stopped flaking** (each of their last \(answer.quietRuns) CI runs passed): "
          + answer.stoppedFlaking.map(ReportMarkdown.code).joined(separator: ", "),
      ]
    }
    if !answer.readyToLeave.isEmpty {
      lines += [
        "",
        "**Ready to leave the quarantine** (each of their last \(answer.quietRuns) recorded CI runs passed): "
          + answer.readyToLeave.map(ReportMarkdown.code).joined(separator: ", "),
      ]
    }
    if !answer.races.isEmpty {
      lines += ["", "**" + ReportMarkdown.escaped(HistoryText.racesHeading(answer)) + "**", ""]
      lines += answer.races.map { race in
        "- " + ReportMarkdown.escaped(HistoryText.raceLine(race)) + ": "
          + ReportMarkdown.escaped(HistoryText.raceStatus(race))
      }
    }
    if let gate = answer.gate {
      lines += HistoryText.gateLines(gate, answer: answer).flatMap { ["", ReportMarkdown.escaped($0)] }
    }
    let raceGate = HistoryText.raceGateLines(answer)
    if let verdict = raceGate.first {
      lines += ["", ReportMarkdown.escaped(verdict)] + raceGate.dropFirst().map { "- " + ReportMarkdown.escaped($0) }
    }
    return Formatting.lines(lines)
  }

  /// Whether the test is flaky, or fails in the suite and passes alone, which is not flaky.
  private static func flaky(_ test: HistoryAnswer.TestHistory) -> String {
    if test.isFlaky { return "yes, on \(test.flakyCommits.count) commit\(test.flakyCommits.count == 1 ? "" : "s")" }
    return test.failsInSuite ? "no: fails in the suite, passes alone" : "no"
  }
}

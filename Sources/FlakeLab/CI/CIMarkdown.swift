/// `flakelab ci --format markdown`, and the GitHub job summary: a headline, one table row per test
/// that did not simply pass (one row for the tests of a crash none of them caused alone), and the
/// text answer's summary and verdict.
package enum CIMarkdown {
  package static func render(_ run: CIRun) -> String {
    let shown = run.shown
    var lines = ["### flakelab ci: " + (run.failsTheJob ? "the job fails" : "the job passes")]
    if !shown.isEmpty || !run.crashes.isEmpty {
      lines += ["", "| test | status | what happened | seen |", "| --- | --- | --- | --- |"]
      for test in shown {
        let status = test.quarantine != nil ? "quarantined (\(test.status.rawValue))" : test.status.rawValue
        let seen = test.seen.map(CIText.said).map(ReportMarkdown.escaped) ?? ""
        let place =
          test.seen?.place.map { "<br>at " + ReportMarkdown.code($0.place(relativeTo: run.packagePath)) } ?? ""
        lines.append(
          "| "
            + [
              ReportMarkdown.code(test.test.id), status, ReportMarkdown.escaped(CIText.story(test, of: run)),
              seen + place,
            ]
            .joined(separator: " | ") + " |")
      }
      for crash in run.crashes {
        let tests = crash.tests.map(\.test.id).sorted().map(ReportMarkdown.code).joined(separator: ", ")
        let cells = [
          tests, "flaky beside a crash",
          ReportMarkdown.escaped(crash.crash.headline + ": " + CrashBesideOthers.meaning),
          ReportMarkdown.escaped(crash.crash.how ?? ""),
        ]
        lines.append("| " + cells.joined(separator: " | ") + " |")
      }
    }
    let replays = shown.compactMap { test in run.replay(of: test).map { (test.test.id, $0) } }
    if !replays.isEmpty {
      lines += ["", "<details><summary>Replay a failure with its seed (\(run.seed))</summary>", ""]
      for (test, command) in replays { lines += [ReportMarkdown.code(test) + ":", "", "```sh", command, "```", ""] }
      lines.append("</details>")
    }
    let stale = run.context.staleQuarantine
    if !stale.isEmpty { lines += [""] + stale.map { "- " + ReportMarkdown.escaped(CIText.stale($0)) } }
    lines += ["", CIText.summary(run) + " " + CIText.verdict(run)]
    return Formatting.lines(lines)
  }
}

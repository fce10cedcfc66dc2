import FlakeLab

/// `flakelab history --format html`: one self-contained page (no script, no request; light and
/// dark follow the reader's setting, as the `flakelab test` page does). First an overview table,
/// a row per test that did not pass in some run: its CI failure rate with the interval, its
/// flips, the commit it first flaked on, what it is now and whether the quarantine holds it.
/// Then a section per test with its timeline: a mark per run, oldest on the left, coloured by
/// status as the legend says, the commit, day and counts on hover; the window's first and last
/// days under it. Then the crashes none of their tests caused alone, what stopped flaking, what
/// may leave the quarantine and the gate. The page is well-formed XML, which the tests check.
///
/// A history of a million results stays a page a browser opens: at most ``mostTests`` tests (the
/// flaky first, then by rate) and the last ``mostMarks`` runs of each, and the page says what it
/// left out; `--format json` holds everything.
package enum HistoryHTML {
  package static let mostTests = 300
  package static let mostMarks = 200

  package static func render(_ answer: HistoryAnswer, path: String) -> String {
    let flaky = answer.tests.filter(\.isFlaky).count
    let title =
      answer.tests.isEmpty
      ? "FlakeLab history: no test failed"
      : "FlakeLab history: \(HistoryText.runs(flaky, "flaky test")), \(answer.tests.count - flaky) failed"
    var body = [
      "<h1>\(text(title))</h1>",
      "<p class=\"where\">\(text(HistoryText.header(answer, path: path)))<br/>"
        + "\(HistoryText.runs(answer.ciRuns, "CI run")) and \(HistoryText.runs(answer.labRuns, "lab run")) "
        + "on \(HistoryText.runs(answer.commits, "commit")).</p>",
    ]
    if answer.tests.isEmpty {
      body.append("<p>No test failed in the window.</p>")
    } else {
      let shown = answer.tests.prefix(mostTests)
      body.append(overview(answer, shown))
      if shown.count < answer.tests.count {
        body.append(
          "<p class=\"where\">The first \(shown.count) of \(answer.tests.count) tests that did not pass, "
            + "the flaky first, then by rate: --format json has every one.</p>")
      }
      body.append(legend)
      for (index, test) in shown.enumerated() { body.append(section(test, index: index, answer: answer)) }
    }
    if !answer.crashes.isEmpty {
      body.append(
        "<section><h2>Crashed with tests in flight</h2><p>None of them crashed alone: \(text(CrashBesideOthers.meaning)).</p><ul>"
          + answer.crashes.map { "<li>\(text(HistoryText.crashLine($0)))</li>" }.joined() + "</ul></section>")
    }
    if !answer.stoppedFlaking.isEmpty {
      body.append(
        "<section><h2>Stopped flaking</h2><p>Each of their last \(answer.quietRuns) CI runs passed: "
          + answer.stoppedFlaking.map(code).joined(separator: ", ") + "</p></section>")
    }
    if !answer.readyToLeave.isEmpty {
      body.append(
        "<section><h2>Ready to leave the quarantine</h2><p>Each of their last \(answer.quietRuns) recorded CI runs passed: "
          + answer.readyToLeave.map(code).joined(separator: ", ") + "</p></section>")
    }
    if !answer.races.isEmpty {
      body.append(
        "<section><h2>Races</h2><p>\(text(HistoryText.racesHeading(answer))).</p><ul>"
          + answer.races.map { race in
            "<li>\(text(HistoryText.raceLine(race)))<br/>\(text(HistoryText.raceStatus(race)))</li>"
          }.joined() + "</ul></section>")
    }
    if let gate = answer.gate {
      let failed = !gate.over.isEmpty
      body.append(
        "<p class=\"gate\(failed ? " problem" : "")\">"
          + HistoryText.gateLines(gate, answer: answer).map(text).joined(separator: "<br/>") + "</p>")
    }
    let raceGate = HistoryText.raceGateLines(answer)
    if !raceGate.isEmpty {
      body.append(
        "<p class=\"gate\(answer.newRaces.isEmpty ? "" : " problem")\">"
          + raceGate.map(text).joined(separator: "<br/>") + "</p>")
    }
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8"/>
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <title>\(text(title))</title>
      <style>\(ReportHTML.style)\(style)</style>
      </head>
      <body>
      <main>
      \(body.joined(separator: "\n"))
      </main>
      </body>
      </html>

      """
  }

  /// A row per test: the numbers a reader compares, each test linked to its timeline.
  private static func overview(_ answer: HistoryAnswer, _ tests: ArraySlice<HistoryAnswer.TestHistory>) -> String {
    let confidence = Int((answer.confidence * 100).rounded())
    let header =
      "<tr><th>Test</th><th class=\"number\">CI failure rate (\(confidence)% interval)</th><th class=\"number\">Flips</th>"
      + "<th>First flaky commit</th><th>Status</th><th>Quarantine</th></tr>"
    let rows = tests.enumerated().map { index, test in
      let rate =
        test.ciRuns == 0
        ? "lab runs only"
        : "\(Formatting.percent(test.rate)) (\(Formatting.percent(test.low))–\(Formatting.percent(test.high))), "
          + "\(test.ciFailures) of \(test.ciRuns)"
      let flips = test.pairs == 0 ? "–" : "\(test.flips) of \(test.pairs)"
      let first = test.firstFlaked.map { "\(code(HistoryText.short($0.commit))) \(HistoryText.day($0.started))" } ?? "–"
      let status =
        answer.stoppedFlaking.contains(test.test)
        ? "stopped flaking"
        : test.isFlaky
          ? "<span class=\"verdict flaky\">flaky</span>"
          : "<span class=\"verdict\">\(test.failsInSuite ? "fails in the suite" : "failed")</span>"
      let quarantine =
        answer.readyToLeave.contains(test.test)
        ? "ready to leave" : answer.quarantined.contains(test.test) ? "quarantined" : "–"
      return "<tr><td><a href=\"#test-\(index)\">\(code(test.test))</a></td><td class=\"number\">\(text(rate))</td>"
        + "<td class=\"number\">\(flips)</td><td>\(first)</td><td>\(status)</td><td>\(quarantine)</td></tr>"
    }
    return "<div class=\"scroll\"><table class=\"overview\">\(header)\(rows.joined())</table></div>"
  }

  /// What a timeline's marks mean.
  private static let legend =
    "<p class=\"legend\">Each mark is a run, oldest on the left; hover for its commit and day. "
    + [
      ("passed", "passed"), ("flaky", "failed, then passed a retry"),
      ("failed", "failed, in the suite too when it passed alone"), ("skipped", "skipped"),
      ("notRun", "not run"), ("beside", "failed beside a crash none caused alone"),
    ].map { "<span class=\"key\"><span class=\"run \($0.0)\"></span> \($0.1)</span>" }.joined(separator: " ")
    + " <span class=\"key\"><span class=\"run passed lab\"></span> a lab run (flakelab test), outlined</span></p>"

  private static func section(_ test: HistoryAnswer.TestHistory, index: Int, answer: HistoryAnswer) -> String {
    var parts = [
      "<section id=\"test-\(index)\">",
      "<h2>\(code(test.test))\(test.isFlaky ? " <span class=\"verdict flaky\">flaky</span>" : "")</h2>",
      "<p>\(text(HistoryText.rate(test, confidence: answer.confidence)))"
        + (test.firstFlaked.map {
          "<br/>First flaked on \(code(HistoryText.short($0.commit))) \(HistoryText.day($0.started))"
            + (test.flakyCommits.count > 1 ? "; flaky on \(test.flakyCommits.count) commits" : "")
        } ?? "") + "</p>",
      "<div class=\"timeline\" role=\"list\">" + test.timeline.suffix(mostMarks).map(mark).joined() + "</div>",
    ]
    if let first = test.timeline.suffix(mostMarks).first, let last = test.timeline.last {
      let left = test.timeline.count > mostMarks ? " (the last \(mostMarks) of \(test.timeline.count) runs)" : ""
      parts.append(
        "<p class=\"axis\"><span>\(HistoryText.day(first.started))\(left)</span>"
          + "<span>\(HistoryText.day(last.started))</span></p>")
    }
    parts.append("</section>")
    return parts.joined(separator: "\n")
  }

  /// One run: its status as a colour, its day, commit, kind and counts as its title.
  private static func mark(_ point: HistoryAnswer.Point) -> String {
    let said =
      "\(HistoryText.day(point.started)) \(HistoryText.short(point.commit)) \(point.kind.rawValue): "
      + "\(point.status.rawValue), \(point.failures) of \(point.attempts) attempts failed"
      + (point.besideACrash ? "; beside a crash none of the tests in flight caused alone" : "")
    let status = point.besideACrash ? "beside" : point.status.rawValue
    return
      "<span class=\"run \(status)\(point.kind == .lab ? " lab" : "")\" role=\"listitem\" title=\"\(XMLText.escaped(said))\" "
      + "aria-label=\"\(XMLText.escaped(said))\"></span>"
  }

  /// Names and messages as a reader sees them: a line break or a bidirectional control shown as
  /// its escape, never breaking a name in two or reversing its tail.
  private static func text(_ value: String) -> String {
    XMLText.escaped(Formatting.printable(value), inAttribute: false)
  }

  private static func code(_ value: String) -> String { "<code>\(text(value))</code>" }

  /// The history's own additions to the shared look.
  private static let style = """

    :root { --flaky: #d68910; --skipped: #aab7b8; --notrun: #5d6d7e; --beside: #d5d8dc; }
    @media (prefers-color-scheme: dark) { :root { --flaky: #f5b041; --skipped: #707b7c; --notrun: #85929e; --beside: #4d5656; } }
    .scroll { overflow-x: auto; } .overview { border-collapse: collapse; width: 100%; font-size: 0.92em; }
    .overview th, .overview td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
    .overview td:first-child { overflow-wrap: anywhere; } .overview .number { text-align: right; }
    .overview td:not(:first-child) { white-space: nowrap; }
    .verdict.flaky { border-color: var(--flaky); color: var(--flaky); }
    .timeline { display: flex; flex-wrap: wrap; gap: 2px; margin-top: 8px; }
    .run { display: inline-block; width: 10px; height: 18px; border-radius: 2px; background: var(--skipped); vertical-align: middle; }
    .run.passed { background: var(--pass); } .run.flaky { background: var(--flaky); }
    .run.failed, .run.failsInSuite { background: var(--fail); }
    .run.skipped { background: var(--skipped); } .run.notRun { background: var(--notrun); } .run.beside { background: var(--beside); }
    .run.lab { outline: 2px solid var(--ink); outline-offset: -2px; }
    .legend { color: var(--muted); } .key { white-space: nowrap; margin-right: 10px; }
    .axis { display: flex; justify-content: space-between; color: var(--muted); font-size: 0.85em; margin-top: 2px; }
    """
}

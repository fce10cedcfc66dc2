import FlakeLab

/// `flakelab history --format html`: one page with, per test, its rates and a timeline of its
/// runs: a mark per run, oldest on the left, green passed, amber flaky, red failed, grey
/// skipped; a lab run outlined; hover for the day, commit and counts.
package enum HistoryHTML {
  package static func render(_ answer: HistoryAnswer, path: String) -> String {
    let text = { (value: String) in XMLText.escaped(value, inAttribute: false) }
    var body = [
      "<h1>FlakeLab history</h1>",
      "<p>\(text(HistoryText.header(answer, path: path)))<br>"
        + "\(HistoryText.runs(answer.ciRuns, "CI run")) and \(HistoryText.runs(answer.labRuns, "lab run")) "
        + "on \(HistoryText.runs(answer.commits, "commit")).</p>",
    ]
    if answer.tests.isEmpty { body.append("<p>No test failed in the window.</p>") }
    for test in answer.tests {
      body.append("<section><h2><code>\(text(test.test))</code>\(test.isFlaky ? " <span class=\"flaky\">flaky</span>" : "")</h2>")
      body.append("<p>\(text(HistoryText.rate(test, confidence: answer.confidence)))"
        + (test.firstFlaked.map { "<br>first flaked on <code>\(text(HistoryText.short($0.commit)))</code> \(HistoryText.day($0.started))" } ?? "")
        + "</p>")
      body.append("<div class=\"timeline\">" + test.timeline.map(mark).joined() + "</div></section>")
    }
    if !answer.crashes.isEmpty {
      body.append(
        "<h2>Crashed with tests in flight</h2><p>None of them crashed alone; they passed alone, and it counts for none of them:<br>"
          + answer.crashes.map { text(HistoryText.crashLine($0)) }.joined(separator: "<br>") + "</p>")
    }
    if !answer.stoppedFlaking.isEmpty {
      body.append("<h2>Stopped flaking</h2><p>Each of their last \(answer.quietRuns) CI runs passed: "
        + answer.stoppedFlaking.map { "<code>\(text($0))</code>" }.joined(separator: ", ") + "</p>")
    }
    if !answer.readyToLeave.isEmpty {
      body.append("<h2>Ready to leave the quarantine</h2><p>Each of their last \(answer.quietRuns) recorded CI runs passed: "
        + answer.readyToLeave.map { "<code>\(text($0))</code>" }.joined(separator: ", ") + "</p>")
    }
    if let gate = answer.gate {
      body.append("<p>" + HistoryText.gateLines(gate, answer: answer).map(text).joined(separator: "<br>") + "</p>")
    }
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>FlakeLab history</title><style>\(style)</style></head>
      <body>
      \(body.joined(separator: "\n"))
      </body></html>

      """
  }

  private static func mark(_ point: HistoryAnswer.Point) -> String {
    let title =
      "\(HistoryText.day(point.started)) \(HistoryText.short(point.commit)) \(point.kind.rawValue): "
      + "\(point.status.rawValue), \(point.failures) of \(point.attempts) attempts failed"
    let lab = point.kind == .lab ? " lab" : ""
    // Flaky beside a crash none caused alone: no evidence about the test, grey.
    let status = point.besideACrash ? "beside" : point.status.rawValue
    return "<span class=\"run \(status)\(lab)\" title=\"\(XMLText.escaped(title + (point.besideACrash ? "; beside a crash" : "")))\"></span>"
  }

  private static let style = """
    body { font: 14px -apple-system, system-ui, sans-serif; margin: 2em; color: #1d1d1f; }
    code { font: 13px ui-monospace, monospace; } h2 { font-size: 15px; margin-bottom: 0.2em; }
    .flaky { color: #b9770e; font-weight: normal; } .timeline { display: flex; flex-wrap: wrap; gap: 2px; }
    .run { width: 10px; height: 18px; border-radius: 2px; background: #aab7b8; }
    .passed { background: #27ae60; } .flaky.run { background: #f39c12; } .failed { background: #c0392b; }
    .notRun { background: #5d6d7e; } .beside { background: #d5d8dc; }
    .lab { outline: 2px solid #1d1d1f; outline-offset: -2px; }
    """
}

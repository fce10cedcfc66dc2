import Foundation

/// `--format html`: one self-contained page to open after a long run or from a CI artifact. No
/// script, style sheet, font or image from anywhere: the styles are in the page and the plots
/// are inline SVG drawn from the report, so it opens with no network. Light and dark follow the
/// reader's setting; the plots scale to the page's width and print.
///
/// `flakelab test` in the suite layout: the answer first (each test that is not stable, with its
/// verdict and diagnosis), then for each of those tests a plot of its failure rate with the
/// interval, one row per arm on a shared axis, each replicate of a few iterations or more a dot;
/// its outcomes; its replay command. Then the stable tests, and the machine and options. Every other report: the same plot
/// for all its runs, and each run's outcomes. The page is well-formed XML (XHTML), which the
/// tests check.
package enum ReportHTML {
  package static func render(_ report: Report) -> String {
    let answer = report.tests.isEmpty ? nil : SuiteAnswer(report)
    let title =
      answer.map { "flakelab test: " + $0.headline }
      ?? "flakelab: \(report.runs.count) run\(report.runs.count == 1 ? "" : "s")"
    var body = ["<h1>\(escaped(title))</h1>"]
    if let answer {
      body.append(list(answer))
      body.append(answer.crash.map(crashSection) ?? "")
      for (index, finding) in answer.unstable.enumerated() {
        body.append(testSection(finding, index: index, report: report))
      }
      body.append(rest(answer.summary))
    } else {
      body.append(ratePlot(report.runs, label: \.plotLabel, confidence: report.confidence))
      for run in report.runs { body.append(runSection(run)) }
    }
    body.append(context(report))
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8"/>
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <title>\(escaped(title))</title>
      <style>\(style)</style>
      </head>
      <body>
      <main>
      \(body.joined(separator: "\n"))
      </main>
      </body>
      </html>

      """
  }

  /// The summary the page opens with, as the text answer does: the tests that are not stable by
  /// cause, the most harmful first, each cause with its count and what to do, each test with the
  /// line to open and a link to its section (which links back).
  private static func list(_ answer: SuiteAnswer) -> String {
    guard !answer.unstable.isEmpty else { return "" }
    let index = Dictionary(answer.unstable.enumerated().map { ($1.test, $0) }, uniquingKeysWith: { first, _ in first })
    let causes = answer.byCause.map { diagnosis, findings in
      let items = findings.map { finding in
        let open = finding.lead.map {
          " open <code>\(escaped($0.location.place(relativeTo: finding.packagePath)))</code>"
        }
        return "<li><a href=\"#test-\(index[finding.test] ?? 0)\"><code>\(escaped(finding.test.id))</code></a> "
          + "<span class=\"verdict \(finding.verdict.rawValue)\">\(finding.verdict.rawValue)</span>\(open ?? "")</li>"
      }
      return "<h2><strong>\(diagnosis.rawValue)</strong> (\(Formatting.count(findings.count))): "
        + "\(escaped(diagnosis.remedy))</h2><ul class=\"answer\">\(items.joined())</ul>"
    }
    return "<nav id=\"summary\">\(causes.joined())</nav>"
  }

  /// The `index`-th test that is not stable, the anchor the answer's list links to.
  private static func testSection(_ finding: TestFinding, index: Int, report: Report) -> String {
    var parts = [
      "<section id=\"test-\(index)\">",
      "<h2><code>\(escaped(finding.test.id))</code> <span class=\"verdict \(finding.verdict.rawValue)\">\(finding.verdict.rawValue)</span></h2>",
    ]
    if let diagnosis = finding.diagnosis {
      parts.append(
        "<p><strong>\(diagnosis.rawValue)</strong>: \(escaped(finding.summary ?? diagnosis.summary))"
          + ". <em>Do:</em> \(escaped(finding.advice ?? diagnosis.advice)).</p>")
    }
    if let lead = finding.lead {
      parts.append("<p class=\"where\">Open <code>\(escaped(lead.text(relativeTo: finding.packagePath)))</code></p>")
    }
    if let location = finding.location, location != finding.lead?.location {
      parts.append("<p class=\"where\">Declared at \(escaped(location.place(relativeTo: finding.packagePath)))</p>")
    }
    parts.append(ratePlot(finding.runs, label: \.armLabel, confidence: report.confidence))
    let evidence = SuiteAnswerText.evidence(finding)
    if !evidence.isEmpty {
      parts.append("<ul class=\"evidence\">" + evidence.map { "<li>\(escaped($0))</li>" }.joined() + "</ul>")
    }
    var tally = Tally()
    for run in finding.runs { tally.merge(run.tally) }
    parts.append("<h3>Outcomes, every arm together</h3>" + histogram(tally))
    if let replay = finding.replay(program: report.program) {
      parts.append("<h3>Replay a failing seeded iteration</h3><pre>\(escaped(replay))</pre>")
    } else if let reason = finding.noReplay {
      parts.append("<p class=\"where\">No replay: \(escaped(reason))</p>")
    }
    parts.append("<p class=\"back\"><a href=\"#summary\">Back to the summary</a></p>")
    parts.append("</section>")
    return parts.joined(separator: "\n")
  }

  /// The tests in flight when the process crashed, none of which crashed alone: one section.
  private static func crashSection(_ crash: CrashBesideOthers) -> String {
    "<section><h2>The test process crashed</h2><p>\(escaped(Formatting.sentenceCase(crash.headline))): "
      + "\(escaped(CrashBesideOthers.meaning)). <em>Do:</em> \(escaped(CrashBesideOthers.advice)).</p>"
      + (crash.how.map { "<pre>\(escaped($0))</pre>" } ?? "")
      + "<details><summary>\(crash.inFlight.count) tests in flight</summary><ul class=\"compact\">"
      + crash.inFlight.map { "<li><code>\(escaped($0))</code></li>" }.joined() + "</ul></details></section>"
  }

  private static func runSection(_ run: RunResult) -> String {
    "<section><h2><code>\(escaped(run.selector))</code> under \(escaped(run.executor.name))</h2>"
      + "<p>\(escaped(RateText.withInterval(run.estimate)))"
      + (RateText.variation(run.estimate).map { "; \(escaped($0))" } ?? "") + "</p>"
      + histogram(run.tally)
      + run.problems.map { "<p class=\"problem\">\(escaped(ProblemText.describe($0)))</p>" }.joined()
      + "</section>"
  }

  /// What was cut, then the stable, skipped, never-started and never-measured tests, in one
  /// compact list each (``SuiteSummary``).
  private static func rest(_ summary: SuiteSummary) -> String {
    summary.notes { $0 }.map { "<p>\(escaped($0))</p>" }.joined()
      + summary.groups.map { group in
        "<details\(group.namesTests ? " open=\"open\"" : "")><summary>\(escaped(group.headline))</summary>"
          + "<ul class=\"compact\">" + group.tests.map { "<li><code>\(escaped($0))</code></li>" }.joined()
          + "</ul></details>"
      }.joined(separator: "\n")
  }

  /// The machine, the toolchain, the seed and the options the report gives.
  private static func context(_ report: Report) -> String {
    let context = ReportContext(report)
    let machine = context.machine
    var rows = [
      ("flakelab", Report.labVersion), ("machine", "\(machine.cores) cores, \(machine.os)"), ("Swift", machine.swift),
      ("confidence", Formatting.level(context.confidence)),
    ]
    if let seed = context.seed { rows.append(("seed", String(seed))) }
    if let timeout = context.timeout { rows.append(("timeout", "\(timeout)")) }
    if let budget = context.budgetSpent { rows.append(("budget", "\(budget), spent")) }
    if let layout = context.layout { rows.append(("process layout", layout.rawValue)) }
    if let shard = context.shard { rows.append(("shard", "\(shard.index)/\(shard.count)")) }
    if context.interrupted { rows.append(("interrupted", "the runs that finished")) }
    return "<footer><table class=\"context\">"
      + rows.map { "<tr><th>\(escaped($0.0))</th><td>\(escaped($0.1))</td></tr>" }.joined()
      + "</table><p>Rates under the global executor depend on this machine's cores and load.</p></footer>"
  }

  /// Outcome counts as bars, passes first; failures that differ only in numbers are one bar
  /// (``OutcomeGroups``), an outcome of its own said as the test said it.
  private static func histogram(_ tally: Tally) -> String {
    let total = max(1, tally.iterations)
    let said = Dictionary(
      tally.histogram.map { (OutcomeText.describe($0.outcome), tally.examples[$0.outcome]) },
      uniquingKeysWith: { first, _ in first })
    let rows = OutcomeGroups.rows(tally.histogram).map { row in
      let width = String(format: "%.1f", 100 * Double(row.count) / Double(total))
      let text = said[row.text].flatMap { $0 } ?? row.text
      // A crash charged to every test in flight names them all: the JSON report keeps the list.
      let shown = text.count > 300 ? String(text.prefix(299)) + "…" : text
      return "<tr><td class=\"count\">\(Formatting.count(row.count))</td>"
        + "<td class=\"bar\"><span class=\"\(row.isPassed ? "passed" : "failed")\" "
        + "style=\"width: \(width)%\"></span></td>"
        + "<td>\(escaped(shown))</td></tr>"
    }
    return "<table class=\"histogram\">\(rows.joined())</table>"
  }

  /// Failure rates with their intervals, a row per run on one axis, each replicate's rate a dot.
  static func ratePlot(_ runs: [RunResult], label: KeyPath<RunResult, PlotLabel>, confidence: Double) -> String {
    let rowHeight = 34.0
    let labelWidth = 230.0
    let plotLeft = labelWidth + 10
    let plotWidth = 400.0
    // Right of the axis, each row's counts: `20 of 20`.
    let countWidth = 120.0
    let top = 24.0
    let height = top + rowHeight * Double(runs.count) + 40
    // One axis for every row, up to the first of these at or above the highest interval end,
    // with its ticks.
    let highest = runs.map { $0.estimate.hasRate ? $0.estimate.high : 0 }.max() ?? 0
    let (axisMax, ticks) =
      [(0.01, 5), (0.02, 4), (0.05, 5), (0.1, 5), (0.2, 4), (0.5, 5), (1.0, 4)]
      .first { $0.0 >= highest } ?? (1.0, 4)
    func x(_ rate: Double) -> Double { plotLeft + plotWidth * min(rate, axisMax) / axisMax }
    var svg = [
      "<svg class=\"plot\" viewBox=\"0 0 \(format(plotLeft + plotWidth + countWidth)) \(format(height))\" role=\"img\" aria-label=\"failure rate per run with its interval\">"
    ]
    svg += (0...ticks).map { step in tick(at: axisMax * Double(step) / Double(ticks), x: x, top: top, height: height) }
    svg.append(
      "<text class=\"axis\" x=\"\(format(plotLeft + plotWidth / 2))\" y=\"\(format(height - 4))\" text-anchor=\"middle\">failure rate, \(Formatting.level(confidence)) interval</text>"
    )
    for (row, run) in runs.enumerated() {
      let y = top + rowHeight * (Double(row) + 0.5)
      let label = run[keyPath: label]
      let name = label.name + (label.arm.map { " (\($0))" } ?? "")
      svg.append(rowLabel(label, named: name, right: labelWidth, y: y))
      let estimate = run.estimate
      svg.append(
        "<text class=\"count\" x=\"\(format(plotLeft + plotWidth + 14))\" y=\"\(format(y + 4))\">"
          + "\(Formatting.count(run.tally.notPassed)) of \(Formatting.count(run.tally.ran))</text>")
      guard estimate.hasRate else {
        svg.append("<text class=\"tick\" x=\"\(format(plotLeft))\" y=\"\(format(y + 4))\">no rate: none ran</text>")
        continue
      }
      svg.append(
        "<line class=\"interval\" x1=\"\(format(x(estimate.low)))\" y1=\"\(format(y))\" x2=\"\(format(x(estimate.high)))\" y2=\"\(format(y))\"/>"
          + "<line class=\"interval\" x1=\"\(format(x(estimate.low)))\" y1=\"\(format(y - 5))\" x2=\"\(format(x(estimate.low)))\" y2=\"\(format(y + 5))\"/>"
          + "<line class=\"interval\" x1=\"\(format(x(estimate.high)))\" y1=\"\(format(y - 5))\" x2=\"\(format(x(estimate.high)))\" y2=\"\(format(y + 5))\"/>"
      )
      // Replicates of a handful of iterations would only show single outcomes.
      if run.replicates.count > 1 {
        for replicate in run.replicates where replicate.ran >= Self.replicateDotMinimum {
          let rate = Double(replicate.notPassed) / Double(replicate.ran)
          svg.append("<circle class=\"replicate\" cx=\"\(format(x(rate)))\" cy=\"\(format(y + 8))\" r=\"2.5\"/>")
        }
      }
      svg.append(
        "<circle class=\"rate\" cx=\"\(format(x(estimate.rate)))\" cy=\"\(format(y))\" r=\"4.5\"><title>\(escaped(name)): "
          + "\(Formatting.count(run.tally.notPassed)) of \(Formatting.count(run.tally.ran)) failed, \(escaped(RateText.withInterval(estimate)))</title></circle>"
      )
    }
    svg.append(legend(left: plotLeft))
    svg.append("</svg>")
    return svg.joined(separator: "\n")
  }

  static let replicateDotMinimum = 5

  /// The axis's grid line and label at `rate`.
  private static func tick(at rate: Double, x: (Double) -> Double, top: Double, height: Double) -> String {
    "<line class=\"grid\" x1=\"\(format(x(rate)))\" y1=\"\(format(top - 6))\" x2=\"\(format(x(rate)))\" y2=\"\(format(height - 34))\"/>"
      + "<text class=\"tick\" x=\"\(format(x(rate)))\" y=\"\(format(height - 20))\" text-anchor=\"middle\">\(String(format: "%g%%", rate * 100))</text>"
  }

  /// A plot row's label, ending at `right`: what ran, and under it the arm, each whole on hover.
  private static func rowLabel(_ label: PlotLabel, named name: String, right: Double, y: Double) -> String {
    // The end of a name tells tests apart (`…Suite/test()`): cut from the left.
    let shown = label.name.count > labelCharacters ? "…" + String(label.name.suffix(labelCharacters - 1)) : label.name
    return
      "<text class=\"label\" x=\"\(format(right))\" y=\"\(format(label.arm == nil ? y + 4 : y - 2))\" text-anchor=\"end\"><title>\(escaped(name))</title>\(escaped(shown))</text>"
      + (label.arm.map {
        "<text class=\"tick\" x=\"\(format(right))\" y=\"\(format(y + 11))\" text-anchor=\"end\"><title>\(escaped(name))</title>\(escaped($0))</text>"
      } ?? "")
  }

  /// The plot's legend, at its top, from `left`.
  private static func legend(left: Double) -> String {
    "<circle class=\"rate\" cx=\"\(format(left))\" cy=\"8\" r=\"4\"/><text class=\"tick\" x=\"\(format(left + 8))\" y=\"12\">rate</text>"
      + "<line class=\"interval\" x1=\"\(format(left + 62))\" y1=\"8\" x2=\"\(format(left + 86))\" y2=\"8\"/><text class=\"tick\" x=\"\(format(left + 92))\" y=\"12\">interval</text>"
      + "<circle class=\"replicate\" cx=\"\(format(left + 170))\" cy=\"8\" r=\"2.5\"/><text class=\"tick\" x=\"\(format(left + 178))\" y=\"12\">a replicate (\(Self.replicateDotMinimum)+ iterations)</text>"
  }

  /// The most characters of a name a plot's label shows.
  static let labelCharacters = 36

  /// A row's label in a plot: what ran, and under what (the arm), on a line of its own.
  struct PlotLabel {
    let name: String
    let arm: String?
  }

  private static func format(_ value: Double) -> String { String(format: "%.1f", value) }

  /// Text in the page (which is XML as well as HTML), line breaks kept.
  static func escaped(_ text: String) -> String {
    XMLText.escaped(Formatting.printable(text, keeping: ["\n", "\t"]), inAttribute: false)
  }

  /// The look every FlakeLab page shares (this one's, the history's): colours for light and
  /// dark, type, code and the page's width.
  package static let style = """
    :root { color-scheme: light dark; --ink: #1d1d1f; --paper: #ffffff; --muted: #6e6e73; --line: #d2d2d7;
      --rate: #c0392b; --interval: #1d1d1f; --replicate: #2e86c1; --pass: #27ae60; --fail: #c0392b; }
    @media (prefers-color-scheme: dark) { :root { --ink: #f5f5f7; --paper: #1c1c1e; --muted: #a1a1a6; --line: #3a3a3c;
      --rate: #ff6b5b; --interval: #f5f5f7; --replicate: #5dade2; --pass: #58d68d; --fail: #ff6b5b; } }
    body { margin: 0; background: var(--paper); color: var(--ink); font: 15px/1.45 system-ui, sans-serif; }
    main { max-width: 860px; margin: 0 auto; padding: 16px; }
    h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; overflow-wrap: anywhere; } h3 { font-size: 1em; }
    code, pre { font-family: ui-monospace, monospace; font-size: 0.92em; overflow-wrap: anywhere; }
    pre { white-space: pre-wrap; background: color-mix(in srgb, var(--line) 35%, transparent); padding: 8px; border-radius: 6px; }
    .verdict { font-size: 0.8em; padding: 1px 6px; border-radius: 4px; border: 1px solid var(--fail); color: var(--fail); }
    .verdict.stable { border-color: var(--pass); color: var(--pass); }
    .answer li { margin: 4px 0; } a { color: inherit; }
    .plot { width: 100%; max-width: 640px; height: auto; display: block; }
    .plot text { fill: var(--ink); font-size: 12px; } .plot .tick { fill: var(--muted); font-size: 11px; }
    .plot .grid { stroke: var(--line); stroke-width: 1; } .plot .interval { stroke: var(--interval); stroke-width: 2; }
    .plot .rate { fill: var(--rate); } .plot .replicate { fill: var(--replicate); opacity: 0.7; }
    .histogram { border-collapse: collapse; width: 100%; table-layout: fixed; }
    .histogram td { padding: 2px 6px; vertical-align: top; overflow-wrap: anywhere; }
    .histogram .count { text-align: right; white-space: nowrap; width: 4em; } .histogram .bar { width: 30%; }
    .histogram .bar span { display: block; height: 10px; margin-top: 5px; min-width: 1px; }
    .histogram .passed { background: var(--pass); } .histogram .failed { background: var(--fail); }
    .where, footer { color: var(--muted); overflow-wrap: anywhere; } .problem { color: var(--fail); }
    @media (max-width: 560px) { .plot text { font-size: 17px; } .plot .tick { font-size: 15px; } }
    .compact { columns: 2 280px; } .context th { text-align: left; padding-right: 12px; font-weight: 600; }
    footer { margin-top: 3em; border-top: 1px solid var(--line); }
    @media print { body { background: #fff; color: #000; } details { display: block; } }
    """
}

extension RunResult {
  /// `suite, global`: a test's arm.
  var armName: String { "\(test?.layout.rawValue ?? "run"), \(executor)" }

  /// A run's row in a plot of several: the test, or the scenario's variant, over its arm
  /// (`repetitions, global`) or executor.
  var plotLabel: ReportHTML.PlotLabel {
    ReportHTML.PlotLabel(name: test?.test.id ?? selector, arm: test == nil ? executor.name : armName)
  }

  /// A row in a test's own plot: its arm, a randomness replay marked as one.
  var armLabel: ReportHTML.PlotLabel {
    ReportHTML.PlotLabel(name: armName, arm: Diagnostician.isRandomnessReplay(self) ? "randomness replay" : nil)
  }
}

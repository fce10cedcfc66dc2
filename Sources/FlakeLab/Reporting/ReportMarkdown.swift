import Foundation

/// `--format markdown`: the answer as GitHub-flavoured markdown, for a CI job's summary
/// (`$GITHUB_STEP_SUMMARY`) and pull-request comments. One table, one row per test that is not
/// stable (`flakelab test`) or per run (the other commands), and a line for the rest: a suite
/// with a few flaky tests fits on one screen. The figures are the text report's.
package enum ReportMarkdown {
  package static func render(_ report: Report) -> String {
    var lines: [String]
    if report.tests.isEmpty {
      lines = runTable(report)
    } else {
      lines = testAnswer(report)
    }
    let facts = ReportContext(report)
    let machine = facts.machine
    var context = ["flakelab \(Report.labVersion)", "\(machine.cores) cores", machine.os, "Swift \(machine.swift)"]
    if let seed = facts.seed { context.append("seed \(seed)") }
    if let timeout = facts.timeout { context.append("timeout \(timeout)") }
    if let budget = facts.budgetSpent { context.append("budget \(budget) spent") }
    if let shard = facts.shard { context.append("shard \(shard.index)/\(shard.count)") }
    if facts.interrupted { context.append("interrupted: the runs that finished") }
    lines += [
      "",
      "<sub>" + context.map(escaped).joined(separator: " · ")
        + " · global rates depend on the machine's cores and load</sub>",
    ]
    return Formatting.lines(lines)
  }

  /// The tests that are not stable, each with its diagnosis, its counts and what to do.
  private static func testAnswer(_ report: Report) -> [String] {
    let answer = SuiteAnswer(report)
    let unstable = answer.unstable
    var lines = ["### flakelab test: " + answer.headline]
    if !unstable.isEmpty {
      lines += ["", "| test | verdict | diagnosis | failed | what to do |", "| --- | --- | --- | --- | --- |"]
      for finding in unstable {
        // `suite: global 6/6, serial 0/6`, then the runs alone, one line each; a layout other
        // than the line's own is named (`one-at-a-time global`, `fresh serial`, `stressed global`),
        // never the line's name again (`alone: global 3/10`, not `alone: alone global`).
        let screen = finding.runs.filter { $0.test?.layout.isSuitePass == true }
        let alone = finding.runs.filter { $0.test?.layout.isSuitePass == false }
        let arms = [("suite", screen, TestReference.ProcessLayout.suite), ("alone", alone, .repetitions)]
          .filter { !$0.1.isEmpty }.map { name, runs, plain in
            "\(name): "
              + runs.map { run in
                (run.test?.isConfirmation == true ? "second-seed " : "")
                  + (run.test.map {
                    [plain.rawValue, name].contains($0.layout.rawValue) ? "" : "\($0.layout.rawValue) "
                  } ?? "")
                  + "\(run.executor) "
                  + "\(Formatting.count(run.tally.notPassed))/\(Formatting.count(run.tally.ran))"
              }.joined(separator: ", ")
          }
        let diagnosis = finding.diagnosis.map { "**\($0.rawValue)**: \(escaped(finding.summary ?? $0.summary))" } ?? ""
        let open = finding.lead.map { "<br>open " + code($0.text(relativeTo: finding.packagePath)) } ?? ""
        let cells: [String] = [
          code(finding.test.id), finding.verdict.rawValue, diagnosis + open,
          arms.map(escaped).joined(separator: "<br>"),
          finding.advice.map(escaped) ?? "",
        ]
        lines.append("| " + cells.joined(separator: " | ") + " |")
      }
    }
    if let crash = answer.crash {
      let names = crash.inFlight.map(code)
      lines += [
        "",
        "**" + escaped(Formatting.sentenceCase(crash.headline)) + "**: " + escaped(CrashBesideOthers.meaning)
          + ". In flight: "
          + names.prefix(5).joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "") + "."
          + (crash.how.map { " Seen: " + escaped($0) + "." } ?? "") + " Do: " + escaped(CrashBesideOthers.advice) + ".",
      ]
    }
    lines.append("")
    // The lab's own words, with each test ID in a code span, where nothing is escaped.
    lines.append(answer.summary.sentences(code: codeInProse).joined(separator: " "))
    if !answer.replays.isEmpty {
      lines += ["", "<details><summary>Replay a failing seeded iteration</summary>", ""]
      for (test, command) in answer.replays {
        // In a code span: an entity outside a table would show as `&lt;` in some renderers.
        lines += [codeInProse(test.id) + ":", "", "```sh", command, "```", ""]
      }
      lines.append("</details>")
    }
    return lines
  }

  /// Every run: its counts, its rate with the interval, and what it fails, if anything.
  private static func runTable(_ report: Report) -> [String] {
    let level = Formatting.level(report.confidence)
    var lines = [
      "| run | executor | iterations | failed | failure rate [\(level) interval] | problems |",
      "| --- | --- | ---: | ---: | --- | --- |",
    ]
    for run in report.runs {
      lines.append(
        "| "
          + [
            code(run.selector), run.executor.name, Formatting.count(run.tally.iterations),
            Formatting.count(run.tally.notPassed), escaped(RateText.withInterval(run.estimate)),
            run.problems.map { escaped(ProblemText.describe($0)) }.joined(separator: "<br>"),
          ].joined(separator: " | ") + " |")
    }
    return lines
  }

  /// Text in a table cell: a pipe would end the cell, and `<` would start a tag.
  package static func escaped(_ text: String) -> String {
    Formatting.printable(
      text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
        .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\n", with: " "))
  }

  /// An ID as code, its pipes escaped (GitHub ends a cell at a pipe even inside code); an ID
  /// with a backtick (a raw identifier) between double backticks and spaces.
  package static func code(_ text: String) -> String {
    code(text, inTable: true)
  }

  /// The same outside a table, where a pipe is only a pipe.
  private static func codeInProse(_ text: String) -> String {
    code(text, inTable: false)
  }

  /// Fenced by one backtick more than the longest run of them inside, and padded with spaces
  /// when it holds any, as CommonMark reads a code span.
  private static func code(_ text: String, inTable: Bool) -> String {
    let inner = Formatting.printable(
      (inTable ? text.replacingOccurrences(of: "|", with: "\\|") : text).replacingOccurrences(of: "\n", with: " "))
    var longest = 0
    var run = 0
    for character in inner {
      run = character == "`" ? run + 1 : 0
      longest = max(longest, run)
    }
    let fence = String(repeating: "`", count: longest + 1)
    return longest == 0 ? "`\(inner)`" : "\(fence) \(inner) \(fence)"
  }
}

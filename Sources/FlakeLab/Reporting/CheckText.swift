/// The verdict table of `flakelab check`: each declared claim, what the run showed, and why.
package enum CheckText {
  package static func render(_ report: Report) -> String {
    var table = TextTable([.left, .left, .left, .left, .right, .left])
    table.add([
      "variant", "executor", "claim", "verdict",
      "failure rate [\(Formatting.level(report.confidence)) interval]", "evidence",
    ])
    for run in report.runs {
      guard let verdict = run.verdict else { continue }
      table.add([
        run.selector, run.executor.name, verdict.claim.rawValue, verdict.status.rawValue,
        RateText.withInterval(run.estimate), verdict.reason,
      ])
    }
    let counts = Dictionary(grouping: report.runs.compactMap(\.verdict), by: \.status)
      .mapValues(\.count)
    let summary =
      "\(counts[.holds, default: 0]) hold, \(counts[.violated, default: 0]) violated, "
      + "\(counts[.notShown, default: 0]) not shown"
    return ([MachineLine.render(report), ""] + table.lines() + ["", summary]).joined(separator: "\n")
      + "\n"
  }
}

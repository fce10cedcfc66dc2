/// The human-readable report of `flakelab compare`: one row per variant, its failure rate under
/// each executor side by side.
public enum ComparisonReport {
  public static func render(_ report: Report, executors: [String]) -> String {
    var table = TextTable([.left] + executors.map { _ in .right })
    table.add(["variant"] + executors.map { "\($0) failure rate" })
    var order: [String] = []
    var cells: [String: [String: String]] = [:]
    for result in report.runs {
      if cells[result.selector] == nil { order.append(result.selector) }
      let tally = result.tally
      cells[result.selector, default: [:]][result.executor] =
        "\(RateText.withInterval(tally.failureRate, report.interval(of: result))) "
        + "(\(Formatting.count(tally.notPassed))/\(Formatting.count(tally.iterations)))"
    }
    for selector in order {
      table.add([selector] + executors.map { cells[selector]?[$0] ?? "-" })
    }
    return ([MachineLine.render(report), ""] + table.lines()).joined(separator: "\n")
      + "\n"
  }
}

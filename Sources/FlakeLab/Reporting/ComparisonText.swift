/// The human-readable report of `flakelab compare`: one row per variant, its failure rate under
/// each executor side by side.
package enum ComparisonText {
  package static func render(_ report: Report, executors: [ExecutorID]) -> String {
    var table = TextTable([.left] + executors.map { _ in .right })
    table.add(["variant"] + executors.map { "\($0) failure rate" })
    var order: [String] = []
    var cells: [String: [ExecutorID: String]] = [:]
    var variations: [String] = []
    for result in report.runs {
      if cells[result.selector] == nil { order.append(result.selector) }
      let tally = result.tally
      let estimate = result.estimate
      cells[result.selector, default: [:]][result.executor] =
        "\(RateText.withInterval(estimate)) "
        + "(\(Formatting.count(tally.notPassed))/\(Formatting.count(tally.iterations)))"
      if let variation = RateText.variation(estimate) {
        variations.append("  \(result.key): \(variation)")
      }
    }
    for selector in order {
      table.add([selector] + executors.map { cells[selector]?[$0] ?? "-" })
    }
    let notes = variations.isEmpty ? [] : [""] + variations
    return ([MachineLine.render(report), ""] + table.lines() + notes).joined(separator: "\n")
      + "\n"
  }
}

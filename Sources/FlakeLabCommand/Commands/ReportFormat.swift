import FlakeLab

/// `--format`: how a report goes to standard output.
enum ReportFormat: String, CaseIterable {
  case text, json, junit, csv, markdown, html

  static let option = Option(
    "format", "FORMAT", "Output format: \(allCases.map(\.rawValue).joined(separator: ", "))",
    default: ReportFormat.text
  ) { text, option throws(UsageError) in
    ReportFormat(
      rawValue: try ValueParsers.choice(text, option: option, among: ReportFormat.allCases.map(\.rawValue)))!
  }

  /// The report in this format; `text` is the command's own human-readable layout.
  func render(_ report: Report, text: (Report) -> String) -> String {
    switch self {
    case .text: text(report)
    case .json: JSONReport.render(report)
    case .junit: JUnitReport.render(report)
    case .csv: CSVReport.render(report)
    case .markdown: MarkdownReport.render(report)
    case .html: HTMLReport.render(report)
    }
  }
}

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

  /// The format a file's extension names (`.html`, `.md`, `.xml`, …), if any: `--output` writes
  /// JSON whatever `--format` is, so a file named for another format is a mistake to refuse.
  static func named(byExtensionOf path: String) -> ReportFormat? {
    let suffix = path.split(separator: "/").last?.split(separator: ".", omittingEmptySubsequences: false)
    guard let suffix, suffix.count > 1, let last = suffix.last else { return nil }
    return switch last.lowercased() {
    case "json": .json
    case "html", "htm", "xhtml": .html
    case "md", "markdown": .markdown
    case "xml": .junit
    case "csv": .csv
    case "txt", "text": .text
    default: nil
    }
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

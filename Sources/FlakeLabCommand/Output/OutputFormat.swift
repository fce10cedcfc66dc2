import FlakeLab

/// `--format`: how a command's answer goes to standard output. One type for every command; each
/// declares the formats it offers (``option(offering:)``), and its answer renders those.
package enum OutputFormat: String, CaseIterable, Sendable {
  case text, json, junit, csv, markdown, html

  /// `--format`, taking only `offered`, in that order; text unless told.
  package static func option(offering offered: [OutputFormat]) -> Option<OutputFormat> {
    Option(
      "format", "FORMAT", "Output format: \(offered.map(\.rawValue).joined(separator: ", "))", default: .text
    ) { text, option throws(UsageError) in
      OutputFormat(rawValue: try ValueParsers.choice(text, option: option, among: offered.map(\.rawValue)))!
    }
  }

  /// The format a file's extension names (`.html`, `.md`, `.xml`, …), if any: `--output` writes
  /// JSON whatever `--format` is, so a file named for another format is a mistake to refuse.
  package static func named(byExtensionOf path: String) -> OutputFormat? {
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
}

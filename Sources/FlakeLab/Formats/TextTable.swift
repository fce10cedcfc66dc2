/// Columns of text padded to a common width: the layout of every human-readable table.
struct TextTable {
  enum Alignment { case left, right }

  let alignments: [Alignment]
  private var rows: [[String]] = []

  init(_ alignments: [Alignment]) {
    self.alignments = alignments
  }

  /// Adds a row. A cell stays on its row: line breaks and other control characters in a name
  /// (a lab's own scenario, a test's ID) are shown escaped.
  mutating func add(_ cells: [String]) {
    rows.append(cells.map(Self.oneLine))
  }

  static func oneLine(_ cell: String) -> String {
    guard cell.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return cell }
    return cell.unicodeScalars.map { scalar in
      switch scalar {
      case "\n": "\\n"
      case "\r": "\\r"
      case "\t": "\\t"
      case _ where scalar.properties.generalCategory == .control: "\\u{\(String(scalar.value, radix: 16))}"
      default: String(scalar)
      }
    }.joined()
  }

  /// The rows as lines, columns separated by two spaces, trailing blanks trimmed.
  func lines() -> [String] {
    var widths = [Int](repeating: 0, count: alignments.count)
    for row in rows {
      for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
    }
    return rows.map { row in
      var line = ""
      for (column, cell) in row.enumerated() {
        if column > 0 { line += "  " }
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        line += alignments[column] == .left ? cell + padding : padding + cell
      }
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}

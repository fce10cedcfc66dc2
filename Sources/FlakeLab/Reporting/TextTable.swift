/// Columns of text padded to a common width: the layout of every human-readable table.
struct TextTable {
  enum Alignment { case left, right }

  let alignments: [Alignment]
  private var rows: [[String]] = []

  init(_ alignments: [Alignment]) {
    self.alignments = alignments
  }

  mutating func add(_ cells: [String]) {
    rows.append(cells)
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

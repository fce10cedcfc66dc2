import Foundation

/// The number formats of the text reports, in one place so every table reads the same.
package enum Formatting {
  /// `text` with its first letter in capitals: a clause that starts a sentence.
  package static func sentenceCase(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }

  /// `lines`, each with its control characters shown as escapes (``printable(_:)``), one a
  /// line: a test name or message from a file can never start a line of its own, forge a
  /// "Gate … passed" line or a workflow command, or move a terminal's cursor.
  package static func lines(_ lines: [String]) -> String {
    lines.isEmpty ? "" : lines.map { printable($0) }.joined(separator: "\n") + "\n"
  }

  /// `text` with each control character (C0 but `keeping`, DEL, C1, the line and paragraph
  /// separators, and the bidirectional controls, which can show a name in another order than
  /// it has) as an escape a reader sees: `\n`, `\t`, `\u{1B}`, `\u{202E}`.
  package static func printable(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
    func isControl(_ scalar: Unicode.Scalar) -> Bool {
      scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
        || isBidirectionalControl(scalar)
    }
    guard text.unicodeScalars.contains(where: { isControl($0) && !kept.contains($0) }) else { return text }
    var shown = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case _ where !isControl(scalar) || kept.contains(scalar): shown.unicodeScalars.append(scalar)
      case "\n": shown += "\\n"
      case "\r": shown += "\\r"
      case "\t": shown += "\\t"
      default: shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return shown
  }

  /// The marks and embeddings that reorder text (U+061C, U+200E, U+200F, U+202A–U+202E,
  /// U+2066–U+2069): a test named with U+202E shows its tail reversed.
  package static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
    [0x061C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
      || (0x2066...0x2069).contains(scalar.value)
  }

  /// `12,345`: counts with thousands separators.
  package static func count(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { grouped += "," }
      grouped.append(digit)
    }
    return (value < 0 ? "-" : "") + grouped
  }

  /// `24.31%`; small non-zero rates keep enough digits not to read as zero (`0.004%`).
  package static func percent(_ fraction: Double) -> String {
    let value = fraction * 100
    // Two decimals, unless they would round a rate that is not 0 or 100% to one that is.
    if value == 0 || value == 100 || (value >= 0.01 && value <= 99.99) {
      return String(format: "%.2f%%", value)
    }
    if value > 99.99 { return String(format: "%.6g%%", value) }
    var digits = 2
    while digits < 12, String(format: "%.\(digits)f", value).allSatisfy({ $0 == "0" || $0 == "." }) {
      digits += 1
    }
    return String(format: "%.\(digits)f%%", value)
  }

  /// A confidence level without needless digits: `95%`, `99.9%`.
  package static func level(_ fraction: Double) -> String {
    var text = String(format: "%.4f", fraction * 100)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text + "%"
  }

  /// `0.214 s`, `3.1 ms`.
  static func seconds(_ value: Double) -> String {
    value >= 1 || value == 0
      ? String(format: "%.3f s", value) : String(format: "%.1f ms", value * 1000)
  }

  /// A duration as people write it: `5 s`, `100 ms`, `1.5 s`.
  package static func duration(_ duration: Duration) -> String {
    let milliseconds =
      Double(duration.components.seconds) * 1000
      + Double(duration.components.attoseconds) / 1e15
    if milliseconds < 1000 { return "\(Int(milliseconds.rounded())) ms" }
    let seconds = milliseconds / 1000
    return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
  }

  /// A p-value with its relation: `= 0.0312`, `< 0.0001`.
  static func pValue(_ value: Double) -> String {
    value < 0.0001 ? "< 0.0001" : String(format: "= %.4f", value)
  }

  /// A dispersion: one decimal below 10, whole above (`1.4`, `41`, `380`).
  package static func dispersion(_ value: Double) -> String {
    value < 10 ? String(format: "%.1f", value) : count(Int(value.rounded()))
  }

  /// `a`, `a and b`, `a, b and c` (`or` for `a, b or c`).
  package static func list(_ items: [String], or: Bool = false) -> String {
    items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + items.last!
  }

  /// Iterations per second, rounded to a whole number.
  static func rate(_ value: Double) -> String {
    count(Int(value.rounded()))
  }
}

import Foundation

/// A JSON document with its object keys in a fixed order, so that reports are stable to diff and
/// read in the order the documentation lists their fields.
package enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    lhs.serialized() == rhs.serialized()
  }

  /// Compact JSON text, one line.
  package func serialized() -> String {
    var out = ""
    write(to: &out)
    return out
  }

  private func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .int(let value): out += String(value)
    case .double(let value): out += Self.number(value)
    case .string(let value): Self.quote(value, into: &out)
    case .array(let values):
      out += "["
      for (offset, value) in values.enumerated() {
        if offset > 0 { out += ", " }
        value.write(to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (offset, (key, value)) in members.enumerated() {
        if offset > 0 { out += ", " }
        Self.quote(key, into: &out)
        out += ": "
        value.write(to: &out)
      }
      out += "}"
    }
  }

  /// Finite numbers as the shortest text that reads back the same; JSON has no NaN or infinity.
  private static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return String(format: "%.1f", value) }
    return "\(value)"
  }

  private static func quote(_ text: String, into out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}

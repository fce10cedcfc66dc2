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

  /// Text needing no escape (nearly all of it) is copied whole: a scalar at a time, the 500
  /// bytes of a blocked thread's stack took 20–40 µs, which the harness paid on the test's thread.
  private static func quote(_ text: String, into out: inout String) {
    out += "\""
    let isClean = text.utf8.withContiguousStorageIfAvailable { !$0.contains(where: needsEscape) } ?? false
    if isClean {
      out += text
    } else {
      let bytes = Array(text.utf8)
      // Each escaped byte is a scalar of its own, so the runs between them are whole UTF-8.
      bytes.withUnsafeBufferPointer { bytes in
        var run = 0
        for index in bytes.indices where needsEscape(bytes[index]) {
          out += String(decoding: UnsafeBufferPointer(rebasing: bytes[run..<index]), as: UTF8.self)
          out += escaped(bytes[index])
          run = index + 1
        }
        out += String(decoding: UnsafeBufferPointer(rebasing: bytes[run...]), as: UTF8.self)
      }
    }
    out += "\""
  }

  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
  }

  private static func escaped(_ byte: UInt8) -> String {
    switch byte {
    case UInt8(ascii: "\""): "\\\""
    case UInt8(ascii: "\\"): "\\\\"
    case UInt8(ascii: "\n"): "\\n"
    case UInt8(ascii: "\r"): "\\r"
    case UInt8(ascii: "\t"): "\\t"
    default: "\\u" + String(repeating: "0", count: 4 - String(byte, radix: 16).count) + String(byte, radix: 16)
    }
  }
}

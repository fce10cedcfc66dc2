/// Reads JSON text into a ``JSONValue``, so that a report is read back through the same type it
/// is written with, numbers keeping the difference between `3` and `3.0`.
///
/// Strict RFC 8259: one value, nothing after it but whitespace, no trailing commas, numbers as
/// the RFC writes them; nesting is limited so that a hostile file cannot exhaust the stack.
package struct JSONParser {
  private let bytes: [UInt8]
  private var position = 0
  private var depth = 0
  private static let maximumDepth = 64

  /// The value in `bytes`, or nil when they are not one JSON value.
  package static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? {
    var parser = JSONParser(bytes: Array(bytes))
    guard let value = parser.value() else { return nil }
    parser.skipWhitespace()
    return parser.position == parser.bytes.count ? value : nil
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  private mutating func value() -> JSONValue? {
    skipWhitespace()
    guard position < bytes.count else { return nil }
    switch bytes[position] {
    case UInt8(ascii: "{"): return object()
    case UInt8(ascii: "["): return array()
    case UInt8(ascii: "\""): return string().map(JSONValue.string)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return number()
    }
  }

  private mutating func object() -> JSONValue? {
    guard depth < Self.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    position += 1
    var members: [(String, JSONValue)] = []
    skipWhitespace()
    if consume("}") { return .object(members) }
    repeat {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string() else { return nil }
      skipWhitespace()
      guard consume(":"), let value = value() else { return nil }
      members.append((key, value))
      skipWhitespace()
    } while consume(",")
    return consume("}") ? .object(members) : nil
  }

  private mutating func array() -> JSONValue? {
    guard depth < Self.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    position += 1
    var values: [JSONValue] = []
    skipWhitespace()
    if consume("]") { return .array(values) }
    repeat {
      guard let value = value() else { return nil }
      values.append(value)
      skipWhitespace()
    } while consume(",")
    return consume("]") ? .array(values) : nil
  }

  private mutating func string() -> String? {
    position += 1
    // Most strings have no escape: their bytes are the string, validated once, with no scalar
    // copied one at a time (a test process's events are read this way, thousands a pass).
    let start = position
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let text = bytes.withUnsafeBufferPointer { buffer in
          String(validating: UnsafeBufferPointer(rebasing: buffer[start..<position]), as: UTF8.self)
        }
        position += 1
        return text
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      position += 1
    }
    position = start
    return escapedString()
  }

  /// The rest of a string with escapes in it, after its opening quote: its bytes decoded into
  /// one buffer, runs between escapes copied whole, and validated once (Swift Testing escapes
  /// every `/`, so each path in its records comes this way).
  private mutating func escapedString() -> String? {
    var decoded: [UInt8] = []
    var runStart = position
    while position < bytes.count {
      let byte = bytes[position]
      if byte != UInt8(ascii: "\\"), byte != UInt8(ascii: "\""), byte >= 0x20 {
        position += 1
        continue
      }
      decoded += bytes[runStart..<position]
      position += 1
      if byte == UInt8(ascii: "\"") { return String(validating: decoded, as: UTF8.self) }
      guard byte == UInt8(ascii: "\\"), position < bytes.count else { return nil }
      let escape = bytes[position]
      position += 1
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
      case UInt8(ascii: "b"): decoded.append(0x08)
      case UInt8(ascii: "f"): decoded.append(0x0C)
      case UInt8(ascii: "n"): decoded.append(0x0A)
      case UInt8(ascii: "r"): decoded.append(0x0D)
      case UInt8(ascii: "t"): decoded.append(0x09)
      case UInt8(ascii: "u"):
        guard let scalar = unicodeEscape() else { return nil }
        decoded += Array(String(scalar).utf8)
      default: return nil
      }
      runStart = position
    }
    return nil
  }

  /// `\uXXXX`, or a surrogate pair of two, after the `\u`.
  private mutating func unicodeEscape() -> Unicode.Scalar? {
    guard let high = hex4() else { return nil }
    if (0xD800..<0xDC00).contains(high) {
      guard consume("\\"), consume("u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
      return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }
    return Unicode.Scalar(high)
  }

  private mutating func hex4() -> UInt32? {
    guard position + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
    else { return nil }
    position += 4
    return value
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as RFC 8259 writes numbers.
  private mutating func number() -> JSONValue? {
    let start = position
    func digits() -> Int {
      let from = position
      while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
        position += 1
      }
      return position - from
    }
    _ = consume("-")
    let integerStart = position
    guard digits() > 0, bytes[integerStart] != UInt8(ascii: "0") || position - integerStart == 1 else { return nil }
    var isInteger = true
    if consume(".") {
      isInteger = false
      guard digits() > 0 else { return nil }
    }
    if consume("e") || consume("E") {
      isInteger = false
      if !consume("+") { _ = consume("-") }
      guard digits() > 0 else { return nil }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    if isInteger, let value = Int(text) { return .int(value) }
    guard let value = Double(text), value.isFinite else { return nil }
    return .double(value)
  }

  private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
    let count = word.utf8CodeUnitCount
    guard bytes.count - position >= count,
      word.withUTF8Buffer({ bytes[position..<position + count].elementsEqual($0) })
    else { return nil }
    position += count
    return value
  }

  private mutating func consume(_ character: Unicode.Scalar) -> Bool {
    guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
    position += 1
    return true
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
      default: return
      }
    }
  }
}

extension JSONValue {
  /// The member `key` of an object; nil for anything else.
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  package var string: String? {
    if case .string(let value) = self { value } else { nil }
  }

  package var int: Int? {
    if case .int(let value) = self { value } else { nil }
  }

  /// A number, written with or without a fraction.
  package var number: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  /// The most seconds a report says anything lasted or may last: about 31 years. A number past
  /// it (1e30, 1e308) is no time a run had, and would overflow a `Duration`.
  package static let mostSeconds = 1e9

  /// The value as a count of seconds a report can hold (0 to ``mostSeconds``); nil for any
  /// other value, a negative or huge number among them.
  package var seconds: Double? {
    number.flatMap { $0 >= 0 && $0 <= Self.mostSeconds ? $0 : nil }
  }

  package var bool: Bool? {
    if case .bool(let value) = self { value } else { nil }
  }

  package var array: [JSONValue]? {
    if case .array(let values) = self { values } else { nil }
  }

  package var isObject: Bool {
    if case .object = self { true } else { false }
  }
}

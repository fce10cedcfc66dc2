import Foundation

/// A strict reader of the YAML that CI files are written in, for the tests that check every
/// workflow the docs and the action show: block mappings and sequences, plain, quoted
/// and block scalars, flow sequences and mappings, comments. It refuses what a real parser
/// refuses and GitHub, GitLab or Jenkins would: a tab in indentation, a key twice, a `: ` or ` #`
/// a plain scalar cannot hold, a `{`, `}`, `[`, `]` or `,` inside a plain scalar of a flow
/// collection (`with: { path: ci-${{ matrix.os }} }`), an unclosed quote, a child indented
/// wrong; and anchors, aliases and tags, which no CI file here needs.
enum YAML: Equatable, CustomStringConvertible {
  case scalar(String)
  case sequence([YAML])
  case mapping([(key: String, value: YAML)])

  struct Invalid: Error, CustomStringConvertible {
    let line: Int
    let reason: String
    var description: String { "line \(line): \(reason)" }
  }

  static func == (lhs: YAML, rhs: YAML) -> Bool { lhs.description == rhs.description }

  var description: String {
    switch self {
    case .scalar(let text): "\"\(text)\""
    case .sequence(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
    case .mapping(let pairs): "{" + pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    }
  }

  subscript(key: String) -> YAML? {
    guard case .mapping(let pairs) = self else { return nil }
    return pairs.first { $0.key == key }?.value
  }

  var string: String? { if case .scalar(let text) = self { text } else { nil } }
  var items: [YAML]? { if case .sequence(let items) = self { items } else { nil } }
  var keys: [String] { if case .mapping(let pairs) = self { pairs.map(\.key) } else { [] } }

  /// The document `text` holds.
  static func parse(_ text: String) throws(Invalid) -> YAML {
    var reader = Reader(text)
    return try reader.document()
  }
}

/// The lines of a document, read by indentation.
private struct Reader {
  struct Line {
    let number: Int
    let indent: Int
    /// The line without its indentation and its comment.
    let content: String
    /// The line whole, for block scalars.
    let raw: String
  }

  var lines: [Line] = []
  var index = 0

  init(_ text: String) {
    for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let raw = String(raw)
      let indent = raw.prefix { $0 == " " }.count
      lines.append(
        Line(number: offset + 1, indent: indent, content: Self.withoutComment(String(raw.dropFirst(indent))), raw: raw))
    }
  }

  /// `text` up to a comment: a `#` at the start or after a space, outside quotes.
  static func withoutComment(_ text: String) -> String {
    var quote: Character?
    var previous: Character = " "
    for (offset, character) in text.enumerated() {
      if let open = quote {
        if character == open { quote = nil }
      } else if character == "'" || character == "\"",
        previous == " " || previous == "[" || previous == "{" || previous == "," || previous == ":" || offset == 0
      {
        quote = character
      } else if character == "#", previous == " " || offset == 0 {
        return String(text.prefix(offset)).trimmingTrailingSpaces
      }
      previous = character
    }
    return text.trimmingTrailingSpaces
  }

  mutating func skipBlank() {
    while index < lines.count, lines[index].content.isEmpty { index += 1 }
  }

  mutating func document() throws(YAML.Invalid) -> YAML {
    for line in lines where line.raw.prefix(while: { $0 == " " || $0 == "\t" }).contains("\t") {
      throw YAML.Invalid(line: line.number, reason: "a tab in indentation")
    }
    skipBlank()
    if index < lines.count, lines[index].content == "---" { index += 1 }
    skipBlank()
    guard index < lines.count else { return .mapping([]) }
    let value = try block(at: lines[index].indent)
    skipBlank()
    if index < lines.count { throw YAML.Invalid(line: lines[index].number, reason: "a line indented wrong") }
    return value
  }

  /// The mapping or sequence whose lines start at `indent`.
  mutating func block(at indent: Int) throws(YAML.Invalid) -> YAML {
    skipBlank()
    let line = lines[index]
    return line.content.hasPrefix("- ") || line.content == "-" ? try sequence(at: indent) : try mapping(at: indent)
  }

  mutating func sequence(at indent: Int) throws(YAML.Invalid) -> YAML {
    var items: [YAML] = []
    while true {
      skipBlank()
      guard index < lines.count, lines[index].indent == indent else { break }
      let line = lines[index]
      guard line.content.hasPrefix("- ") || line.content == "-" else {
        throw YAML.Invalid(line: line.number, reason: "a sequence item expected")
      }
      let rest = String(line.content.dropFirst(1).drop { $0 == " " })
      let childIndent = indent + (line.content.count - rest.count)
      if rest.isEmpty {
        index += 1
        skipBlank()
        guard index < lines.count, lines[index].indent > indent else {
          items.append(.scalar(""))
          continue
        }
        items.append(try block(at: lines[index].indent))
      } else if Self.entry(rest) != nil {
        // `- key: value`: a mapping whose first line shares the dash's.
        lines[index] = Line(number: line.number, indent: childIndent, content: rest, raw: line.raw)
        items.append(try mapping(at: childIndent))
      } else {
        index += 1
        items.append(try value(rest, line: line, indent: indent))
      }
    }
    return .sequence(items)
  }

  mutating func mapping(at indent: Int) throws(YAML.Invalid) -> YAML {
    var pairs: [(key: String, value: YAML)] = []
    while true {
      skipBlank()
      guard index < lines.count, lines[index].indent >= indent else { break }
      let line = lines[index]
      guard line.indent == indent else { throw YAML.Invalid(line: line.number, reason: "a line indented wrong") }
      guard let (key, rest) = Self.entry(line.content) else {
        if line.content.hasPrefix("- ") { break }
        throw YAML.Invalid(line: line.number, reason: "a mapping entry (key: value) expected, not '\(line.content)'")
      }
      guard !pairs.contains(where: { $0.key == key }) else {
        throw YAML.Invalid(line: line.number, reason: "'\(key)' twice")
      }
      index += 1
      if rest.isEmpty {
        skipBlank()
        if index < lines.count,
          lines[index].indent > indent
            || (lines[index].indent == indent && lines[index].content.hasPrefix("- "))
        {
          pairs.append((key, try block(at: lines[index].indent)))
        } else {
          pairs.append((key, .scalar("")))
        }
      } else {
        pairs.append((key, try value(rest, line: line, indent: indent)))
      }
    }
    return .mapping(pairs)
  }

  /// A value after `key: ` or `- `: a block scalar, a flow collection, a quoted or plain scalar.
  mutating func value(_ text: String, line: Line, indent: Int) throws(YAML.Invalid) -> YAML {
    if let style = text.first, style == "|" || style == ">" {
      guard text.dropFirst().allSatisfy({ "+-0123456789".contains($0) }) else {
        throw YAML.Invalid(line: line.number, reason: "a block scalar's header is only | or > and its chomping")
      }
      return .scalar(
        blockScalar(folded: style == ">", keep: text.contains("+"), strip: text.contains("-"), parent: indent))
    }
    if text.first == "[" || text.first == "{" {
      var flow = Flow(text: Array(text), line: line.number)
      let value = try flow.value()
      flow.skipSpaces()
      guard flow.position == flow.text.count else {
        throw YAML.Invalid(line: line.number, reason: "text after a flow collection")
      }
      return value
    }
    if text.first == "'" || text.first == "\"" {
      var flow = Flow(text: Array(text), line: line.number)
      let value = try flow.quoted()
      flow.skipSpaces()
      guard flow.position == flow.text.count else {
        throw YAML.Invalid(line: line.number, reason: "text after a quoted scalar")
      }
      return value
    }
    try Self.checkPlain(text, line: line.number, inFlow: false)
    // A plain scalar may go on over more indented lines.
    var words = [text]
    while index < lines.count, lines[index].indent > indent, !lines[index].content.isEmpty,
      Self.entry(lines[index].content) == nil
    {
      try Self.checkPlain(lines[index].content, line: lines[index].number, inFlow: false)
      words.append(lines[index].content)
      index += 1
    }
    return .scalar(words.joined(separator: " "))
  }

  /// The lines more indented than `parent`, as a literal (`|`) or folded (`>`) scalar.
  mutating func blockScalar(folded: Bool, keep: Bool, strip: Bool, parent: Int) -> String {
    var body: [String] = []
    var indent: Int?
    while index < lines.count {
      let line = lines[index]
      if line.raw.trimmingCharacters(in: .whitespaces).isEmpty {
        body.append("")
        index += 1
        continue
      }
      guard line.indent > parent, line.indent >= (indent ?? 0) else { break }
      indent = indent ?? line.indent
      body.append(String(line.raw.dropFirst(indent!)))
      index += 1
    }
    var trailing = 0
    while body.last == "" {
      body.removeLast()
      trailing += 1
    }
    var text = folded ? body.joined(separator: " ") : body.joined(separator: "\n")
    if !strip { text += "\n" }
    if keep { text += String(repeating: "\n", count: trailing) }
    return text
  }

  /// `key: rest` when `text` is a mapping entry.
  static func entry(_ text: String) -> (String, String)? {
    if let quote = text.first, quote == "'" || quote == "\"" {
      guard let close = text.dropFirst().firstIndex(of: quote) else { return nil }
      let after = text[text.index(after: close)...]
      guard after.hasPrefix(":"), after.count == 1 || after.dropFirst().first == " " else { return nil }
      return (String(text[text.index(after: text.startIndex)..<close]), String(after.dropFirst().drop { $0 == " " }))
    }
    guard !text.hasPrefix("- "), !text.hasPrefix("["), !text.hasPrefix("{") else { return nil }
    if let range = text.range(of: ": ") {
      return (String(text[..<range.lowerBound]), String(text[range.upperBound...].drop { $0 == " " }))
    }
    return text.hasSuffix(":") ? (String(text.dropLast()), "") : nil
  }

  /// A plain scalar's rules: no `: ` or ` #` inside, no indicator first; in a flow collection,
  /// none of its brackets or commas either.
  static func checkPlain(_ text: String, line: Int, inFlow: Bool) throws(YAML.Invalid) {
    if let first = text.first, "&*!%@`|>".contains(first) {
      throw YAML.Invalid(line: line, reason: "a plain scalar cannot start with '\(first)' (quote it)")
    }
    if text.contains(": ") || text.hasSuffix(":") {
      throw YAML.Invalid(line: line, reason: "mapping values are not allowed here: '\(text)' (quote it)")
    }
    if inFlow, let bad = text.first(where: { "{}[],".contains($0) }) {
      throw YAML.Invalid(
        line: line, reason: "'\(bad)' inside a flow collection's plain scalar: expected ',' or the collection's end")
    }
  }
}

/// A flow collection or a quoted scalar, on one line.
private struct Flow {
  let text: [Character]
  let line: Int
  var position = 0

  mutating func skipSpaces() {
    while position < text.count, text[position] == " " { position += 1 }
  }

  mutating func value() throws(YAML.Invalid) -> YAML {
    skipSpaces()
    guard position < text.count else { throw YAML.Invalid(line: line, reason: "a flow collection ends too soon") }
    switch text[position] {
    case "[":
      position += 1
      var items: [YAML] = []
      while true {
        skipSpaces()
        if position < text.count, text[position] == "]" {
          position += 1
          return .sequence(items)
        }
        items.append(try value())
        skipSpaces()
        guard position < text.count else { throw YAML.Invalid(line: line, reason: "a flow sequence without its ']'") }
        if text[position] == "," {
          position += 1
          continue
        }
        guard text[position] == "]" else {
          throw YAML.Invalid(line: line, reason: "expected ',' or ']', but got '\(text[position])'")
        }
      }
    case "{":
      position += 1
      var pairs: [(key: String, value: YAML)] = []
      while true {
        skipSpaces()
        if position < text.count, text[position] == "}" {
          position += 1
          return .mapping(pairs)
        }
        guard case .scalar(let key) = try plainOrQuoted(stoppingAtColon: true) else {
          throw YAML.Invalid(line: line, reason: "a flow mapping's key is a scalar")
        }
        guard position < text.count, text[position] == ":" else {
          throw YAML.Invalid(line: line, reason: "expected ':' after '\(key)' in a flow mapping")
        }
        position += 1
        guard !pairs.contains(where: { $0.key == key }) else {
          throw YAML.Invalid(line: line, reason: "'\(key)' twice")
        }
        pairs.append((key, try value()))
        skipSpaces()
        guard position < text.count else { throw YAML.Invalid(line: line, reason: "a flow mapping without its '}'") }
        if text[position] == "," {
          position += 1
          continue
        }
        guard text[position] == "}" else {
          throw YAML.Invalid(line: line, reason: "expected ',' or '}', but got '\(text[position])'")
        }
      }
    default:
      return try plainOrQuoted(stoppingAtColon: false)
    }
  }

  mutating func plainOrQuoted(stoppingAtColon: Bool) throws(YAML.Invalid) -> YAML {
    skipSpaces()
    if position < text.count, text[position] == "'" || text[position] == "\"" { return try quoted() }
    var scalar = ""
    while position < text.count {
      let character = text[position]
      if character == "," || character == "]" || character == "}" { break }
      if character == ":", position + 1 == text.count || " ,]}".contains(text[position + 1]) {
        if stoppingAtColon { break }
        throw YAML.Invalid(line: line, reason: "a ':' in a flow value (quote it)")
      }
      if character == "{" || character == "[" {
        throw YAML.Invalid(line: line, reason: "expected ',' or the collection's end, but got '\(character)'")
      }
      scalar.append(character)
      position += 1
    }
    let trimmed = scalar.trimmingTrailingSpaces
    try Reader.checkPlain(trimmed, line: line, inFlow: true)
    return .scalar(trimmed)
  }

  /// A single- or double-quoted scalar (`''` and `\"` escapes), which must close on its line.
  mutating func quoted() throws(YAML.Invalid) -> YAML {
    let quote = text[position]
    position += 1
    var scalar = ""
    while position < text.count {
      let character = text[position]
      position += 1
      if character == quote {
        if quote == "'", position < text.count, text[position] == "'" {
          scalar.append("'")
          position += 1
          continue
        }
        return .scalar(scalar)
      }
      if quote == "\"", character == "\\", position < text.count {
        let escaped = text[position]
        position += 1
        scalar.append(escaped == "n" ? "\n" : escaped == "t" ? "\t" : escaped)
        continue
      }
      scalar.append(character)
    }
    throw YAML.Invalid(line: line, reason: "a quoted scalar without its closing \(quote)")
  }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}

/// The tokens of a Swift source file that say where declarations and bodies begin and end:
/// words, brackets and compiler directives, each with its line. Comments (nested ones too),
/// every form of string literal (with interpolations, multi-line, raw with any number of `#`),
/// regex literals and back-quoted names are read whole and give no bracket.
///
/// Where the text cannot be read with certainty (a literal or comment left open, a `/` that may
/// begin a regex holding a bracket or a quote), ``doubt`` says why: a caller that charges a
/// failure by these tokens must then charge nothing.
struct SwiftTokens {
  enum Kind: Equatable {
    /// An identifier or keyword; a back-quoted name without its back-quotes.
    case word(String)
    case open(UInt8)
    case close(UInt8)
    /// `#if`, `#elseif`, `#else` or `#endif`, without the `#`: wherever a statement, a
    /// declaration or a postfix member may begin, after a `;` or a `{` on the same line too.
    case directive(String)
    /// An operator or punctuation character.
    case symbol(UInt8)
    /// A string, number or regex literal.
    case literal
  }

  struct Token: Equatable {
    let kind: Kind
    /// 1-based.
    let line: Int
  }

  private(set) var tokens: [Token] = []
  /// Why the text could not be read with certainty; nil when it could.
  private(set) var doubt: String?

  private let bytes: [UInt8]
  private var index = 0
  private var line = 1

  init(_ text: String) {
    bytes = Array(text.utf8)
    lexCode(until: nil)
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }
  private func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

  private mutating func doubt(_ reason: String) {
    if doubt == nil { doubt = "line \(line): \(reason)" }
  }

  private mutating func emit(_ kind: Kind, line: Int? = nil) {
    tokens.append(Token(kind: kind, line: line ?? self.line))
  }

  /// Reads code up to the `)` that closes an interpolation (`until` is its depth of
  /// parentheses, 0) or to the end of the text.
  private mutating func lexCode(until closing: UInt8?) {
    var parentheses = 0
    while let byte = current {
      switch byte {
      case UInt8(ascii: "\n"):
        line += 1
        index += 1
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        index += 1
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
        while let next = current, next != UInt8(ascii: "\n") { index += 1 }
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
        skipBlockComment()
      case UInt8(ascii: "/") where mayBeginRegex:
        lexBareRegex()
      case UInt8(ascii: "\""):
        lexString(hashes: 0)
      case UInt8(ascii: "#"):
        lexHash()
      case UInt8(ascii: "`"):
        lexQuotedName()
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
        if byte == UInt8(ascii: "(") { parentheses += 1 }
        emit(.open(byte))
        index += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
        if byte == UInt8(ascii: ")") {
          if closing != nil, parentheses == 0 {
            index += 1
            return
          }
          parentheses -= 1
        }
        emit(.close(byte))
        index += 1
      default:
        if Self.isWordByte(byte) {
          let start = index
          while let next = current, Self.isWordByte(next) { index += 1 }
          let word = String(decoding: bytes[start..<index], as: UTF8.self)
          emit(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? .literal : .word(word))
        } else {
          emit(.symbol(byte))
          index += 1
        }
      }
    }
    if closing != nil { doubt("an interpolation is not closed") }
  }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "$") || byte >= 0x80
  }

  /// `/* … */`, nested as Swift nests them.
  private mutating func skipBlockComment() {
    var depth = 0
    while let byte = current {
      if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
        depth += 1
        index += 2
      } else if byte == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
        depth -= 1
        index += 2
        if depth == 0 { return }
      } else {
        if byte == UInt8(ascii: "\n") { line += 1 }
        index += 1
      }
    }
    doubt("a block comment is not closed")
  }

  /// `#` begins a raw string (`#"`, `##"""`), an extended regex (`#/`), a directive, or a word
  /// (`#available`, a macro).
  private mutating func lexHash() {
    var hashes = 0
    while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
    switch peek(hashes) {
    case UInt8(ascii: "\""):
      index += hashes
      lexString(hashes: hashes)
    case UInt8(ascii: "/"):
      index += hashes
      lexExtendedRegex(hashes: hashes)
    default:
      index += 1
      let start = index
      while let next = current, Self.isWordByte(next) { index += 1 }
      let word = String(decoding: bytes[start..<index], as: UTF8.self)
      if ["if", "elseif", "else", "endif"].contains(word) {
        emit(.directive(word))
      } else {
        emit(.word("#" + word))
      }
    }
  }

  /// A string literal from its opening `"` (after any `#`): single-line or `"""`, with escapes
  /// and interpolations as `hashes` raw delimiters spell them.
  private mutating func lexString(hashes: Int) {
    let startLine = line
    let multiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
    index += multiline ? 3 : 1
    while let byte = current {
      if byte == UInt8(ascii: "\\"), hashesFollow(at: index + 1, count: hashes) {
        index += 1 + hashes
        if current == UInt8(ascii: "(") {
          index += 1
          lexCode(until: UInt8(ascii: ")"))
        } else if let escaped = current {
          if escaped == UInt8(ascii: "\n") { line += 1 }
          index += 1
        }
        continue
      }
      if byte == UInt8(ascii: "\"") {
        let quotes = multiline ? 3 : 1
        let closes = (0..<quotes).allSatisfy { peek($0) == UInt8(ascii: "\"") }
        if closes, hashesFollow(at: index + quotes, count: hashes) {
          index += quotes + hashes
          emit(.literal, line: startLine)
          return
        }
      }
      if byte == UInt8(ascii: "\n") {
        guard multiline else {
          doubt("a string is not closed on its line")
          emit(.literal, line: startLine)
          return
        }
        line += 1
      }
      index += 1
    }
    doubt("a string is not closed")
  }

  private func hashesFollow(at position: Int, count: Int) -> Bool {
    (0..<count).allSatisfy { position + $0 < bytes.count && bytes[position + $0] == UInt8(ascii: "#") }
  }

  /// `#/ … /#` (any number of `#`), on one line or, opened at a line's end, over several.
  private mutating func lexExtendedRegex(hashes: Int) {
    let startLine = line
    index += 1
    while let byte = current {
      if byte == UInt8(ascii: "\\") {
        // An escaped line break is a line all the same.
        if peek(1) == UInt8(ascii: "\n") { line += 1 }
        index += 2
        continue
      }
      if byte == UInt8(ascii: "/"), hashesFollow(at: index + 1, count: hashes) {
        index += 1 + hashes
        emit(.literal, line: startLine)
        return
      }
      if byte == UInt8(ascii: "\n") { line += 1 }
      index += 1
    }
    doubt("a regex literal is not closed")
  }

  /// Whether a `/` here can begin a bare regex literal: where an operand is expected (after
  /// an opening bracket, a comma, an operator or a keyword such as `return`), or where a prefix
  /// operator stands (whitespace before it, none after: a result builder's line `/\{/` after a
  /// string's), and not before a space, as Swift reads it.
  private var mayBeginRegex: Bool {
    guard let next = peek(1), next != UInt8(ascii: " "), next != UInt8(ascii: "\t"), next != UInt8(ascii: "\n"),
      next != UInt8(ascii: "=")
    else { return false }
    if isPrefixPosition { return true }
    switch tokens.last?.kind {
    case nil, .open, .symbol, .directive: return true
    case .word(let word): return Self.operandKeywords.contains(word)
    case .close, .literal: return false
    }
  }

  /// Whether the `/` here has whitespace before it and none after: Swift reads an operator so
  /// spaced as a prefix operator, never a division, so a `/` there begins a regex literal.
  private var isPrefixPosition: Bool {
    guard index > 0, let next = peek(1) else { return false }
    let spaces: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")]
    return spaces.contains(bytes[index - 1]) && !spaces.contains(next)
  }

  private static let operandKeywords: Set<String> = [
    "return", "case", "in", "try", "await", "throw", "where", "if", "guard", "while", "switch", "else", "repeat",
  ]

  /// `/ … /` on one line. A bare regex holding a bracket or a quote is a doubt: had the `/`
  /// been a division after all, skipping it would hide that bracket.
  private mutating func lexBareRegex() {
    var end = index + 1
    var inClass = false
    while end < bytes.count, bytes[end] != UInt8(ascii: "\n") {
      let byte = bytes[end]
      if byte == UInt8(ascii: "\\") {
        // A bare regex ends on its line.
        if end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "\n") { break }
        end += 2
        continue
      }
      if byte == UInt8(ascii: "[") { inClass = true }
      if byte == UInt8(ascii: "]") { inClass = false }
      if byte == UInt8(ascii: "/"), !inClass { break }
      end += 1
    }
    guard end < bytes.count, bytes[end] == UInt8(ascii: "/") else {
      emit(.symbol(UInt8(ascii: "/")))
      index += 1
      return
    }
    let body = bytes[(index + 1)..<end]
    // Spaced as a prefix operator, the `/` can be no division.
    if !isPrefixPosition, body.contains(where: { Self.confusing.contains($0) }) {
      doubt("a `/` may begin a regex holding a bracket or quote")
    }
    index = end + 1
    emit(.literal)
  }

  private static let confusing: Set<UInt8> = Set("{}()\"`#".utf8)

  /// `` `name` ``: a name that may hold any character but a back-quote and a line break.
  private mutating func lexQuotedName() {
    let start = index + 1
    var end = start
    while end < bytes.count, bytes[end] != UInt8(ascii: "`"), bytes[end] != UInt8(ascii: "\n") { end += 1 }
    guard end < bytes.count, bytes[end] == UInt8(ascii: "`") else {
      doubt("a back-quoted name is not closed")
      index = end
      return
    }
    index = end + 1
    emit(.word(String(decoding: bytes[start..<end], as: UTF8.self)))
  }
}

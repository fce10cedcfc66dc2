/// What a Swift file declares, as far as finding an XCTest test asks: each method declared
/// directly in a type's body (a class, or an extension of it), with its type's name, the line
/// of its `func` and the lines its body spans.
///
/// Read from ``SwiftTokens`` without compiling. ``doubt`` says why the outline may be wrong (the
/// tokens' doubt, a bracket left open or closed twice, a `#if` branch that opens more than it
/// closes); then its bodies must not decide whose a failure is.
struct SwiftSourceOutline {
  struct Method: Equatable {
    /// The type's name; an extension's last component (`extension M.FooTests` → `FooTests`).
    let type: String
    let name: String
    /// The line of its `func`.
    let line: Int
    let body: ClosedRange<Int>
  }

  private(set) var methods: [Method] = []
  private(set) var doubt: String?

  private enum Scope {
    case type(String)
    case method(name: String, line: Int, opened: Int)
    case other
  }

  /// A declaration whose body the next `{` at its level opens.
  private enum Pending {
    case type(String)
    case method(name: String, line: Int)
  }

  init(_ text: String) {
    let lexed = SwiftTokens(text)
    doubt = lexed.doubt
    var scopes: [Scope] = []
    var parentheses = 0
    var pending: (declaration: Pending, scopes: Int, parentheses: Int)?
    /// The brace depth at each open `#if`.
    var conditions: [Int] = []
    let tokens = lexed.tokens
    var position = 0

    func note(_ reason: String, line: Int) {
      if doubt == nil { doubt = "line \(line): \(reason)" }
    }
    func word(at offset: Int) -> String? {
      guard offset < tokens.count, case .word(let word) = tokens[offset].kind else { return nil }
      return word
    }

    while position < tokens.count {
      let token = tokens[position]
      defer { position += 1 }
      switch token.kind {
      case .word(let keyword) where Self.typeKeywords.contains(keyword):
        // `class func`, `class var`: a modifier, not a class.
        guard let name = word(at: position + 1), !Self.declarationKeywords.contains(name) else { continue }
        var last = name
        var next = position + 2
        if keyword == "extension" {
          while next + 1 < tokens.count, tokens[next].kind == .symbol(UInt8(ascii: ".")), let part = word(at: next + 1) {
            last = part
            next += 2
          }
        }
        pending = (.type(last), scopes.count, parentheses)
        position = next - 1
      case .word("func"):
        guard position + 1 < tokens.count else { continue }
        let name = word(at: position + 1) ?? ""
        pending = (.method(name: name, line: token.line), scopes.count, parentheses)
      case .word(let keyword) where Self.declarationKeywords.contains(keyword):
        if let open = pending, open.scopes == scopes.count, open.parentheses == parentheses { pending = nil }
      case .open(UInt8(ascii: "{")):
        if let open = pending, open.scopes == scopes.count, open.parentheses == parentheses {
          switch open.declaration {
          case .type(let name): scopes.append(.type(name))
          case .method(let name, let line): scopes.append(.method(name: name, line: line, opened: token.line))
          }
          pending = nil
        } else {
          scopes.append(.other)
        }
      case .close(UInt8(ascii: "}")):
        guard let scope = scopes.popLast() else {
          note("a `}` closes nothing", line: token.line)
          continue
        }
        if case .method(let name, let line, _) = scope, case .type(let type) = scopes.last, !name.isEmpty {
          methods.append(Method(type: type, name: name, line: line, body: line...token.line))
        }
        if let open = pending, open.scopes > scopes.count { pending = nil }
      case .open(UInt8(ascii: "(")):
        parentheses += 1
      case .close(UInt8(ascii: ")")):
        parentheses -= 1
      case .directive("if"):
        conditions.append(scopes.count)
      case .directive("elseif"), .directive("else"), .directive("endif"):
        guard let depth = conditions.last else {
          note("a `#\(token.kind)` with no `#if`", line: token.line)
          continue
        }
        if depth != scopes.count { note("a `#if` branch does not close what it opens", line: token.line) }
        if token.kind == .directive("endif") { conditions.removeLast() }
      default:
        break
      }
    }
    if !scopes.isEmpty { note("\(scopes.count) `{` never closed", line: tokens.last?.line ?? 1) }
    if !conditions.isEmpty { note("a `#if` never ended", line: tokens.last?.line ?? 1) }
    if parentheses != 0 { note("parentheses do not balance", line: tokens.last?.line ?? 1) }
  }

  private static let typeKeywords: Set<String> = ["class", "struct", "enum", "actor", "extension", "protocol"]
  /// Words that begin another declaration: after them a pending one has no body.
  private static let declarationKeywords: Set<String> = [
    "func", "var", "let", "init", "deinit", "subscript", "case", "typealias", "associatedtype", "class", "struct",
    "enum", "actor", "extension", "protocol", "static", "final", "override", "import",
  ]
}

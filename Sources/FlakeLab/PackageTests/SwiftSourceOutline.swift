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

  init(_ text: String) {
    let lexed = SwiftTokens(text)
    var scan = Scan(tokens: lexed.tokens)
    scan.run()
    methods = scan.methods
    doubt = lexed.doubt ?? scan.doubt
  }

  /// The walk over the tokens: the scopes open, the declaration whose body the next `{` opens,
  /// the `#if`s open.
  private struct Scan {
    enum Scope {
      case type(String)
      case method(name: String, line: Int)
      case other
    }

    /// A declaration whose body the next `{` at its level opens.
    enum Declaration {
      case type(String)
      case method(name: String, line: Int)
    }

    let tokens: [SwiftTokens.Token]
    var position = 0
    var scopes: [Scope] = []
    var parentheses = 0
    var pending: (declaration: Declaration, scopes: Int, parentheses: Int)?
    /// The brace depth at each open `#if`.
    var conditions: [Int] = []
    var methods: [Method] = []
    var doubt: String?

    init(tokens: [SwiftTokens.Token]) {
      self.tokens = tokens
    }

    mutating func run() {
      while position < tokens.count {
        let token = tokens[position]
        switch token.kind {
        case .word(let keyword) where SwiftSourceOutline.typeKeywords.contains(keyword):
          declareType(keyword)
        case .word("func"):
          if position + 1 < tokens.count {
            pending = (.method(name: word(at: position + 1) ?? "", line: token.line), scopes.count, parentheses)
          }
        case .word(let keyword) where SwiftSourceOutline.declarationKeywords.contains(keyword):
          if isPendingHere { pending = nil }
        case .open(UInt8(ascii: "{")): open()
        case .close(UInt8(ascii: "}")): close(at: token.line)
        case .open(UInt8(ascii: "(")): parentheses += 1
        case .close(UInt8(ascii: ")")): parentheses -= 1
        case .directive(let name): directive(name, at: token.line)
        default: break
        }
        position += 1
      }
      let last = tokens.last?.line ?? 1
      if !scopes.isEmpty { note("\(scopes.count) `{` never closed", line: last) }
      if !conditions.isEmpty { note("a `#if` never ended", line: last) }
      if parentheses != 0 { note("parentheses do not balance", line: last) }
    }

    private var isPendingHere: Bool {
      pending.map { $0.scopes == scopes.count && $0.parentheses == parentheses } ?? false
    }

    private func word(at offset: Int) -> String? {
      guard offset < tokens.count, case .word(let word) = tokens[offset].kind else { return nil }
      return word
    }

    private mutating func note(_ reason: String, line: Int) {
      if doubt == nil { doubt = "line \(line): \(reason)" }
    }

    /// `class Name`, `extension M.Name`: the name, and the position past it. `class func` and
    /// `class var` are a modifier, not a class.
    private mutating func declareType(_ keyword: String) {
      guard let name = word(at: position + 1), !SwiftSourceOutline.declarationKeywords.contains(name) else { return }
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
    }

    private mutating func open() {
      guard isPendingHere, let declaration = pending?.declaration else { return scopes.append(.other) }
      switch declaration {
      case .type(let name): scopes.append(.type(name))
      case .method(let name, let declared): scopes.append(.method(name: name, line: declared))
      }
      pending = nil
    }

    private mutating func close(at line: Int) {
      guard let scope = scopes.popLast() else { return note("a `}` closes nothing", line: line) }
      if case .method(let name, let declared) = scope, case .type(let type) = scopes.last, !name.isEmpty {
        methods.append(Method(type: type, name: name, line: declared, body: declared...line))
      }
      if let open = pending, open.scopes > scopes.count { pending = nil }
    }

    /// `#if` remembers the depth; each later branch and the `#endif` must be back at it.
    private mutating func directive(_ name: String, at line: Int) {
      guard name != "if" else { return conditions.append(scopes.count) }
      guard let depth = conditions.last else { return note("a `#\(name)` with no `#if`", line: line) }
      if depth != scopes.count { note("a `#if` branch does not close what it opens", line: line) }
      if name == "endif" { conditions.removeLast() }
    }
  }

  // MARK: Keywords

  private static let typeKeywords: Set<String> = ["class", "struct", "enum", "actor", "extension", "protocol"]
  /// Words that begin another declaration: after them a pending one has no body.
  private static let declarationKeywords = typeKeywords.union([
    "func", "var", "let", "init", "deinit", "subscript", "case", "typealias", "associatedtype", "static", "final",
    "override", "import",
  ])
}

/// An XML document as a tree of elements, read by a small reader of its own: enough XML for
/// JUnit files from any runner (declarations, comments, CDATA, entities, both quotes), so that
/// the lab links no XML library into the process every test worker starts from.
struct XMLTree: Equatable {
  var name: String
  var attributes: [String: String] = [:]
  var children: [XMLTree] = []
  /// The element's own text (CDATA included), entities resolved.
  var text = ""

  /// Why a file is not well-formed XML, at which line.
  struct Malformed: Error, Equatable {
    let line: Int
    let reason: String
  }

  /// The document in `bytes`: its root element.
  static func parse(_ bytes: [UInt8]) throws(Malformed) -> XMLTree {
    var reader = Reader(bytes: bytes)
    return try reader.document()
  }

  /// `bytes` as UTF-8, in the encoding their declaration names: UTF-8 and US-ASCII as they are,
  /// ISO-8859-1 (which JUnit writers on Java still declare) transcoded; any other refused rather
  /// than read as the wrong characters.
  static func utf8(_ bytes: [UInt8]) throws(Malformed) -> [UInt8] {
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      throw Malformed(line: 1, reason: "UTF-16, which is not read; write the file as UTF-8")
    }
    let head = String(decoding: bytes.prefix(200), as: UTF8.self)
    guard head.hasPrefix("<?xml"), let end = head.range(of: "?>"),
      let match = head[..<end.lowerBound].range(
        of: #"encoding\s*=\s*["']([A-Za-z0-9._-]+)["']"#, options: .regularExpression)
    else { return bytes }
    let encoding =
      head[match].split(whereSeparator: { $0 == "\"" || $0 == "'" }).dropFirst().first.map { $0.lowercased() } ?? ""
    switch encoding {
    case "utf-8", "utf8", "us-ascii", "ascii": return bytes
    case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1":
      return Array(String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })).utf8)
    default:
      throw Malformed(
        line: 1, reason: "the encoding \(encoding), which is not read (UTF-8, US-ASCII and ISO-8859-1 are)")
    }
  }

  /// Every element named `name` at any depth below this one, in document order.
  func descendants(named name: String) -> [XMLTree] {
    children.flatMap { ($0.name == name ? [$0] : []) + $0.descendants(named: name) }
  }

  /// Deeper than any runner nests suites; a file nested deeper is refused, not read until the
  /// stack runs out (the reader recurses once per element).
  static let maximumDepth = 256

  private struct Reader {
    let bytes: [UInt8]
    var position = 0
    var depth = 0

    func fail(_ reason: String) -> Malformed {
      Malformed(line: bytes[..<min(position, bytes.count)].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }, reason: reason)
    }

    mutating func document() throws(Malformed) -> XMLTree {
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
      try skipMisc()
      guard position < bytes.count else { throw fail("no element") }
      let root = try element()
      try skipMisc()
      guard position == bytes.count else { throw fail("text after the root element") }
      return root
    }

    /// Whitespace, comments, processing instructions and a doctype, between elements.
    mutating func skipMisc() throws(Malformed) {
      while true {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        if looking(at: "<?") {
          try skip(past: "?>")
        } else if looking(at: "<!--") {
          try skip(past: "-->")
        } else if looking(at: "<!DOCTYPE") {
          try skip(past: ">")
        } else {
          return
        }
      }
    }

    mutating func element() throws(Malformed) -> XMLTree {
      guard looking(at: "<") else { throw fail("expected an element") }
      guard depth < XMLTree.maximumDepth else { throw fail("elements nested more than \(XMLTree.maximumDepth) deep") }
      depth += 1
      defer { depth -= 1 }
      position += 1
      var tree = XMLTree(name: name())
      guard !tree.name.isEmpty else { throw fail("an element without a name") }
      while true {
        skipSpace()
        if looking(at: "/>") {
          position += 2
          return tree
        }
        if looking(at: ">") {
          position += 1
          break
        }
        let attribute = name()
        skipSpace()
        guard !attribute.isEmpty, looking(at: "=") else { throw fail("a malformed attribute in <\(tree.name)>") }
        position += 1
        skipSpace()
        guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else {
          throw fail("an attribute value without quotes in <\(tree.name)>")
        }
        let quote = bytes[position]
        position += 1
        let start = position
        while position < bytes.count, bytes[position] != quote { position += 1 }
        guard position < bytes.count else { throw fail("an unterminated attribute value") }
        tree.attributes[attribute] = try resolved(bytes[start..<position])
        position += 1
      }
      try content(of: &tree)
      return tree
    }

    /// Text, CDATA, comments and child elements, up to the element's end tag.
    mutating func content(of tree: inout XMLTree) throws(Malformed) {
      while position < bytes.count {
        if looking(at: "</") {
          position += 2
          guard name() == tree.name else { throw fail("</…> does not close <\(tree.name)>") }
          skipSpace()
          guard looking(at: ">") else { throw fail("a malformed end tag") }
          position += 1
          return
        } else if looking(at: "<!--") {
          try skip(past: "-->")
        } else if looking(at: "<![CDATA[") {
          position += 9
          let start = position
          try skip(past: "]]>")
          tree.text += String(decoding: bytes[start..<(position - 3)], as: UTF8.self)
        } else if looking(at: "<?") {
          try skip(past: "?>")
        } else if looking(at: "<") {
          tree.children.append(try element())
        } else {
          let start = position
          while position < bytes.count, bytes[position] != 0x3C { position += 1 }
          tree.text += try resolved(bytes[start..<position])
        }
      }
      throw fail("<\(tree.name)> is never closed")
    }

    func looking(at text: String) -> Bool {
      bytes[position...].starts(with: text.utf8)
    }

    mutating func skip(past end: String) throws(Malformed) {
      let marker = Array(end.utf8)
      while position < bytes.count {
        if bytes[position...].starts(with: marker) {
          position += marker.count
          return
        }
        position += 1
      }
      throw fail("'\(end)' never comes")
    }

    mutating func skipSpace() {
      while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    mutating func name() -> String {
      let start = position
      while position < bytes.count, !" \t\r\n/>=<".utf8.contains(bytes[position]) { position += 1 }
      return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// `raw` with its entity and character references resolved.
    func resolved(_ raw: ArraySlice<UInt8>) throws(Malformed) -> String {
      let text = String(decoding: raw, as: UTF8.self)
      guard text.contains("&") else { return text }
      var result = ""
      var rest = Substring(text)
      while let ampersand = rest.firstIndex(of: "&") {
        result += rest[..<ampersand]
        guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { throw fail("an unterminated entity") }
        let entity = rest[rest.index(after: ampersand)..<semicolon]
        switch entity {
        case "amp": result += "&"
        case "lt": result += "<"
        case "gt": result += ">"
        case "quot": result += "\""
        case "apos": result += "'"
        default:
          let number =
            entity.hasPrefix("#x")
            ? UInt32(entity.dropFirst(2), radix: 16)
            : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
          guard let number, let scalar = Unicode.Scalar(number) else { throw fail("an unknown entity &\(entity);") }
          result.unicodeScalars.append(scalar)
        }
        rest = rest[rest.index(after: semicolon)...]
      }
      return result + rest
    }
  }
}

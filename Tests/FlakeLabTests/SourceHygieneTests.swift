import Foundation
import XCTest

/// The kinds of drift a machine can catch in our own sources: a doc comment's link
/// to a name nothing declares, lines past the width the code is written to, and a split of
/// `make test` that no longer matches the classes.
final class SourceHygieneTests: XCTestCase {
  private static let root = ReadmeExamplesTests.root

  /// Every Swift file of ours: the sources and the lab's own tests, not the fixtures.
  private static func swiftFiles() throws -> [(path: String, text: String)] {
    try ["Sources", "Tests/FlakeLabTests"].flatMap { directory -> [(String, String)] in
      let base = root.appendingPathComponent(directory)
      let paths = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
      return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { path in
        (directory + "/" + path, try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8))
      }
    }
  }

  /// A symbol link in a doc comment (`Type/member(_:)` in double backquotes) names a
  /// declaration of ours or of the toolchain's modules; one whose last name nothing here
  /// declares is a link to nothing (`Program.swift` once linked a function that did not exist).
  func testEveryDocLinkNamesADeclaration() throws {
    let files = try Self.swiftFiles()
    var declared = Set<String>()
    let keywords = "func|var|let|struct|enum|class|protocol|typealias|actor|associatedtype"
    let declaration = try NSRegularExpression(pattern: #"\b(?:"# + keywords + #")\s+([A-Za-z_][A-Za-z0-9_]*)"#)
    let caseList = try NSRegularExpression(pattern: #"^\s*(?:(?:package|public|indirect)\s+)*case\s+(.*)$"#)
    for (_, text) in files {
      for line in text.split(separator: "\n") {
        let line = String(line)
        let range = NSRange(line.startIndex..., in: line)
        for match in declaration.matches(in: line, range: range) {
          declared.insert(String(line[Range(match.range(at: 1), in: line)!]))
        }
        // `case a, b(x: Int), c = "c"`: each name, split at the commas outside parentheses.
        guard let match = caseList.firstMatch(in: line, range: range) else { continue }
        var depth = 0
        var item = ""
        for character in line[Range(match.range(at: 1), in: line)!] + "," {
          if character == "(" { depth += 1 }
          if character == ")" { depth -= 1 }
          guard character == ",", depth == 0 else {
            item.append(character)
            continue
          }
          let name = item.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
          if !name.isEmpty { declared.insert(String(name)) }
          item = ""
        }
      }
    }
    // The toolchain's names our comments link to.
    declared.formUnion([
      "init", "Task", "MainActor", "Duration", "Clock", "ContinuousClock", "SerialExecutor", "Sendable",
    ])
    let link = try NSRegularExpression(pattern: #"``([^`]+)``"#)
    var dangling: [String] = []
    for (path, text) in files {
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      where line.trimmingCharacters(in: .whitespaces).hasPrefix("///") {
        let line = String(line)
        for match in link.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
          let target = String(line[Range(match.range(at: 1), in: line)!])
          let last = target.split(separator: "/").last.map(String.init) ?? target
          let name = String(last.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
          if !name.isEmpty, !declared.contains(name) {
            dangling.append("\(path):\(number + 1): ``\(target)``")
          }
        }
      }
    }
    XCTAssertEqual(dangling, [], "links to names nothing declares")
  }

  /// The code is written to 120 characters a line. The lines past it, most of them older than
  /// the rule, may only become fewer: the ceiling is lowered as they are wrapped.
  func testLinesPastTheWidthOnlyBecomeFewer() throws {
    let ceiling = 137
    var counts: [(path: String, lines: Int)] = []
    for (path, text) in try Self.swiftFiles() {
      let long = text.split(separator: "\n").filter { $0.count > 120 }.count
      if long > 0 { counts.append((path, long)) }
    }
    let total = counts.reduce(0) { $0 + $1.lines }
    let most = counts.sorted { $0.lines > $1.lines }.prefix(5).map { "\($0.path) \($0.lines)" }
    XCTAssertLessThanOrEqual(total, ceiling, "lines over 120 characters; the most: \(most.joined(separator: ", "))")
  }

  /// `make test`'s long half is read from the sources by `Tests/side-by-side.sh`: it names every
  /// class whose type conforms to ``LongHalf``, and no other.
  func testTheLongHalfIsTheClassesThatConformToItsMarker() throws {
    let script = Process()
    script.executableURL = URL(fileURLWithPath: "/bin/bash")
    script.arguments = [Self.root.appendingPathComponent("Tests/side-by-side.sh").path, "--long-classes"]
    let output = Pipe()
    script.standardOutput = output
    try script.run()
    let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: "\n").map(String.init)
    script.waitUntilExit()
    XCTAssertEqual(script.terminationStatus, 0)
    let declared = try Self.swiftFiles().filter { $0.path.hasPrefix("Tests/") }.flatMap { file in
      file.text.matches(of: /class ([A-Za-z0-9_]+): XCTestCase/).map { String($0.1) }
    }
    let conforming = declared.filter { (_typeByName("FlakeLabTests.\($0)") as? any LongHalf.Type) != nil }
    XCTAssertFalse(listed.isEmpty)
    XCTAssertEqual(listed, conforming.sorted())
  }
}

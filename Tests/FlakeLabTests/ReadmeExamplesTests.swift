import FlakeLab
import Foundation
import XCTest

/// The docs' examples are real output: each full example (one that starts with the lab's machine
/// line) of the README and of every article of the guide is run again, at a reduced size, and
/// must have the same shape. Figures differ from run to run and machine to machine; what must not differ is what a
/// reader relies on: the header lines, the table's columns, which runs there are, and lines such
/// as the seed, the schedules and replays. Every link between them leads somewhere.
final class ReadmeExamplesTests: XCTestCase, LongHalf {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let catalog = root.appendingPathComponent("Sources/FlakeLab/FlakeLab.docc")

  /// The README and the guide's articles, by path from the root.
  static func documents() throws -> [(path: String, text: String)] {
    let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
      .sorted()
    return try (["README.md"] + articles.map { "Sources/FlakeLab/FlakeLab.docc/" + $0 }).map { path in
      (path, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
    }
  }

  /// Every `$ flakelab …` example of a text block, with the output printed under it.
  private func examples() throws -> [(arguments: [String], output: [String])] {
    try Self.documents().flatMap { try examples(in: $0.text) }
  }

  private func examples(in readme: String) throws -> [(arguments: [String], output: [String])] {
    var examples: [(arguments: [String], output: [String])] = []
    var inText = false
    var current: Int?  // the example whose output the block is showing
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("```") {
        inText = line == "```text"
        current = nil
        continue
      }
      guard inText else { continue }
      if line.hasPrefix("$ ") {
        current = nil
        guard line.hasPrefix("$ flakelab ") else { continue }
        examples.append((try shellWords(String(line.dropFirst("$ flakelab ".count))), []))
        current = examples.count - 1
      } else if let current {
        examples[current].output.append(line)
      }
    }
    return examples.filter { $0.output.first?.hasPrefix("flakelab 0.1.0 ·") == true }
  }

  /// The words of a command line, with single quotes as the shell reads them.
  private func shellWords(_ line: String) throws -> [String] {
    var words: [String] = []
    var word = ""
    var quoted = false
    for character in line {
      switch character {
      case "'": quoted.toggle()
      case " " where !quoted:
        if !word.isEmpty { words.append(word) }
        word = ""
      default: word.append(character)
      }
    }
    if !word.isEmpty { words.append(word) }
    return words
  }

  /// What a line must keep: a table row's run and executor; any other line that is not a
  /// histogram row, with its figures blanked (`Seed #: …`, `# hold, # violated, # not shown`).
  /// A rate with no failure is a figure too: `none [≤ 0.38%] (0/1,000)` is `# # # #`, as
  /// `1.80% [0.28%, 10.70%] (18/1,000)` is.
  private func shape(_ lines: [String]) -> [String] {
    let executors: Set<Substring> = ["global", "serial", "fifo", "seeded"]
    return lines.compactMap { line in
      let words = line.split(separator: " ")
      guard let first = words.first, first.first?.isNumber == false else { return nil }
      if words.count > 1, executors.contains(words[1]) { return "\(first) \(words[1])" }
      if line.hasPrefix(" "), !first.hasSuffix(":") { return nil }
      return words.map { $0.contains(where: \.isNumber) || $0 == "none" || $0 == "[≤" ? "#" : String($0) }
        .joined(separator: " ")
    }
  }

  /// `arguments` with fewer iterations: the shape of a run's output does not hang on its size,
  /// and the docs' sizes (a thousand iterations of a package's tests) would cost the suite a
  /// minute. At most 500 iterations of a scenario (run or compared), 200 of a check's (whose
  /// claims are judged at that size), 20 of a package's test.
  static func reduced(_ arguments: [String]) -> [String] {
    let most = ["run": 500, "compare": 500, "check": 200, "test": 20][arguments.first ?? ""] ?? Int.max
    var reduced = arguments
    for index in reduced.indices.dropLast() where reduced[index] == "--iterations" {
      if let iterations = Int(reduced[index + 1]) { reduced[index + 1] = String(min(iterations, most)) }
    }
    return reduced
  }

  func testEveryFullExampleHasTheShapeOfARealRun() throws {
    let examples = try examples()
    XCTAssertGreaterThanOrEqual(examples.count, 8)
    // The fixture packages' tests are built once, by the suites that test `flakelab test`.
    XCTAssertEqual(try Fixtures.numberFactsBuild.get().status, 0)
    XCTAssertEqual(try Fixtures.awkwardBuild.get().status, 0)
    for (arguments, output) in examples {
      let result = try Flakelab.run(Self.reduced(arguments) + ["--no-progress"], directory: Self.root)
      let shown = "flakelab " + arguments.joined(separator: " ")
      XCTAssertEqual(shape(result.stdout.split(separator: "\n").map(String.init)), shape(output), shown)
    }
  }

  /// The README is what a newcomer reads in five minutes; the rest is in the guide.
  func testTheReadmeIsShortAndEveryLinkLeadsSomewhere() throws {
    let documents = try Self.documents()
    XCTAssertLessThanOrEqual(documents[0].text.split(separator: "\n", omittingEmptySubsequences: false).count, 400)
    let link = try NSRegularExpression(pattern: #"\]\(([^)#\s]+)(#[^)]*)?\)"#)
    let anchors = Set(
      documents[0].text.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { heading in
        heading.dropFirst(3).lowercased().filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" }
          .replacingOccurrences(of: " ", with: "-")
      })
    for (path, text) in documents {
      let directory = (path as NSString).deletingLastPathComponent
      for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        let target = String(text[Range(match.range(at: 1), in: text)!])
        guard !target.hasPrefix("http"), !target.hasPrefix("doc:") else { continue }
        // DocC finds a catalog's images by name.
        let file =
          path.hasPrefix("Sources/") && target.hasSuffix(".png")
          ? "Sources/FlakeLab/FlakeLab.docc/Resources/" + target
          : directory.isEmpty ? target : directory + "/" + target
        XCTAssertTrue(
          FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path), "\(path): \(target)")
      }
    }
    // The README's links within itself name its headings.
    let inner = try NSRegularExpression(pattern: #"\]\(#([^)]+)\)"#)
    let readme = documents[0].text
    for match in inner.matches(in: readme, range: NSRange(readme.startIndex..., in: readme)) {
      XCTAssertTrue(anchors.contains(String(readme[Range(match.range(at: 1), in: readme)!])), "\(match)")
    }
    // Each article is in the catalog's topics, so that the built guide lists it.
    let root = try XCTUnwrap(documents.first { $0.path.hasSuffix("/FlakeLab.md") })
    for (path, _) in documents where path.hasPrefix("Sources/") && !path.hasSuffix("/FlakeLab.md") {
      let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
      XCTAssertTrue(root.text.contains("<doc:\(name)>"), name)
    }
  }

  func testTheJSONExampleHasEveryFieldOfARealReport() throws {
    let readme = try String(contentsOf: Self.catalog.appendingPathComponent("JSONReport.md"), encoding: .utf8)
    let start = try XCTUnwrap(readme.range(of: "```json\n"))
    let end = try XCTUnwrap(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
    // The fields themselves, not what a reader makes of them: the document's shape is the check.
    let example = try XCTUnwrap(JSONParser.parse(Array(readme[start.upperBound..<end.lowerBound].utf8)))
    let run = try Flakelab.run(["run", "lab.crash", "--iterations", "1000", "--format", "json"])
    let real = try XCTUnwrap(JSONParser.parse(Array(run.stdout.utf8)))
    XCTAssertEqual(Set(example.keys), Set(real.keys))
    let exampleRun = try XCTUnwrap(example["runs"]?.array?.first)
    let realRun = try XCTUnwrap(real["runs"]?.array?.first)
    XCTAssertEqual(Set(exampleRun.keys), Set(realRun.keys))
    // And the example reads back as a report, as a real one does.
    XCTAssertNoThrow(try ReportJSON.read(Array(readme[start.upperBound..<end.lowerBound].utf8), name: "JSONReport.md"))
  }
}

extension JSONValue {
  /// An object's member names, for tests that check a document's shape.
  fileprivate var keys: [String] {
    guard case .object(let members) = self else { return [] }
    return members.map(\.0)
  }
}

import Foundation
import XCTest

/// The README's examples are real output: each full example (one that starts with the lab's
/// machine line) is run again and must have the same shape. Figures differ from run to run and
/// machine to machine; what must not differ is what a reader relies on: the header lines, the
/// table's columns, which runs there are, and lines such as the seed, the schedules and replays.
final class ReadmeExamplesTests: XCTestCase {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Every `$ flakelab …` example of a text block, with the output printed under it.
  private func examples() throws -> [(arguments: [String], output: [String])] {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
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
  private func shape(_ lines: [String]) -> [String] {
    let executors: Set<Substring> = ["global", "serial", "fifo", "seeded"]
    return lines.compactMap { line in
      let words = line.split(separator: " ")
      guard let first = words.first, first.first?.isNumber == false else { return nil }
      if words.count > 1, executors.contains(words[1]) { return "\(first) \(words[1])" }
      if line.hasPrefix(" "), !first.hasSuffix(":") { return nil }
      return words.map { $0.contains(where: \.isNumber) ? "#" : String($0) }.joined(separator: " ")
    }
  }

  func testEveryFullExampleHasTheShapeOfARealRun() throws {
    let examples = try examples()
    XCTAssertGreaterThanOrEqual(examples.count, 8)
    // The fixture packages' tests are built once, by the suites that test `flakelab test`.
    XCTAssertEqual(try PackageTestCommandTests.listing.get().status, 0)
    XCTAssertEqual(try RealPackageTruthTests.awkwardListing.get().status, 0)
    for (arguments, output) in examples {
      let result = try Flakelab.run(arguments + ["--no-progress"], directory: Self.root)
      let shown = "flakelab " + arguments.joined(separator: " ")
      XCTAssertEqual(shape(result.stdout.split(separator: "\n").map(String.init)), shape(output), shown)
    }
  }

  func testTheJSONExampleHasEveryFieldOfARealReport() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let start = try XCTUnwrap(readme.range(of: "```json\n"))
    let end = try XCTUnwrap(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
    let example = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(readme[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
    let real = try XCTUnwrap(
      try JSONSerialization.jsonObject(
        with: Data(try Flakelab.run(["run", "lab.crash", "--iterations", "1000", "--format", "json"]).stdout.utf8))
        as? [String: Any])
    XCTAssertEqual(Set(example.keys), Set(real.keys))
    let exampleRun = try XCTUnwrap((example["runs"] as? [[String: Any]])?.first)
    let realRun = try XCTUnwrap((real["runs"] as? [[String: Any]])?.first)
    XCTAssertEqual(Set(exampleRun.keys), Set(realRun.keys))
  }
}

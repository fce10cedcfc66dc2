import Foundation

/// The lines each XCTest test's body spans, to tell whose line a failure is.
///
/// XCTest charges an assertion to whichever test is running when it lands: one made on a
/// background queue after its test ended fails the next test, a bystander that does not contain
/// it (combine-schedulers' `testRunsOnMain` failed `testVoidsThreadHop` that way). The line the
/// assertion names lies in its owner's body; this finds that owner.
package struct TestBodies: Sendable {
  /// For each file (symbolic links resolved), the tests declared in it with the lines of their
  /// bodies.
  private var files: [String: [(lines: ClosedRange<Int>, test: String)]] = [:]

  package init() {}

  /// The bodies of `locations`' tests (where each `func` is declared), read from their files.
  init(locations: [String: SourceLocation]) {
    for (path, tests) in Dictionary(grouping: locations, by: { $0.value.path }) {
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      let depths = Self.depths(lines)
      files[Self.resolved(path)] = tests.compactMap { test, location in
        Self.end(ofBodyFrom: location.line, depths: depths).map { (location.line...$0, test) }
      }
    }
  }

  /// The test whose body holds `place`, if one does.
  package func owner(of place: SourceLocation) -> String? {
    files[Self.resolved(place.path)]?.first { $0.lines.contains(place.line) }?.test
  }

  /// The last line of the body of the declaration on line `start` (1-based): the first line
  /// after which the nesting is back where it was before `start`, having gone deeper.
  private static func end(ofBodyFrom start: Int, depths: [(before: Int, after: Int, deepest: Int)]) -> Int? {
    guard start >= 1, start <= depths.count else { return nil }
    let outside = depths[start - 1].before
    var opened = false
    for index in (start - 1)..<depths.count {
      opened = opened || depths[index].deepest > outside
      if opened, depths[index].after <= outside { return index + 1 }
    }
    return nil
  }

  /// The brace nesting of each line: before it, after it, and the deepest within it. Braces in
  /// string literals and comments are not counted; a `"""` string spans lines.
  private static func depths(_ lines: [Substring]) -> [(before: Int, after: Int, deepest: Int)] {
    var depth = 0
    var inBlockComment = false
    var inMultilineString = false
    return lines.map { line in
      let before = depth
      var deepest = depth
      var inString = false
      var characters = line.makeIterator()
      var previous: Character = " "
      var pendingQuotes = 0
      while let character = characters.next() {
        defer { previous = character }
        if inBlockComment {
          if previous == "*", character == "/" { inBlockComment = false }
          continue
        }
        if character == "\"" { pendingQuotes += 1 } else { pendingQuotes = 0 }
        if pendingQuotes == 3 {
          inMultilineString.toggle()
          inString = false
          pendingQuotes = 0
          continue
        }
        if inMultilineString { continue }
        if inString {
          if character == "\"", previous != "\\" { inString = false }
          continue
        }
        switch character {
        case "\"": inString = true
        case "/" where previous == "/": return (before, depth, deepest)
        case "*" where previous == "/": inBlockComment = true
        case "{":
          depth += 1
          deepest = max(deepest, depth)
        case "}": depth -= 1
        default: break
        }
      }
      return (before, depth, deepest)
    }
  }

  private static func resolved(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
  }
}

import Foundation

/// A line of a package's source: where a test is declared (for annotations on the test's line
/// in a CI's view of the code), or where a failure was recorded (the line a person opens).
///
/// Swift Testing says it (the listing's `test` records carry each test's file and line); XCTest
/// on Linux does not, so an XCTest test is looked for in the package's `Tests` sources: the first
/// `func <name>(` in a file that declares its class.
package struct SourceLocation: Sendable, Hashable {
  /// The file's absolute path.
  package let path: String
  package let line: Int

  package init(path: String, line: Int) {
    self.path = path
    self.line = line
  }

  /// `path` relative to `directory` when it lies inside it (a CI's workspace), else as it is;
  /// either may be reached through a symbolic link.
  package func path(relativeTo directory: String) -> String {
    func resolved(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
    let directory = resolved(directory)
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    let path = resolved(self.path)
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : self.path
  }

  /// XCTest tests (`Module.Class/testName`) found in the Swift files under `directory`. Each
  /// file is read and indexed once, so that a suite of hundreds of tests in dozens of files costs
  /// one pass over its sources (swift-async-algorithms' 338: 1.4 s when every test scanned every
  /// line, on every `flakelab ci`).
  static func xctest(_ tests: [String], under directory: String) -> [String: SourceLocation] {
    let directory = URL(fileURLWithPath: directory).standardizedFileURL.path
    guard !tests.isEmpty, let files = FileManager.default.enumerator(atPath: directory) else { return [:] }
    let sources = files.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") && !$0.hasPrefix(".build") }
      .sorted().compactMap { file -> Declarations? in
        let path = (directory as NSString).appendingPathComponent(file)
        return (try? String(contentsOfFile: path, encoding: .utf8)).map { Declarations(path: path, text: $0) }
      }
    var locations: [String: SourceLocation] = [:]
    for test in tests {
      guard let slash = test.lastIndex(of: "/") else { continue }
      let className = test[..<slash].split(separator: ".").last ?? ""
      let function = test[test.index(after: slash)...]
      for source in sources where source.classes.contains(className) {
        if let line = source.functions[function] {
          locations[test] = SourceLocation(path: source.path, line: line)
          break
        }
      }
    }
    return locations
  }

  /// What one Swift file declares, as far as finding a test asks: the names that follow
  /// `class `, and the line of each `func <name>(`'s first appearance, line comments aside.
  struct Declarations {
    let path: String
    private(set) var classes: Set<Substring> = []
    private(set) var functions: [Substring: Int] = [:]

    init(path: String, text: String) {
      self.path = path
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      where !line.drop(while: \.isWhitespace).hasPrefix("//") {
        for name in Self.names(after: "class ", in: line) { classes.insert(name) }
        for name in Self.names(after: "func ", in: line, calledWithParenthesis: true) where functions[name] == nil {
          functions[name] = index + 1
        }
      }
    }

    /// The identifiers that follow `keyword` in `line`; with `calledWithParenthesis`, only
    /// those a `(` follows (`func name(`, not a generic `func name<T>(`).
    static func names(after keyword: String, in line: Substring, calledWithParenthesis: Bool = false) -> [Substring] {
      var names: [Substring] = []
      var rest = line
      while let found = rest.firstRange(of: keyword) {
        let name = rest[found.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        rest = rest[name.endIndex...]
        guard !name.isEmpty, !calledWithParenthesis || rest.first == "(" else { continue }
        names.append(name)
      }
      return names
    }
  }
}

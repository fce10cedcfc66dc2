import Foundation

/// Where a test is declared: for annotations on the test's line in a CI's view of the code.
///
/// Swift Testing says it (the listing's `test` records carry each test's file and line); XCTest
/// on Linux does not, so an XCTest test is looked for in the package's `Tests` sources: the first
/// `func <name>(` in a file that declares its class.
package struct SourceLocation: Sendable, Equatable {
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

  /// XCTest tests (`Module.Class/testName`) found in the Swift files under `directory`.
  static func xctest(_ tests: [String], under directory: String) -> [String: SourceLocation] {
    let directory = URL(fileURLWithPath: directory).standardizedFileURL.path
    guard !tests.isEmpty, let files = FileManager.default.enumerator(atPath: directory) else { return [:] }
    let sources = files.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") && !$0.hasPrefix(".build") }
      .sorted().compactMap { file -> (path: String, lines: [Substring])? in
        let path = (directory as NSString).appendingPathComponent(file)
        return (try? String(contentsOfFile: path, encoding: .utf8)).map { (path, $0.split(separator: "\n", omittingEmptySubsequences: false)) }
      }
    var locations: [String: SourceLocation] = [:]
    for test in tests {
      guard let slash = test.lastIndex(of: "/") else { continue }
      let className = test[..<slash].split(separator: ".").last.map(String.init) ?? ""
      let function = "func \(test[test.index(after: slash)...])("
      for source in sources where source.lines.contains(where: { $0.contains("class \(className)") }) {
        if let index = source.lines.firstIndex(where: { $0.contains(function) }) {
          locations[test] = SourceLocation(path: source.path, line: index + 1)
          break
        }
      }
    }
    return locations
  }
}

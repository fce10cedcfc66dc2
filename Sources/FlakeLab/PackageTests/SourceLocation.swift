import Foundation

/// A line of a package's source: where a test is declared (for annotations on the test's line
/// in a CI's view of the code), or where a failure was recorded (the line a person opens).
///
/// Swift Testing says it (the listing's `test` records carry each test's file and line); XCTest
/// on Linux does not, so an XCTest test is looked for in the package's `Tests` sources
/// (``XCTestDeclaration``).
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

  /// `Tests/M/T.swift:12`: the place as every answer writes it, from the package's directory
  /// (`directory`), or whole without one.
  package func place(relativeTo directory: String?) -> String {
    "\(directory.map(path(relativeTo:)) ?? path):\(line)"
  }
}

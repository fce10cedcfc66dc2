import Foundation

/// The lines each XCTest test's body spans, to tell whose line a failure is.
///
/// XCTest charges an assertion to whichever test is running when it lands: one made on a
/// background queue after its test ended fails the next test, a bystander that does not contain
/// it (combine-schedulers' `testRunsOnMain` failed `testVoidsThreadHop` that way). The line the
/// assertion names lies in its owner's body; this finds that owner, and only where it is certain:
/// a charge made on a wrong guess would pass a test that failed.
package struct TestBodies: Sendable {
  /// For each file (symbolic links resolved), the tests declared in it with the lines of their
  /// bodies.
  private var files: [String: [(lines: ClosedRange<Int>, test: String)]] = [:]

  package init() {}

  /// The bodies of the tests whose declarations are certain: in a file read without doubt
  /// (``SwiftSourceOutline/doubt``), declared once in their own class, and under a name no other
  /// listed test may run without a declaration of its own (a subclass inherits its tests).
  init(_ declarations: [String: XCTestDeclaration], listed: [String]) {
    let inherited = Set(listed.filter { declarations[$0] == nil }.map(XCTestDeclaration.function(of:)))
    // Each file's path resolved once (a file system call per component), not once per test.
    var resolvedPaths: [String: String] = [:]
    for (test, declaration) in declarations
    where declaration.isCertain && !inherited.contains(XCTestDeclaration.function(of: test)) {
      let path = declaration.location.path
      let file = resolvedPaths[path] ?? Self.resolved(path)
      resolvedPaths[path] = file
      files[file, default: []].append((declaration.body, test))
    }
  }

  /// The test whose body holds `place`, if one does.
  package func owner(of place: SourceLocation) -> String? {
    files[Self.resolved(place.path)]?.first { $0.lines.contains(place.line) }?.test
  }

  private static func resolved(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
  }
}

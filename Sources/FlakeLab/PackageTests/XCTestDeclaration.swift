import Foundation

/// Where an XCTest test is declared, read from the package's sources: Linux's XCTest never says.
///
/// A test `Module.Class/testName` is the method `testName` declared directly in the body of
/// `class Class` or of an extension of it (``SwiftSourceOutline``): a method of the same name in
/// another class of the same file, in a comment or in a string is another thing.
struct XCTestDeclaration: Equatable {
  /// Its `func`'s line.
  let location: SourceLocation
  /// The lines from its `func` to the `}` that closes its body.
  let body: ClosedRange<Int>
  /// Why its line may be wrong: its file was read with doubt (``SwiftSourceOutline/doubt``), or
  /// a method of its name is declared in its class more than once. Nil when certain.
  let doubt: String?

  /// Whether the body may hint whose a failure is: its file was read without doubt and the test
  /// is declared there once.
  var isCertain: Bool { doubt == nil }

  /// The declarations of `tests` found in the Swift files under `directory`. Each file is read
  /// and outlined once, so that a suite of hundreds of tests in dozens of files costs one pass
  /// over its sources, on every `flakelab ci`.
  static func find(_ tests: [String], under directory: String) -> [String: XCTestDeclaration] {
    let directory = URL(fileURLWithPath: directory).standardizedFileURL.path
    guard !tests.isEmpty, let files = FileManager.default.enumerator(atPath: directory) else { return [:] }
    var methods: [String: [(path: String, method: SwiftSourceOutline.Method, doubt: String?)]] = [:]
    let swiftFiles = files.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") && !$0.hasPrefix(".build") }
    for file in swiftFiles.sorted() {
      let path = (directory as NSString).appendingPathComponent(file)
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
      let outline = SwiftSourceOutline(text)
      for method in outline.methods {
        methods["\(method.type)/\(method.name)", default: []].append((path, method, outline.doubt))
      }
    }
    var found: [String: XCTestDeclaration] = [:]
    for test in tests {
      guard let slash = test.lastIndex(of: "/") else { continue }
      let className = test[..<slash].split(separator: ".").last ?? ""
      guard let candidates = methods["\(className)/\(function(of: test))"], let first = candidates.first
      else { continue }
      let file = (first.path as NSString).lastPathComponent
      found[test] = XCTestDeclaration(
        location: SourceLocation(path: first.path, line: first.method.line), body: first.method.body,
        doubt: candidates.count > 1
          ? "declared \(candidates.count) times" : first.doubt.map { "\(file) was read with doubt at \($0)" })
    }
    return found
  }

  /// `testName` of `Module.Class/testName`.
  static func function(of test: String) -> Substring {
    test.lastIndex(of: "/").map { test[test.index(after: $0)...] } ?? Substring(test)
  }
}

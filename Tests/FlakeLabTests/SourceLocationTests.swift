import Foundation
import XCTest

@testable import FlakeLab

/// Where an XCTest test is declared, and whose body a line lies in, read from the package's
/// sources as Linux's XCTest never says. A wrong owner passes a failing test (its failure is
/// charged to another), so every shape a scan could misread either reads right or leaves the
/// failure with the test that was running.
final class SourceLocationTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-sources-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func write(_ files: [String: String]) throws {
    for (name, text) in files {
      let url = directory.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
  }

  private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  private func bodies(_ tests: [String]) -> TestBodies {
    TestBodies(XCTestDeclaration.find(tests, under: directory.path), listed: tests)
  }

  func testATestIsFoundInItsOwnClassAtItsFunctionsLine() throws {
    try write([
      // A class whose name only begins with the test's class is another class.
      "M/A.swift": "final class FooTestsMore: XCTestCase {\n  func testA() {}\n}\n",
      // The class, without the test's function: another file that declares it is looked in.
      "M/B.swift": "final class FooTests: XCTestCase {\n  func testB<T>(_: T) {}\n}\n",
      "M/C.swift":
        "class Helper {}\nfinal class Other {}; class FooTests {\n  // func testA() is below\n  func testA() async throws {}\n}\n",
      // Built sources are not the package's.
      ".build/D.swift": "class FooTests {\n  func testC() {}\n}\n",
    ])
    let found = XCTestDeclaration.find(
      ["M.FooTests/testA", "M.FooTests/testC", "M.Missing/testA"], under: directory.path)
    XCTAssertEqual(found.mapValues(\.location), ["M.FooTests/testA": SourceLocation(path: path("M/C.swift"), line: 4)])
    XCTAssertEqual(found["M.FooTests/testA"]?.body, 4...4)
  }

  /// Two classes of one file, each with a `testSame`: each test is its own class's.
  func testTwoClassesWithATestOfTheSameNameEachOwnTheirs() throws {
    try write([
      "M/Same.swift": """
      final class FirstTests: XCTestCase {
        func testSame() {
          XCTAssertTrue(true)
        }
      }

      final class SecondTests: XCTestCase {
        func testSame() {
          XCTFail("fails every time")
        }
      }
      """
    ])
    let tests = ["M.FirstTests/testSame", "M.SecondTests/testSame"]
    let found = XCTestDeclaration.find(tests, under: directory.path)
    XCTAssertEqual(found["M.FirstTests/testSame"]?.location.line, 2)
    XCTAssertEqual(found["M.SecondTests/testSame"]?.location.line, 8)
    XCTAssertEqual(
      bodies(tests).owner(of: SourceLocation(path: path("M/Same.swift"), line: 9)), "M.SecondTests/testSame")
    XCTAssertEqual(
      bodies(tests).owner(of: SourceLocation(path: path("M/Same.swift"), line: 3)), "M.FirstTests/testSame")
  }

  /// Braces and quotes in every literal form, and declarations in comments, neither open, close
  /// nor declare anything: the next test's line is still the next test's.
  func testLiteralsAndCommentsHideNoBodyEnd() throws {
    try write([
      "M/Literals.swift": ##"""
      final class LiteralTests: XCTestCase {
        func testRaw() {
          let json = #"{"x":"{"}"#
          let deeper = ##"a "# { "##
          let escaped = "ends in a backslash \\"
          let run = { "\(json.map { "\($0)" }){" }
          let multiline = """
            } "{" \""" }
            """
          let rawMultiline = #"""
            }}} """ still inside
            """#
          let regex = #/[{]"/#
          let bare = /[{]/
          _ = (json, deeper, escaped, run, multiline, rawMultiline, regex, bare)
        }
        /* renamed: func testB() used to be here
           /* nested */ func testC() { still a comment
        */
        func testB() {
          XCTFail("fails every time")
        }
        func `test with a raw name {`() {}
      }
      """##
    ])
    let tests = ["M.LiteralTests/testRaw", "M.LiteralTests/testB", "M.LiteralTests/test with a raw name {"]
    let found = XCTestDeclaration.find(tests, under: directory.path)
    XCTAssertEqual(found["M.LiteralTests/testRaw"]?.body, 2...16)
    XCTAssertEqual(found["M.LiteralTests/testB"]?.body, 20...22)
    XCTAssertEqual(found["M.LiteralTests/test with a raw name {"]?.body, 23...23)
    XCTAssertNil(found["M.LiteralTests/testC"])
    // A `/` after `= ` can be no division: the bare regex is read whole, without doubt.
    XCTAssertEqual(found["M.LiteralTests/testB"]?.isCertain, true)
    XCTAssertEqual(
      bodies(tests).owner(of: SourceLocation(path: path("M/Literals.swift"), line: 21)), "M.LiteralTests/testB")
  }

  /// Three shapes that compile and were misread: a regex on a line of its own after a string
  /// (a RegexBuilder), a directive after a `;` on the same line, and an extended regex with an
  /// escaped line break (every later line was one off).
  func testRegexBuildersDirectivesAfterASemicolonAndEscapedLineBreaksAreRead() {
    let builder = SwiftSourceOutline(
      #"""
      class T: XCTestCase {
        func testA() {
          let pattern = Regex {
            "a"
            /\{/
          }
        }
        func testB() {}
      }
      """#)
    XCTAssertNil(builder.doubt)
    XCTAssertEqual(builder.methods.map(\.body), [2...7, 8...8])
    let directive = SwiftSourceOutline(
      """
      class T: XCTestCase {
        func testA() {
          let x = 1; #if NEVER_SET
          func helper() { }
          #else
          func helper() { }; #endif
          _ = x
        }
        func testB() {}
      }
      """)
    XCTAssertNil(directive.doubt)
    XCTAssertEqual(directive.methods.map(\.body), [2...8, 9...9])
    let extended = SwiftSourceOutline(
      #"""
      class T: XCTestCase {
        func testA() {
          let pattern = #/
            a\
            b
          /#
        }
        func testB() {}
      }
      """#)
    XCTAssertNil(extended.doubt)
    XCTAssertEqual(extended.methods.map(\.line), [2, 8])
  }

  /// Where the reading is unsure, the declared line says so.
  func testAnUnsureDeclarationSaysWhy() throws {
    try write(["M/Unsure.swift": "class UnsureTests: XCTestCase {\n  func testA() { let s = \"open\n }\n}\n"])
    let found = XCTestDeclaration.find(["M.UnsureTests/testA"], under: directory.path)
    XCTAssertEqual(
      found["M.UnsureTests/testA"]?.doubt,
      "Unsure.swift was read with doubt at line 2: a string is not closed on its line")
  }

  func testWithoutDoubtEveryLiteralFormIsReadWhole() throws {
    let outline = SwiftSourceOutline(
      #"""
      class T: XCTestCase {
        func testA() {
          let a = #"{"x":"{"}"#, b = "\\", c = #/[{]/#, d = "\("}")"
          /* /* } */ } */
        }
        func testB() {}
      }
      """#)
    XCTAssertNil(outline.doubt)
    XCTAssertEqual(outline.methods.map(\.name), ["testA", "testB"])
    XCTAssertEqual(outline.methods.map(\.body), [2...5, 6...6])
  }

  /// What cannot be read for certain charges nothing: an unbalanced `#if` branch, a string or
  /// comment left open, a brace never closed.
  func testADoubtfulFileDecidesNoOwner() {
    let doubtful = [
      "class T { func testA() {\n#if os(Linux)\n  if true {\n#else\n  if false {\n#endif\n  }\n}\n}\n",
      "class T { func testA() { let s = \"open\n } }\n",
      "class T { func testA() { /* open } }\n",
      "class T { func testA() {\n",
      "class T { func testA() { } } }\n",
    ]
    for text in doubtful {
      XCTAssertNotNil(SwiftSourceOutline(text).doubt, text)
    }
  }

  /// A test named twice (two `#if` branches), or a name a listed subclass inherits, has no
  /// certain body: either may be the one that ran.
  func testAnAmbiguousOrInheritedTestHasNoOwner() throws {
    try write([
      "M/Twice.swift": """
      class TwiceTests: XCTestCase {
      #if os(Linux)
        func testTwice() { XCTFail() }
      #else
        func testTwice() { XCTFail() }
      #endif
      }
      class BaseTests: XCTestCase {
        func testShared() { XCTFail() }
      }
      class SubTests: BaseTests {}
      """
    ])
    let tests = ["M.TwiceTests/testTwice", "M.BaseTests/testShared", "M.SubTests/testShared"]
    let found = XCTestDeclaration.find(tests, under: directory.path)
    XCTAssertEqual(found["M.TwiceTests/testTwice"]?.isCertain, false)
    XCTAssertEqual(found["M.BaseTests/testShared"]?.isCertain, true)
    let bodies = bodies(tests)
    XCTAssertNil(bodies.owner(of: SourceLocation(path: path("M/Twice.swift"), line: 3)))
    XCTAssertNil(bodies.owner(of: SourceLocation(path: path("M/Twice.swift"), line: 9)), "SubTests runs it too")
  }

  func testMethodsOfExtensionsAndNotOfNestedFunctionsAreDeclarations() {
    let outline = SwiftSourceOutline(
      """
      extension M.FooTests {
        func testA() {
          func helper() {}
          helper()
        }
        class func setUp() {}
        var computed: Int { 1 }
      }
      protocol P { func required() }
      """)
    XCTAssertNil(outline.doubt)
    XCTAssertEqual(
      outline.methods,
      [
        .init(type: "FooTests", name: "testA", line: 2, body: 2...5),
        .init(type: "FooTests", name: "setUp", line: 6, body: 6...6),
      ])
  }
}

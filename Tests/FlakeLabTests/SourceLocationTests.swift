import Foundation
import XCTest

@testable import FlakeLab

/// Where an XCTest test is declared, found in the package's sources as Linux's XCTest never says.
final class SourceLocationTests: XCTestCase {
  func testATestIsFoundInAFileThatDeclaresItsClassAtItsFunctionsFirstLine() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-sources-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory.appendingPathComponent("M"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let files = [
      // A class whose name only begins with the test's class is another class.
      "M/A.swift": "final class FooTestsMore: XCTestCase {\n  func testA() {}\n}\n",
      // The class, without the test's function: the next file that declares it is looked in.
      "M/B.swift": "final class FooTests: XCTestCase {\n  func testB<T>(_: T) {}\n}\n",
      "M/C.swift": "class Helper {}\nfinal class Other {}; class FooTests {\n  // func testA() is below\n  func testA() async throws {}\n  func testA() {}\n}\n",
      // Built sources are not the package's.
      ".build/D.swift": "class FooTests {\n  func testB() {}\n}\n",
    ]
    for (name, text) in files {
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent(name).deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }
    let locations = SourceLocation.xctest(["M.FooTests/testA", "M.FooTests/testB", "M.Missing/testA"], under: directory.path)
    XCTAssertEqual(locations, ["M.FooTests/testA": SourceLocation(path: directory.path + "/M/C.swift", line: 4)])
  }

  func testTheNamesAfterAKeywordAreWholeIdentifiers() {
    typealias Declarations = SourceLocation.Declarations
    XCTAssertEqual(Declarations.names(after: "class ", in: "final class A_1: B { class C {} }"), ["A_1", "C"])
    XCTAssertEqual(Declarations.names(after: "func ", in: "func a() {}; func b<T>() {}; func c (", calledWithParenthesis: true), ["a"])
    XCTAssertEqual(Declarations.names(after: "class ", in: "class  "), [])
  }
}

import RegexBuilder
import XCTest

/// Each test after a shape fails every time: its failure is its own, whatever a reading of the
/// file makes of the lines.
final class ShapeTests: XCTestCase {
  func testARegexBuilder() {
    let pattern = Regex {
      "a"
      /\{/
    }
    XCTAssertNotNil("a{".wholeMatch(of: pattern))
  }

  func testBAfterTheRegexBuilder() {
    XCTAssertEqual(1 + 1, 3, "after a regex builder")
  }

  func testCDirectiveAfterASemicolon() {
    let value = 1; #if STRICT_JOB_NEVER_SET
    func helper() { }
    #endif
    XCTAssertEqual(value, 1)
  }

  func testDAfterTheDirective() {
    XCTAssertEqual(2, 3, "after a directive")
  }

  func testEEscapedLineBreak() {
    let pattern = #/
      a\
      b
    /#
    _ = "ab".firstMatch(of: pattern)
  }

  func testFAfterTheEscapedLineBreak() {
    XCTAssertEqual(4, 5, "after an escaped line break")
  }
}

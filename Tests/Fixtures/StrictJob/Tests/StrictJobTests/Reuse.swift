import XCTest

/// Checks shared between tests: the failure is recorded on the line of the test whose method
/// holds it, while the test that called it runs.
final class SharedCheckTests: XCTestCase {
  var value = 1

  func testAChecksTheValue() {
    XCTAssertEqual(value, 1, "the shared check")
  }

  func testBReusesTheCheck() {
    value = 2
    testAChecksTheValue()
  }
}

class BaseCheckTests: XCTestCase {
  var expected: Int { 1 }

  func testCompare() {
    XCTAssertEqual(expected, 1, "the base class's check")
  }
}

final class DerivedCheckTests: BaseCheckTests {
  override var expected: Int { 2 }

  override func testCompare() {
    super.testCompare()
  }
}

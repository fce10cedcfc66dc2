import XCTest

final class JobXCTests: XCTestCase {
  func testPasses() {
    XCTAssertEqual(2 * 2, 4)
  }

  /// Fails the first time it runs, passes after: flaky.
  func testFailsOnce() {
    XCTAssertFalse(State.isFirstRun("testFailsOnce"), "the first run fails")
  }
}

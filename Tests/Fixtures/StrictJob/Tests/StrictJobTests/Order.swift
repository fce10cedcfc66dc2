import Dispatch
import Foundation
import XCTest

/// `testBVictim` fails every time after `testAPolluter`, and passes alone.
final class PollutionTests: XCTestCase {
  nonisolated(unsafe) static var dirty = false

  func testAPolluter() {
    Self.dirty = true
  }

  func testBVictim() {
    XCTAssertFalse(Self.dirty, "a test before it left the state dirty")
  }
}

/// `testAOwner`'s assertion lands half a second after it ended, while `testBBystander` runs:
/// XCTest charges it to the bystander every time they run in one process; alone, the bystander
/// passes, and the owner's process ends long before its assertion lands, however busy the machine.
final class LateAssertionTests: XCTestCase {
  func testAOwner() {
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(500)) {
      XCTFail("a late assertion")
    }
  }

  func testBBystander() {
    Thread.sleep(forTimeInterval: 1)
  }
}

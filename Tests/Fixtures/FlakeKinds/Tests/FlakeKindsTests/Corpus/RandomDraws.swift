import Foundation
import Testing
import XCTest

// Tests that a random draw decides: the same seed fails them again, other seeds pass them.
// Right: randomness.

@Suite struct RandomDraws {
  /// A die roll with a bug on six: fails one run in six.
  @Test func rollsBelowSix() {
    #expect(Int.random(in: 1...6) < 6)
  }
}

final class ShuffleTests: XCTestCase {
  /// A playlist shuffled, expected never to come out reversed: one time in six it does.
  func testShuffleNeverReverses() {
    XCTAssertNotEqual([1, 2, 3].shuffled(), [3, 2, 1])
  }

  /// Tags kept in a `Set` and joined: the hash order, drawn once per process, decides.
  func testJoinsTagsInOrder() async {
    let tags: Set = ["async", "swift", "tests"]
    XCTAssertEqual(tags.sorted().joined(separator: ","), tags.joined(separator: ","))
  }

  /// Two identifiers compared as if made in order: their bytes are random.
  func testIdentifiersAreMadeInOrder() {
    XCTAssertLessThan(UUID().uuidString, UUID().uuidString)
  }
}

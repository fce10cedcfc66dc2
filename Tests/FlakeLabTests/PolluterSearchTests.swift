import XCTest

@testable import FlakeLab

/// The polluter search's decisions, with no process: which subsets delta debugging asks about,
/// how many passes a check needs, and what a found set says.
final class PolluterSearchTests: XCTestCase {
  private let neighbours = (0..<16).map { "t\($0)" }

  func testOnePolluterAmongSixteenIsFoundInAboutLogTwoChecks() {
    var asked: [[String]] = []
    let minimum = PolluterSearch.minimize(neighbours, limit: 24) { subset in
      asked.append(subset)
      return subset.contains("t11")
    }
    XCTAssertEqual(minimum.elements, ["t11"])
    XCTAssertTrue(minimum.isMinimal)
    // Halves: 16 → 8 → 4 → 2 → 1, at most two checks a level.
    XCTAssertLessThanOrEqual(minimum.checks, 8, "\(asked)")
    XCTAssertEqual(asked.first, Array(neighbours.prefix(8)))
  }

  func testTwoTestsThatFailItOnlyTogetherAreBothKept() {
    let minimum = PolluterSearch.minimize(neighbours, limit: 60) { subset in
      subset.contains("t2") && subset.contains("t13")
    }
    XCTAssertEqual(minimum.elements, ["t2", "t13"])
    XCTAssertTrue(minimum.isMinimal)
  }

  func testLoadFromManyLeavesManyAndSaysTheyAreMinimal() {
    // Fails only with twelve or more neighbours: no few of them do it.
    let minimum = PolluterSearch.minimize(neighbours, limit: 200) { $0.count >= 12 }
    XCTAssertEqual(minimum.elements.count, 12)
    XCTAssertTrue(minimum.isMinimal)
  }

  func testASearchThatRunsOutOfChecksDoesNotClaimAMinimum() {
    let minimum = PolluterSearch.minimize(neighbours, limit: 3) { $0.count >= 12 }
    XCTAssertFalse(minimum.isMinimal)
    XCTAssertEqual(minimum.checks, 3)
  }

  func testPassesPerCheckShowAPolluterNineteenTimesInTwenty() {
    XCTAssertEqual(PolluterSearch.passesPerCheck(rate: 1), 1)
    // 1 − 0.5⁵ ≥ 0.95, 1 − 0.5⁴ < 0.95.
    XCTAssertEqual(PolluterSearch.passesPerCheck(rate: 0.5), 5)
    XCTAssertEqual(PolluterSearch.passesPerCheck(rate: 0.9), 2)
    // A victim one pass in five is searched, with more passes a check; one too rare to bisect
    // is not: no name rather than a wrong one.
    XCTAssertEqual(PolluterSearch.passesPerCheck(rate: 0.2), 14)
    XCTAssertNil(PolluterSearch.passesPerCheck(rate: 0.04))
  }

  func testTheAnswerNamesThePollutersAndWhereTheyRun() {
    let one = Polluters(
      tests: [PackageTest(id: "A.testChanges", framework: .xctest)], isComplete: true, placement: .before, failed: 3, passes: 3, candidates: 12,
      processes: 9)
    XCTAssertEqual(one.when, "fails when A.testChanges runs before it")
    XCTAssertTrue(one.advice.hasPrefix("A.testChanges leaves behind state this test reads: make it restore"), one.advice)
    XCTAssertFalse(one.advice.contains(".serialized"), "running them one at a time keeps the order that fails")
    let any = Polluters(
      tests: ["A", "B", "C"].map { PackageTest(id: $0, framework: .swiftTesting) }, isComplete: false, placement: .beside, failed: 3, passes: 3, candidates: 12,
      processes: 20)
    XCTAssertEqual(any.when, "fails when any of A, B or C runs beside it (and maybe when others do: the search stopped)")
    XCTAssertTrue(any.advice.contains(".serialized"), any.advice)
    // Issue 35: any test of another class run first fails combine-schedulers' testRunsOnMain.
    let first = Polluters(
      tests: [PackageTest(id: "I.testSchedulesImmediately", framework: .xctest)], isComplete: false, placement: .before,
      failed: 1, passes: 6, candidates: 21, processes: 128)
    XCTAssertTrue(first.advice.contains("after other neighbours too"), first.advice)
    XCTAssertFalse(first.advice.contains("leaves behind state"), first.advice)
    let many = Polluters(
      tests: [], isComplete: true, placement: .before, failed: 20, passes: 20, candidates: 40, processes: 30)
    XCTAssertTrue(many.when.hasPrefix("no single neighbour, nor 3 together, fails it"), many.when)
  }
}

import XCTest

@testable import FlakeLab

/// The polluter search's decisions, with no process: which subsets delta debugging asks about,
/// how many passes a check needs, and what a found set says.
final class PolluterSearchTests: XCTestCase {
  private let neighbours = (0..<16).map { "t\($0)" }

  func testOnePolluterAmongSixteenIsFoundInAboutLogTwoChecks() {
    var asked: [[String]] = []
    let minimum = DeltaDebugging.minimize(neighbours, limit: 24) { subset in
      asked.append(subset)
      return subset.contains("t11")
    }
    XCTAssertEqual(minimum.current, ["t11"])
    XCTAssertTrue(minimum.isMinimal)
    // Halves: 16 → 8 → 4 → 2 → 1, at most two checks a level.
    XCTAssertLessThanOrEqual(minimum.checks, 8, "\(asked)")
    XCTAssertEqual(asked.first, Array(neighbours.prefix(8)))
  }

  func testTwoTestsThatFailItOnlyTogetherAreBothKept() {
    let minimum = DeltaDebugging.minimize(neighbours, limit: 60) { subset in
      subset.contains("t2") && subset.contains("t13")
    }
    XCTAssertEqual(minimum.current, ["t2", "t13"])
    XCTAssertTrue(minimum.isMinimal)
  }

  func testLoadFromManyLeavesManyAndSaysTheyAreMinimal() {
    // Fails only with twelve or more neighbours: no few of them do it.
    let minimum = DeltaDebugging.minimize(neighbours, limit: 200) { $0.count >= 12 }
    XCTAssertEqual(minimum.current.count, 12)
    XCTAssertTrue(minimum.isMinimal)
  }

  func testASearchThatRunsOutOfChecksDoesNotClaimAMinimum() {
    let minimum = DeltaDebugging.minimize(neighbours, limit: 3) { $0.count >= 12 }
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
      tests: [PackageTest(id: "A.testChanges", framework: .xctest)], isComplete: true, placement: .before, failed: 3,
      passes: 3, candidates: 12,
      processes: 9)
    XCTAssertEqual(one.when, "fails when A.testChanges runs before it")
    XCTAssertTrue(
      one.advice.hasPrefix("A.testChanges leaves behind state this test reads: make it restore"), one.advice)
    XCTAssertFalse(one.advice.contains(".serialized"), "running them one at a time keeps the order that fails")
    let any = Polluters(
      tests: ["A", "B", "C"].map { PackageTest(id: $0, framework: .swiftTesting) }, isComplete: false,
      placement: .beside, failed: 3, passes: 3, candidates: 12,
      processes: 20)
    XCTAssertEqual(
      any.when, "fails when any of A, B or C runs beside it (and maybe when others do: the search stopped)")
    XCTAssertTrue(any.advice.contains(".serialized"), any.advice)
    // Any test of another class run first fails combine-schedulers' testRunsOnMain.
    let first = Polluters(
      tests: [PackageTest(id: "I.testSchedulesImmediately", framework: .xctest)], isComplete: false, placement: .before,
      failed: 1, passes: 6, candidates: 21, processes: 128)
    XCTAssertTrue(first.advice.contains("after other neighbours too"), first.advice)
    XCTAssertFalse(first.advice.contains("leaves behind state"), first.advice)
    let many = Polluters(
      tests: [], isComplete: true, placement: .before, failed: 20, passes: 20, candidates: 40, processes: 30)
    XCTAssertTrue(many.when.hasPrefix("no single neighbour, nor 3 together, fails it"), many.when)
  }

  // MARK: The search as a plan, fed what each pass came to

  private let global = ExecutorCatalog.standard.first { $0.id == .global }!
  private let now = ContinuousClock.now

  private func victim(
    _ id: String, neighbours: [PackageTest], suite: PolluterSearch.Failures,
    alone: PolluterSearch.Failures = .init(failed: 0, ran: 60)
  ) -> PolluterSearch.Victim {
    PolluterSearch.Victim(
      test: PackageTest(id: id, framework: .xctest), executor: global, suite: suite, alone: alone,
      neighbours: neighbours)
  }

  private var tests: [PackageTest] { neighbours.map { PackageTest(id: $0, framework: .xctest) } }

  /// Runs `search` to its end, the victim of each pass failing where `fails` says; the passes.
  private func run(
    _ search: inout PolluterSearch, fails: (PolluterSearch.Pass) -> Bool
  ) -> [PolluterSearch.Pass] {
    var passes: [PolluterSearch.Pass] = []
    var next = search.start(at: now)
    while let pass = next, passes.count < 1000 {
      passes.append(pass)
      next = search.ran(.init(failed: fails(pass) ? 1 : 0, ran: 1), interrupted: false, at: now)
    }
    return passes
  }

  func testAPolluterIsFoundConfirmedAndTriedFirstOnTheNextVictim() {
    let polluter = tests[11]
    let first = victim("V.testOne", neighbours: tests, suite: .init(failed: 20, ran: 20))
    let second = victim("V.testTwo", neighbours: tests, suite: .init(failed: 20, ran: 20))
    var search = PolluterSearch([first, second], confidence: 0.95)
    let passes = run(&search) { $0.neighbours.contains(polluter) }
    let found = search.found[first.test]
    XCTAssertEqual(found?.tests, [polluter])
    XCTAssertEqual(found?.isComplete, true)
    XCTAssertEqual(found?.placement, .before)
    // The confirmation ran the victim with the polluter alone, three passes, each failing.
    XCTAssertEqual(found.map { [$0.failed, $0.passes] }, [3, 3])
    // The second victim confirms the known polluter first, then checks the rest once.
    let secondPasses = passes.filter { $0.victim.test == second.test }
    XCTAssertEqual(
      secondPasses.map(\.neighbours), [[polluter], [polluter], [polluter], tests.filter { $0 != polluter }])
    XCTAssertEqual(search.found[second.test]?.tests, [polluter])
    XCTAssertEqual(passes.map(\.index), Array(passes.indices), "each pass its own seed")
    XCTAssertEqual(passes.last?.tests.last, second.test, "the victim runs last, after its neighbours")
  }

  func testAVictimTooRareToBisectIsNotSearched() {
    var search = PolluterSearch(
      [victim("V.testRare", neighbours: tests, suite: .init(failed: 1, ran: 40))], confidence: 0.95)
    XCTAssertNil(search.start(at: now))
    XCTAssertTrue(search.found.isEmpty)
  }

  /// A check that reproduced by chance (here: the victim fails the first time it runs beside any
  /// new set holding t15, never again) leads delta debugging to t15 once the real polluter is
  /// named; t15's confirmation, its passes with the victim alone, shows no change, so the search
  /// names t3 only and says it stopped short.
  func testASetThatReproducedByChanceIsNotNamed() {
    let polluter = tests[3]
    let suspect = tests[15]
    var seen: Set<[PackageTest]> = []
    var search = PolluterSearch(
      [victim("V.testFile", neighbours: tests, suite: .init(failed: 20, ran: 20))], confidence: 0.95)
    let passes = run(&search) { pass in
      pass.neighbours.contains(polluter) || (pass.neighbours.contains(suspect) && seen.insert(pass.neighbours).inserted)
    }
    XCTAssertTrue(passes.contains { $0.neighbours == [suspect] }, "delta debugging reached the suspect")
    let found = search.found.first?.value
    XCTAssertEqual(found?.tests, [polluter])
    XCTAssertEqual(found?.isComplete, false)
  }

  func testAnInterruptEndsTheSearchWithTheVictimsDone() {
    var search = PolluterSearch(
      [victim("V.testOne", neighbours: tests, suite: .init(failed: 20, ran: 20))], confidence: 0.95)
    XCTAssertNotNil(search.start(at: now))
    XCTAssertNil(search.ran(.init(failed: 1, ran: 1), interrupted: true, at: now))
    XCTAssertTrue(search.interrupted)
    XCTAssertTrue(search.found.isEmpty)
  }

  func testNoPassStartsPastTheBudget() {
    let budget = TestBudget(.seconds(60), from: now, diagnosisFollows: true)
    var search = PolluterSearch(
      [victim("V.testOne", neighbours: tests, suite: .init(failed: 20, ran: 20))], confidence: 0.95, budget: budget)
    XCTAssertNotNil(search.start(at: now))
    XCTAssertNil(search.ran(.init(failed: 1, ran: 1), interrupted: false, at: now + .seconds(61)))
    XCTAssertFalse(search.interrupted)
    XCTAssertTrue(search.found.isEmpty, "a search cut short names nobody")
  }
}

extension DeltaDebugging {
  /// The whole search, each question answered by `reproduces` at once.
  fileprivate static func minimize(_ candidates: [Element], limit: Int, reproduces: ([Element]) -> Bool) -> Self {
    var search = DeltaDebugging(candidates, limit: limit)
    while let subset = search.question { search.answer(reproduces(subset)) }
    return search
  }
}

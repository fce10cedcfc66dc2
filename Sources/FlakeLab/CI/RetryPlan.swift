/// What runs after the suite's pass, round by round, decided from the attempts so far: it starts
/// no process (``CIRunner`` runs each round), so every decision is tested without one.
///
/// A test that failed, crashed or hung in the pass runs alone, in a fresh process, until it
/// passes or `retries` runs are spent: failed if it never passes. One that passes alone is not
/// flaky yet: a test can fail every time after the tests before it and pass every time alone
/// (one test pollutes another's state). So it runs, in turn, again after the tests that ran
/// before it (the pass's tests up to it, in one process) and alone, `retries` times each; it is
/// flaky once it passes after the others or fails alone, and fails in the suite when it never
/// does. Before that, where its failure's line lies in another test's body, that test runs alone,
/// up to `retries` times: if it fails there with the same failure at the same line every time,
/// the failure was its (``FailureOrigin``). A round's runs never run beside each other.
package enum RetryPlan {
  /// One run of a round.
  package enum Step: Equatable, Sendable {
    /// `test` alone, in a fresh process.
    case alone(PackageTest)
    /// `owner` alone, to see whether the failure recorded while `test` ran is its.
    case ownerAlone(PackageTest, checking: PackageTest)
    /// The tests `group` in one process, as the pass ran them, to see whether each of
    /// `checking` (at the end of the group, or beside it) fails there again.
    case suiteAgain(group: [PackageTest], checking: [PackageTest])
  }

  /// The steps of the next round, in order; none when the run is decided.
  package static func next(_ run: CIRun, retries: Int) -> [Step] {
    var alone: [Step] = []
    var checks: [Step] = []
    var again: [PackageTest] = []
    let tests = Dictionary(run.tests.map { ($0.test.id, $0.test) }, uniquingKeysWith: { first, _ in first })
    for test in run.tests {
      switch next(for: test, retries: retries) {
      case .alone: alone.append(.alone(test.test))
      case .owner(let owner): if let owner = tests[owner] { checks.append(.ownerAlone(owner, checking: test.test)) }
      case .suiteAgain: again.append(test.test)
      case nil: break
      }
    }
    // An owner retried alone for itself this round answers the check too; one run of it alone.
    var running = Set(alone.compactMap(\.testAlone))
    checks = checks.filter { running.insert($0.testAlone!).inserted }
    return alone + checks + suiteAgain(again, in: run)
  }

  /// What one test runs next.
  enum Next: Equatable {
    case alone
    case owner(String)
    case suiteAgain
  }

  /// The next run `test` needs, or nil when its status is decided.
  static func next(for test: CITest, retries: Int) -> Next? {
    guard let first = test.attempts.first, first.failed, retries > 0 else { return nil }
    let alone = test.attempts(.alone)
    guard alone.contains(where: { $0.outcome == .passed }) else { return alone.count < retries ? .alone : nil }
    // Failed alone too, or failed in the pass only as one of the tests in flight at a crash none
    // of them brought on alone: flaky, whatever the suite does.
    guard alone.allSatisfy({ $0.outcome == .passed }), !first.outcome.isCrashBesideOthers else { return nil }
    if let origin = first.origin, origin.shown == nil { return .owner(origin.test) }
    let again = test.attempts(.suiteAgain)
    guard again.allSatisfy(\.failed), again.count < retries else { return nil }
    return alone.count > again.count ? .suiteAgain : .alone
  }

  /// One process per framework for `checking`: the last of them in the pass's order with the
  /// tests that ran before it or beside it (``CIRun/predecessors(of:)``), which holds the others.
  static func suiteAgain(_ checking: [PackageTest], in run: CIRun) -> [Step] {
    PackageTest.Framework.allCases.compactMap { framework in
      let checked = checking.filter { $0.framework == framework }
      guard let last = run.tests.last(where: { checked.contains($0.test) }) else { return nil }
      return .suiteAgain(group: run.predecessors(of: last) + [last.test], checking: checked)
    }
  }
}

extension RetryPlan {
  /// The most `--retries` a run takes: a report that says more was not written by one.
  package static let mostRetries = 100

  /// The most rounds a run can take: its tests' runs alone until one passes, the owner's runs
  /// alone, then the runs after the tests before it and alone in turn. A round whose runs came
  /// to nothing (a process that never ran the test) cannot make the retries go on past it.
  package static func rounds(retries: Int) -> Int { 3 * retries + 1 }
}

extension RetryPlan.Step {
  /// The test this step runs alone, if it runs one alone.
  package var testAlone: PackageTest? {
    switch self {
    case .alone(let test), .ownerAlone(let test, _): test
    case .suiteAgain: nil
    }
  }

  /// The tests whose status this step is run for.
  package var tests: [PackageTest] {
    switch self {
    case .alone(let test): [test]
    case .ownerAlone(let owner, let checking): [owner, checking]
    case .suiteAgain(_, let checking): checking
    }
  }
}

extension CIRun {
  /// Adds what a round's `steps` came to: `alone`, the attempt of each step that ran a test
  /// alone, in order (nil where the test did not run), and `again`, each checked test's run
  /// after the tests before it; then decides, where it can, whose each checked failure is.
  package mutating func record(
    _ steps: [RetryPlan.Step], alone: [CITest.Attempt?], again: [PackageTest: CITest.Attempt], retries: Int
  ) {
    let positions = Dictionary(tests.indices.map { (tests[$0].test, $0) }, uniquingKeysWith: { first, _ in first })
    // A run of a test alone is its own, whatever it was run for: an owner's check is one of its
    // retries alone, and its own retry answers a check.
    for (step, attempt) in zip(steps.filter { $0.testAlone != nil }, alone) {
      guard let attempt, let test = step.testAlone, let index = positions[test] else { continue }
      tests[index].attempts.append(attempt)
    }
    for (test, attempt) in again {
      if let index = positions[test] { tests[index].attempts.append(attempt) }
    }
    for checked in tests.indices {
      guard let origin = tests[checked].attempts.first?.origin, origin.shown == nil,
        let owned = tests.firstIndex(where: { $0.test.id == origin.test })
      else { continue }
      checkOwner(owned, of: checked, retries: retries)
    }
  }

  /// The failure recorded while test `checked` ran in the pass is test `owned`'s once `checked`
  /// passed alone and `owned` alone failed with that failure at that line `retries` times, each
  /// time it ran alone: it moves there, recorded after `owned` ended. One run alone that did not
  /// fail so leaves it where it was recorded; so does a run of `checked` alone that failed.
  private mutating func checkOwner(_ owned: Int, of checked: Int, retries: Int) {
    guard let recorded = tests[checked].attempts.first else { return }
    let checkedAlone = tests[checked].attempts(.alone)
    guard !checkedAlone.isEmpty, checkedAlone.allSatisfy({ $0.outcome == .passed }) else { return }
    let alone = tests[owned].attempts(.alone)
    guard !alone.isEmpty else { return }
    if alone.contains(where: { !$0.failed || $0.outcome != recorded.outcome || $0.place != recorded.place }) {
      tests[checked].attempts[0].origin?.shown = false
      return
    }
    guard alone.count >= retries else { return }
    tests[checked].attempts[0].origin?.shown = true
    if let own = tests[owned].attempts.first, !own.failed {
      tests[owned].attempts[0] = CITest.Attempt(
        outcome: recorded.outcome, example: recorded.example, seconds: own.seconds, place: recorded.place,
        index: own.index, placement: .pass, recordedWhile: tests[checked].test.id)
    }
  }
}

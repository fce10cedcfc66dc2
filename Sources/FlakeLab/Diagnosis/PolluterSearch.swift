import Foundation

/// Names the culprit of an `interference`: the neighbour, or the few, whose presence fails the
/// victim. Most victims of test-order dependence need exactly one other test to fail (Wei et
/// al., TACAS 2021; iFixFlakies, FSE 2019), so the search is delta debugging
/// (``DeltaDebugging``) over the neighbours of the victim's framework, each subset run as a
/// suite pass under the executor that failed it, in the suite's order: one polluter costs about
/// log₂ n passes. A set found for one victim is tried first on the next, so that the victims of
/// one polluter cost a few passes each.
///
/// A check decides "reproduces" when the victim fails in one of its passes. Where the victim
/// failed only now and then in the screen, a check gets enough passes that a polluter among
/// them would show (``passesPerCheck(rate:)``), and a victim too rare to bisect is not searched:
/// a wrong name is worse than none. Each set named is confirmed apart: the victim with it alone
/// fails significantly more often than the victim alone. A check can reproduce by chance (a
/// victim that fails now and then with any neighbour), so a set only checked is never named.
///
/// The search starts no process: it asks for one pass at a time (``Pass``) and is fed what the
/// victim came to in it, so every decision is tested without a process; ``SuiteDiagnosis`` runs
/// the passes.
package struct PolluterSearch {
  /// A test that failed in suite passes and never alone, and where to look.
  package struct Victim {
    package let test: PackageTest
    /// The executor of the suite passes that failed it.
    package let executor: any IterationExecutor
    /// Its failures in those passes, and its iterations alone under the same kind of executor.
    package let suite: Failures
    package let alone: Failures
    /// The tests of its framework that ran in those passes, in the suite's order.
    package let neighbours: [PackageTest]
  }

  /// How often the victim failed in some iterations.
  package struct Failures: Equatable {
    package var failed = 0
    package var ran = 0

    package init(failed: Int = 0, ran: Int = 0) {
      self.failed = failed
      self.ran = ran
    }

    var rate: Double { Double(failed) / Double(max(1, ran)) }
  }

  /// One suite pass the search asks for: the victim with `tests` of its neighbours (in the
  /// suite's order) and no other test, under the victim's executor, as pass `index` of the seed.
  package struct Pass {
    package let victim: Victim
    package let neighbours: [PackageTest]
    package let index: Int

    /// The pass's tests, in the suite's order.
    package var tests: [PackageTest] { victim.neighbours.filter(neighbours.contains) + [victim.test] }
  }

  /// The checks a search may run before it gives up (ddmin needs O(n²) on the worst sets).
  static let checkLimit = 24
  /// The passes a search's checks may take in all: a rare victim gets fewer checks, each of
  /// more passes, and says it stopped short rather than name a wrong set.
  static let passLimit = 200
  /// Passes that confirm a set found, at least.
  static let confirmingPasses = 3
  /// Polluters of one victim found one after another, at most.
  static let mostPolluters = 10

  private let confidence: Double
  private let budget: TestBudget
  private var victims: ArraySlice<Victim>
  private var search: VictimSearch?
  /// Polluters named so far, by executor, tried first on the next victims.
  private var named: [ExecutorID: [PackageTest]] = [:]
  /// The next pass's index (its seeds).
  private var nextPass = 0
  /// What the search found, victim by victim.
  package private(set) var found: [PackageTest: Polluters] = [:]
  /// Set when an interrupt cut the search short.
  package private(set) var interrupted = false

  package init(_ victims: [Victim], confidence: Double, budget: TestBudget = .unbounded) {
    self.victims = victims[...]
    self.confidence = confidence
    self.budget = budget
  }

  /// The first pass to run at `now`; nil when there is none.
  package mutating func start(at now: ContinuousClock.Instant) -> Pass? {
    nextVictim(at: now)
  }

  /// The last pass came to `victimRun` for the victim (nil when it never ran there); nil when
  /// the search is over. `interrupted` when Ctrl-C cut it; no pass starts past the budget.
  package mutating func ran(
    _ victimRun: Failures?, interrupted: Bool, at now: ContinuousClock.Instant
  ) -> Pass? {
    guard var current = search else { return nil }
    guard !interrupted else {
      self.interrupted = true
      return end()
    }
    current.record(victimRun ?? Failures())
    search = current
    return next(at: now)
  }

  private mutating func next(at now: ContinuousClock.Instant) -> Pass? {
    guard let current = search else { return nextVictim(at: now) }
    guard let subset = current.subset else {
      if let polluters = current.polluters {
        found[current.victim.test] = polluters
        named[current.victim.executor.id, default: []] += polluters.tests.filter {
          !named[current.victim.executor.id, default: []].contains($0)
        }
      }
      search = nil
      return nextVictim(at: now)
    }
    guard budget.isInTime(at: now) else { return end() }
    search?.processes += 1
    defer { nextPass += 1 }
    return Pass(victim: current.victim, neighbours: subset, index: nextPass)
  }

  private mutating func nextVictim(at now: ContinuousClock.Instant) -> Pass? {
    while let victim = victims.popFirst() {
      guard let perCheck = Self.passesPerCheck(rate: victim.suite.rate) else { continue }
      let known = named[victim.executor.id, default: []].filter(victim.neighbours.contains)
      search = VictimSearch(victim: victim, perCheck: perCheck, known: known, confidence: confidence)
      return next(at: now)
    }
    return nil
  }

  private mutating func end() -> Pass? {
    search = nil
    victims = []
    return nil
  }

  /// Passes that make a subset with a polluter fail the victim at least once in 95 of 100
  /// searches, given the victim's rate in the screen's passes; nil below a rate where that
  /// takes more than 60 (a single check would cost more than a screen).
  package static func passesPerCheck(rate: Double) -> Int? {
    guard rate < 1 else { return 1 }
    guard rate >= 0.05 else { return nil }
    return Int((log(0.05) / log(1 - rate)).rounded(.up))
  }
}

extension PolluterSearch {
  /// One victim's search: the polluters named for earlier victims that fail it too, then,
  /// while the neighbours left still fail it, one more set found by delta debugging at a time.
  /// Every set is confirmed before it is named.
  private struct VictimSearch {
    /// What the search is checking: each step asks one question of passes.
    enum Step {
      /// A polluter of an earlier victim, confirmed with this one.
      case confirmingKnown(PackageTest, rest: [PackageTest])
      /// Whether the neighbours not named still fail it.
      case checkingRest
      case minimizing(DeltaDebugging<PackageTest>)
      /// The set delta debugging found, confirmed.
      case confirmingFound([PackageTest])
      case done
    }

    let victim: Victim
    let perCheck: Int
    let confidence: Double
    var step: Step
    /// The current check's failures so far, and its passes.
    var counts = Failures()
    var passesInCheck = 0
    var processes = 0
    var named: [PackageTest] = []
    /// The passes of the first set confirmed.
    var evidence: Failures?
    var together = false
    var rest: [PackageTest]
    var restFails = true
    /// Its neighbours together fail it, and delta debugging found no few of them that do.
    var onlyManyTogether = false

    init(victim: Victim, perCheck: Int, known: [PackageTest], confidence: Double) {
      self.victim = victim
      self.perCheck = perCheck
      self.confidence = confidence
      rest = victim.neighbours
      step = known.first.map { .confirmingKnown($0, rest: Array(known.dropFirst())) } ?? .checkingRest
    }

    private var confirming: Int { max(PolluterSearch.confirmingPasses, perCheck) }

    /// The neighbours of the next pass; nil when the search is over.
    var subset: [PackageTest]? {
      switch step {
      case .confirmingKnown(let known, _): [known]
      case .checkingRest: rest
      case .minimizing(let search): search.question
      case .confirmingFound(let found): found
      case .done: nil
      }
    }

    /// A check stops at its first failure, or after its passes; a confirmation runs them all.
    private var check: (passes: Int, stopsAtFirstFailure: Bool) {
      switch step {
      case .confirmingKnown, .confirmingFound: (confirming, false)
      case .checkingRest, .minimizing, .done: (perCheck, true)
      }
    }

    mutating func record(_ pass: Failures) {
      counts.failed += pass.failed
      counts.ran += pass.ran
      let (passes, stopsAtFirst) = check
      // A pass in which the victim did not run counts as one: a check still ends.
      passesInCheck += 1
      guard passesInCheck >= passes || (stopsAtFirst && counts.failed > 0) else { return }
      let answer = counts
      counts = Failures()
      passesInCheck = 0
      decide(answer)
    }

    private mutating func decide(_ answer: Failures) {
      switch step {
      case .confirmingKnown(let known, let others):
        if confirms(answer) { name([known], answer) }
        step = others.first.map { .confirmingKnown($0, rest: Array(others.dropFirst())) } ?? .checkingRest
      case .checkingRest:
        restFails = answer.failed > 0
        let limit = min(PolluterSearch.checkLimit, PolluterSearch.passLimit / perCheck)
        // With no neighbour left, a failure is the victim's own: nothing to seek among none.
        step =
          restFails && !rest.isEmpty && named.count < PolluterSearch.mostPolluters
          ? .minimizing(DeltaDebugging(rest, limit: limit)) : .done
        if case .minimizing(let search) = step, search.question == nil { minimized(search) }
      case .minimizing(var search):
        search.answer(answer.failed > 0)
        if search.question == nil { minimized(search) } else { step = .minimizing(search) }
      case .confirmingFound(let found):
        guard confirms(answer) else {
          step = .done
          return
        }
        name(found, answer)
        together = found.count > 1
        step = together ? .done : .checkingRest
      case .done:
        break
      }
    }

    /// What delta debugging ended with: a set of few, confirmed next; or the search is over.
    private mutating func minimized(_ search: DeltaDebugging<PackageTest>) {
      guard search.isMinimal, search.current.count <= Polluters.namedAtMost else {
        onlyManyTogether = named.isEmpty && search.isMinimal
        step = .done
        return
      }
      // A set that fails it only together is named alone: beside single polluters, it would
      // read as one more of them.
      step = search.current.count == 1 || named.isEmpty ? .confirmingFound(search.current) : .done
    }

    private mutating func name(_ tests: [PackageTest], _ answer: Failures) {
      named += tests
      rest.removeAll(where: tests.contains)
      evidence = evidence ?? answer
    }

    /// Whether the victim failed significantly more often in `passes` than alone: Fisher's exact
    /// test, as the passes are few (3 to 60).
    private func confirms(_ passes: Failures) -> Bool {
      FisherExactTest(
        baselineFailures: victim.alone.failed, baselineIterations: victim.alone.ran, failures: passes.failed,
        iterations: passes.ran
      ).roseSignificantly(confidence: confidence)
    }

    /// The answer, once the search is over: the sets confirmed, or that only many neighbours
    /// together fail it (the screen's passes are the evidence); nil when it found neither.
    var polluters: Polluters? {
      guard case .done = step else { return nil }
      let placement: Polluters.Placement =
        victim.test.framework == .swiftTesting && (victim.executor.harnessMechanism ?? .untouched).runsTestsInParallel
        ? .beside : .before
      if let evidence {
        return Polluters(
          tests: named, together: together, isComplete: !restFails, placement: placement, failed: evidence.failed,
          passes: evidence.ran, candidates: victim.neighbours.count, processes: processes)
      }
      guard onlyManyTogether else { return nil }
      return Polluters(
        tests: [], isComplete: true, placement: placement, failed: victim.suite.failed, passes: victim.suite.ran,
        candidates: victim.neighbours.count, processes: processes)
    }
  }
}

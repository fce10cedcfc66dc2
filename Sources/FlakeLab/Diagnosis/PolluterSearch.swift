import Foundation

/// Names the culprit of an `interference`: the neighbour, or the few, whose presence fails the
/// victim. Most victims of test-order dependence need exactly one other test to fail (Wei et
/// al., TACAS 2021; iFixFlakies, FSE 2019), so the search is delta debugging (Zeller and
/// Hildebrandt's ddmin) over the neighbours of the victim's framework, each subset run as a
/// suite pass under the executor that failed it, in the suite's order: one polluter costs
/// about log₂ n passes. A set found for one victim is tried first on the next, so that the
/// victims of one polluter cost a few passes each.
///
/// A pass decides "reproduces" when the victim fails in it. Where the victim failed only now
/// and then in the screen, a subset gets enough passes that a polluter among them would show
/// (``passesPerCheck(rate:)``), and a victim too rare to bisect is not searched: a wrong name
/// is worse than none. What is named is confirmed apart: the victim with the polluters alone
/// fails significantly more often than the victim alone.
package struct PolluterSearch {
  /// A test that failed in suite passes and never alone, and where to look.
  package struct Victim {
    package let test: PackageTest
    /// The executor of the suite passes that failed it.
    package let executor: any IterationExecutor
    /// Its failures in those passes, and its iterations alone under the same kind of executor.
    package let suite: (failed: Int, ran: Int)
    package let alone: (failed: Int, ran: Int)
    /// The tests of its framework that ran in those passes, in the suite's order.
    package let neighbours: [PackageTest]
  }

  let measurement: RateMeasurement
  let package: TestPackage
  let preload: String
  let deadline: ContinuousClock.Instant?
  let onProgress: (Supervisor.Progress) -> Void
  /// The checks a search may run before it gives up (ddmin needs O(n²) on the worst sets).
  static let checkLimit = 24
  /// The passes a search's checks may take in all: a rare victim gets fewer checks, each of
  /// more passes, and says it stopped short rather than name a wrong set.
  static let passLimit = 200
  /// Passes that confirm a set found, at least.
  static let confirmingPasses = 3
  /// Polluters of one victim found one after another, at most.
  static let mostPolluters = 10

  /// The polluters of each victim the search could tell; whether Ctrl-C cut it short.
  package func run(_ victims: [Victim]) throws -> (polluters: [PackageTest: Polluters], interrupted: Bool) {
    var found: [PackageTest: Polluters] = [:]
    var session = Session()
    do {
      for victim in victims {
        found[victim.test] = try polluters(of: victim, in: &session)
      }
    } catch let cut as Cut {
      return (found, cut.wasInterrupted)
    }
    return (found, false)
  }

  /// The search's state across victims.
  private struct Session {
    /// Polluters named so far, by executor, tried first on the next victims.
    var named: [ExecutorID: [PackageTest]] = [:]
    /// The next pass's index (its seeds).
    var pass = 0
    /// The processes the current victim's search has run.
    var processes = 0

    mutating func name(_ polluters: [PackageTest], under executor: ExecutorID) {
      named[executor, default: []] += polluters.filter { !named[executor, default: []].contains($0) }
    }
  }

  /// The budget ran out, or Ctrl-C (`wasInterrupted`), before a pass could start or finish.
  private struct Cut: Error {
    let wasInterrupted: Bool
  }

  /// One victim's polluters: those named for earlier victims that fail it too, then, while the
  /// neighbours left still fail it, one more set found by ddmin at a time.
  private func polluters(of victim: Victim, in session: inout Session) throws -> Polluters? {
    guard let perCheck = Self.passesPerCheck(rate: Double(victim.suite.failed) / Double(max(1, victim.suite.ran)))
    else { return nil }
    session.processes = 0
    func reproduces(_ subset: [PackageTest]) throws -> Bool {
      try failures(of: victim, with: subset, passes: perCheck, stopAtFirst: true, session: &session).failed > 0
    }
    func confirmed(_ subset: [PackageTest]) throws -> (failed: Int, ran: Int)? {
      try self.confirmed(subset, of: victim, passes: max(Self.confirmingPasses, perCheck), session: &session)
    }

    // Each polluter is confirmed with the victim (the first over several passes), and the
    // neighbours left still fail it if another polluter is among them.
    var polluters: [PackageTest] = []
    var evidence: (failed: Int, ran: Int)?
    var together = false
    for known in session.named[victim.executor.id, default: []] where victim.neighbours.contains(known) {
      if evidence == nil {
        guard let counts = try confirmed([known]) else { continue }
        evidence = counts
        polluters.append(known)
      } else if try reproduces([known]) {
        polluters.append(known)
      }
    }
    var rest = victim.neighbours.filter { !polluters.contains($0) }
    var restFails = try reproduces(rest)
    var onlyManyTogether = false
    while restFails, polluters.count < Self.mostPolluters {
      let minimum = try Self.minimize(rest, limit: min(Self.checkLimit, Self.passLimit / perCheck), reproduces: reproduces)
      guard minimum.isMinimal, minimum.elements.count <= Polluters.namedAtMost else {
        onlyManyTogether = polluters.isEmpty && minimum.isMinimal
        break
      }
      // A set that fails it only together is named alone: beside single polluters, it would
      // read as one more of them.
      guard minimum.elements.count == 1 || polluters.isEmpty else { break }
      if evidence == nil {
        guard let counts = try confirmed(minimum.elements) else { break }
        evidence = counts
      }
      polluters += minimum.elements
      rest.removeAll(where: minimum.elements.contains)
      together = minimum.elements.count > 1
      if together { break }
      restFails = try reproduces(rest)
    }
    if let evidence {
      session.name(polluters, under: victim.executor.id)
      return Polluters(
        tests: polluters, together: together, isComplete: !restFails, placement: placement(of: victim),
        failed: evidence.failed, passes: evidence.ran, candidates: victim.neighbours.count,
        processes: session.processes)
    }
    // Its neighbours fail it, and no few of them do: the evidence is the screen's passes.
    guard onlyManyTogether else { return nil }
    return Polluters(
      tests: [], isComplete: true, placement: placement(of: victim), failed: victim.suite.failed,
      passes: victim.suite.ran, candidates: victim.neighbours.count, processes: session.processes)
  }

  /// The victim's failures in `passes` passes with `subset` and no other test, if significantly
  /// more than alone.
  private func confirmed(
    _ subset: [PackageTest], of victim: Victim, passes: Int, session: inout Session
  ) throws -> (failed: Int, ran: Int)? {
    let counts = try failures(of: victim, with: subset, passes: passes, stopAtFirst: false, session: &session)
    let test = TwoProportionTest(
      baselineFailures: victim.alone.failed, baselineIterations: victim.alone.ran, failures: counts.failed,
      iterations: counts.ran)
    return test.roseSignificantly(confidence: measurement.confidence) ? counts : nil
  }

  /// The victim's failures in `passes` suite passes with `subset` of its neighbours (in the
  /// suite's order) and no other test, stopping at the first failure if asked.
  private func failures(
    of victim: Victim, with subset: [PackageTest], passes: Int, stopAtFirst: Bool, session: inout Session
  ) throws -> (failed: Int, ran: Int) {
    var counts = (failed: 0, ran: 0)
    let arm = TestLaunch.passes(
      of: victim.neighbours.filter(subset.contains) + [victim.test], in: package, executor: victim.executor,
      seed: measurement.seed, preload: preload)
    for _ in 0..<passes {
      if let deadline, ContinuousClock.now >= deadline { throw Cut(wasInterrupted: false) }
      let supervisor = PassSupervisor(timeout: measurement.timeout, onProgress: onProgress)
      let results = try supervisor.run(
        [arm], passes: session.pass..<(session.pass + 1), replicates: 1, seed: measurement.seed,
        packagePath: package.path)
      session.pass += 1
      session.processes += 1
      if supervisor.wasInterrupted { throw Cut(wasInterrupted: true) }
      let tally = results.first { $0.test?.test == victim.test }?.tally ?? Tally()
      counts.ran += tally.ran
      counts.failed += tally.notPassed
      if stopAtFirst, counts.failed > 0 { break }
    }
    return counts
  }

  /// Beside it when its framework runs tests side by side under the executor, before it
  /// otherwise.
  private func placement(of victim: Victim) -> Polluters.Placement {
    victim.test.framework == .swiftTesting && (victim.executor.harnessMechanism ?? .untouched).runsTestsInParallel
      ? .beside : .before
  }

  /// Passes that make a subset with a polluter fail the victim at least once in 95 of 100
  /// searches, given the victim's rate in the screen's passes; nil below a rate where that
  /// takes more than 60 (a single check would cost more than a screen).
  package static func passesPerCheck(rate: Double) -> Int? {
    guard rate < 1 else { return 1 }
    guard rate >= 0.05 else { return nil }
    return Int((log(0.05) / log(1 - rate)).rounded(.up))
  }

  /// A smallest subset of `candidates` that `reproduces`, `candidates` reproducing (ddmin):
  /// it tries each of n parts, then each part's complement, and splits finer when none
  /// reproduces. The answer is 1-minimal (`isMinimal`: no element can be left out) unless
  /// `limit` checks ran out first.
  package static func minimize<Element>(
    _ candidates: [Element], limit: Int, reproduces: ([Element]) throws -> Bool
  ) rethrows -> (elements: [Element], checks: Int, isMinimal: Bool) {
    var current = candidates
    var granularity = 2
    var checks = 0
    while current.count >= 2 {
      let size = (current.count + granularity - 1) / granularity
      let parts = stride(from: 0, to: current.count, by: size).map { Array(current[$0..<min($0 + size, current.count)]) }
      let complements = parts.count > 2
        ? parts.indices.map { skipped in parts.indices.filter { $0 != skipped }.flatMap { parts[$0] } } : []
      var reduced: (elements: [Element], granularity: Int)?
      for (subset, next) in parts.map({ ($0, 2) }) + complements.map({ ($0, max(granularity - 1, 2)) }) {
        guard checks < limit else { return (current, checks, false) }
        checks += 1
        if try reproduces(subset) {
          reduced = (subset, next)
          break
        }
      }
      if let reduced {
        (current, granularity) = reduced
      } else if granularity >= current.count {
        break
      } else {
        granularity = min(current.count, granularity * 2)
      }
    }
    return (current, checks, true)
  }
}

/// The diagnosis's second seed: a cause that a contrast of rates showed (a race, time, a first
/// run, the order of jobs) is a measurement of a moment, and a second run would not always
/// repeat it. So the arms of its contrast run again with another seed, apart, and the cause
/// stands only if they show it again; else the test is `undetermined`. Causes shown otherwise
/// need no second seed: every iteration failing on one queue (blocks-thread,
/// serial-deterministic), the seeds replayed (randomness), the polluters confirmed one by one
/// (interference).
///
/// The first runs chose among up to ``Diagnostician/contrasts`` causes, each at the report's
/// error shared among them; the second seed asks one question, decided beforehand, at the
/// report's error: a replication, as a second lab would run it. It runs in ``stages`` while
/// undecided. Looking at the answer after each stage spends a little of the error each time:
/// three looks at most, each at the report's level (a Pocock-like bound would ask a little more).
package enum SecondSeed {
  /// The arms a cause's contrast needs: each an order of jobs and a layout.
  package static func arms(for cause: TestDiagnosis) -> [(order: JobOrder, layout: TestReference.ProcessLayout)]? {
    switch cause {
    case .needsParallelism: [(.parallel, .repetitions), (.fifo, .repetitions)]
    case .timing: [(.parallel, .stressed), (.parallel, .repetitions)]
    case .firstRun: [(.parallel, .fresh), (.fifo, .fresh), (.parallel, .repetitions), (.fifo, .repetitions)]
    case .fifoDependent: [(.seeded, .repetitions), (.fifo, .repetitions)]
    default: nil
    }
  }

  /// One stage of the second seed: iterations from `start` to `end` times an arm's own count.
  package struct Stage: Sendable {
    let start: Int
    let end: Int
    func indices(of iterations: Int) -> Range<Int> { (start * iterations)..<(end * iterations) }
  }

  /// An arm's iterations, then as many again, then twice as many: four times in all.
  package static let stages = [Stage(start: 0, end: 1), Stage(start: 1, end: 2), Stage(start: 2, end: 4)]

  /// Whether the second seed's `runs` have not shown `cause` again yet and still can: the arm
  /// that should fail more fails, and the one that should never fail has not; more iterations
  /// may make the contrast significant. A baseline that failed, or a failing arm that never
  /// failed, has answered.
  static func isUndecided(_ cause: TestDiagnosis, in runs: [RunResult], confidence: Double) -> Bool {
    guard showsAgain(cause, in: runs, confidence: confidence) == false else { return false }
    func counts(_ include: (RunResult) -> Bool) -> Diagnostician.Counts {
      Diagnostician.Counts(runs.filter { $0.stop != .everyIterationFailed && include($0) })
    }
    let layout = { (run: RunResult) in run.test?.layout }
    let order = { (run: RunResult) in run.executor.jobOrder }
    switch cause {
    case .needsParallelism: return counts(\.ranInParallel).fails && counts { !$0.ranInParallel }.neverFails
    case .timing: return counts { layout($0) == .stressed }.fails
    case .firstRun: return counts { layout($0) == .fresh }.fails
    case .fifoDependent: return counts { order($0) == .seeded }.fails && counts { order($0) == .fifo }.neverFails
    default: return false
    }
  }

  /// Whether `cause` stands only once a second seed shows it again.
  static func isAsked(for cause: TestDiagnosis) -> Bool { arms(for: cause) != nil }

  /// The second seed, apart from the first's iteration seeds.
  package static func seed(after first: UInt64) -> UInt64 {
    SplitMix64.mix(first ^ 0x5EC0_4D5E_ED00_0002)
  }

  /// Whether the second seed's `runs` show `cause` again; nil when the cause needs no second
  /// seed.
  static func showsAgain(_ cause: TestDiagnosis, in runs: [RunResult], confidence: Double) -> Bool? {
    guard arms(for: cause) != nil else { return nil }
    func counts(_ include: (RunResult) -> Bool) -> Diagnostician.Counts {
      Diagnostician.Counts(runs.filter { $0.stop != .everyIterationFailed && include($0) })
    }
    let layout = { (run: RunResult) in run.test?.layout }
    let order = { (run: RunResult) in run.executor.jobOrder }
    switch cause {
    case .needsParallelism:
      let oneQueue = counts { !$0.ranInParallel }
      return oneQueue.neverFails && counts(\.ranInParallel).failMoreThan(oneQueue, confidence: confidence, contrasts: 1)
    case .timing:
      return counts { layout($0) == .stressed }
        .failMoreThan(counts { layout($0) == .repetitions }, confidence: confidence, contrasts: 1)
    case .firstRun:
      return [true, false].contains { underGlobal in
        counts { $0.ranInParallel == underGlobal && layout($0) == .fresh }.failMoreThan(
          counts { $0.ranInParallel == underGlobal && layout($0) == .repetitions }, confidence: confidence, contrasts: 1)
      }
    case .fifoDependent:
      let fifo = counts { order($0) == .fifo }
      return fifo.neverFails && counts { order($0) == .seeded }.failMoreThan(fifo, confidence: confidence, contrasts: 1)
    default:
      return nil
    }
  }
}

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
/// report's error: a replication, as a second lab would run it.
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

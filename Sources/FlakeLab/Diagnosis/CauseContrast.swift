/// The contrast of rates that names a cause, the factor changed and all else held: its arms,
/// which side should fail more, and whether runs show it, leave it undecided, or how many
/// iterations would decide it. A race fails under global more than on one queue, where it never
/// fails; time fails more with busy threads competing; a first run fails more than warm
/// repetitions, like with like; FIFO reliance fails under seeded orders and never in FIFO order.
///
/// The drill-down runs a contrast's arms further while it is undecided (``DrillDownPlan``), and
/// the second seed runs them again (``SecondSeed``); the first seed's verdict is the
/// ``Diagnostician``'s, over every run.
package enum CauseContrast {
  /// The causes a contrast of rates names.
  static let causes: [TestDiagnosis] = [.needsParallelism, .timing, .firstRun, .fifoDependent]

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

  /// The side that should fail more and its baseline, each pair alike but for the cause's
  /// factor, and whether the baseline must never fail; nil for a cause no rate contrast names.
  /// A first run has two pairs: fresh against warm under global, and on one queue.
  static func sides(
    of cause: TestDiagnosis, in runs: [RunResult]
  ) -> (pairs: [(failing: Diagnostician.Counts, baseline: Diagnostician.Counts)], baselineNeverFails: Bool)? {
    func counts(_ include: (RunResult) -> Bool) -> Diagnostician.Counts {
      Diagnostician.Counts(runs.filter { $0.stop != .everyIterationFailed && include($0) })
    }
    let layout = { (run: RunResult) in run.test?.layout }
    let order = { (run: RunResult) in run.executor.jobOrder }
    let alone = { (run: RunResult) in [.repetitions, .fresh].contains(layout(run)) }
    switch cause {
    case .needsParallelism:
      // Under global with no neighbour beside it (alone, or the suite one test at a time)
      // against one queue, where no two jobs overlap: the suite's neighbours under global are a
      // second factor; busy threads and replays change others.
      let plain = { (run: RunResult) in ![.stressed, .replay].contains(layout(run)) }
      return (
        [(counts { $0.ranInParallel && plain($0) && layout($0) != .suite }, counts { !$0.ranInParallel && plain($0) })],
        true
      )
    case .timing:
      return ([(counts { layout($0) == .stressed }, counts { $0.ranInParallel && layout($0) == .repetitions })], false)
    case .firstRun:
      let pairs = [true, false].map { underGlobal in
        (
          counts { $0.ranInParallel == underGlobal && layout($0) == .fresh },
          counts { $0.ranInParallel == underGlobal && layout($0) == .repetitions }
        )
      }
      return (pairs, false)
    case .fifoDependent:
      return ([(counts { order($0) == .seeded && alone($0) }, counts { order($0) == .fifo && alone($0) })], true)
    default:
      return nil
    }
  }

  /// Whether `runs` show `cause`: a pair's failing side fails significantly more than its
  /// baseline, at `confidence` shared among `contrasts`, the baseline never failing where the
  /// cause asks it. Nil for a cause no rate contrast names.
  static func shows(_ cause: TestDiagnosis, in runs: [RunResult], confidence: Double, contrasts: Int) -> Bool? {
    guard let (pairs, neverFails) = sides(of: cause, in: runs) else { return nil }
    return pairs.contains { failing, baseline in
      (!neverFails || baseline.neverFails)
        && failing.failMoreThan(baseline, confidence: confidence, contrasts: contrasts)
    }
  }

  /// Whether `runs` have not shown `cause` and more iterations still may: a failing side leans
  /// above its baseline (``leaning``), which has not failed where the cause asks it never to. A
  /// baseline that failed, a failing side that never failed, or a difference chance makes
  /// easily (3 of 40 against 2 of 40) has answered.
  static func isUndecided(_ cause: TestDiagnosis, in runs: [RunResult], confidence: Double, contrasts: Int) -> Bool {
    guard let (pairs, neverFails) = sides(of: cause, in: runs),
      shows(cause, in: runs, confidence: confidence, contrasts: contrasts) == false
    else { return false }
    return pairs.contains { failing, baseline in
      failing.fails && (!neverFails || baseline.neverFails)
        && failing.failMoreThan(baseline, confidence: 1 - leaning, contrasts: 1)
    }
  }

  /// The one-sided p-value below which a difference leans toward its cause: 1 of 40 against
  /// none (p = 0.16) leans, and 3 of 80 against none of 100 (p = 0.03), short of significance
  /// shared among nine contrasts; 3 of 40 against 2 of 40 (p = 0.32) does not.
  static let leaning = 0.25

  /// Iterations each arm needs for `cause`'s contrast to show, with probability `power`, the
  /// difference `runs` measured, at `confidence` shared among `contrasts`; nil when they
  /// measured none. A rate that was the reason to ask is likelier high than low, so the second
  /// seed runs in looks beyond this size while it is undecided.
  static func iterationsToDecide(
    _ cause: TestDiagnosis, from runs: [RunResult], confidence: Double, contrasts: Int, power: Double
  ) -> Int? {
    guard let (pairs, _) = sides(of: cause, in: runs) else { return nil }
    return pairs.compactMap { failing, baseline in
      IterationPlanner.iterationsToShowRise(
        from: baseline.rate, to: failing.rate, confidence: 1 - (1 - confidence) / Double(contrasts), power: power,
        dispersion: max(failing.dispersion, baseline.dispersion))
    }.min()
  }
}

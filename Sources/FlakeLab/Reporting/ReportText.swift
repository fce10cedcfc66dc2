/// The human-readable report of `flakelab run`: one row per run with its failure rate and that
/// rate's interval, the run's outcome histogram beneath it, and the machine the rates were
/// measured on. The failure rate counts every iteration that did not pass: failed, crashed, timed
/// out or deadlocked.
package enum ReportText {
  package static func render(_ report: Report) -> String {
    ([MachineLine.render(report), ""] + tableLines(report)).joined(separator: "\n") + "\n"
  }

  /// The table of runs, each row followed by its observations.
  static func tableLines(_ report: Report) -> [String] {
    // The deadlocked column only appears where a run can deadlock: a scenario under the
    // scheduler (in a package's test process a deadlock shows as a timeout).
    let showsDeadlocks = report.runs.contains { $0.schedule != nil && $0.test == nil }
    // Skipped iterations only come from a package's tests.
    let showsSkips = report.runs.contains { $0.tally.skipped > 0 }
    let extraColumns = (showsDeadlocks ? 1 : 0) + (showsSkips ? 1 : 0)
    var table = TextTable([.left, .left] + Array(repeating: .right, count: 8 + extraColumns))
    table.add(
      ["run", "executor", "iterations", "passed", "failed", "crashed", "timed out"]
        + (showsDeadlocks ? ["deadlocked"] : []) + (showsSkips ? ["skipped"] : []) + [
          "failure rate [\(Formatting.level(report.confidence)) interval]", "time", "it/s",
        ])
    var observationLines: [Int: [String]] = [:]
    for (index, result) in report.runs.enumerated() {
      let tally = result.tally
      let estimate = result.estimate
      table.add(
        [
          result.selector, result.executor.name, Formatting.count(tally.iterations),
          Formatting.count(tally.passed), Formatting.count(tally.failed),
          Formatting.count(tally.crashed), Formatting.count(tally.timedOut),
        ] + (showsDeadlocks ? [Formatting.count(tally.deadlocked)] : [])
          + (showsSkips ? [Formatting.count(tally.skipped)] : []) + [
            RateText.withInterval(estimate),
            Formatting.seconds(result.seconds), Formatting.rate(result.iterationsPerSecond),
          ])
      observationLines[index + 1] =
        variationLines(estimate) + histogramLines(tally) + stopLines(result) + hintLines(result, in: report)
        + replayLines(result, program: report.program)
    }
    var lines: [String] = []
    for (index, line) in table.lines().enumerated() {
      lines.append(line)
      lines += observationLines[index, default: []]
    }
    return lines
  }

  /// How far apart the replicates' rates were, when the interval had to allow for it.
  static func variationLines(_ estimate: FailureRateEstimate) -> [String] {
    RateText.variation(estimate).map { ["    \($0)"] } ?? []
  }

  /// How many outcomes a text histogram lists; the JSON report has them all.
  static let outcomesShown = 10

  /// The outcome histogram, jcstress style, shown once a run has more than one outcome:
  /// `    9,860  98.60%  isLoading was false right after the tap`; failures that differ only in
  /// numbers are one row (``OutcomeGroups``).
  package static func histogramLines(_ tally: Tally) -> [String] {
    let histogram = OutcomeGroups.rows(tally.histogram)
    guard histogram.count > 1 || tally.passed == 0 else { return [] }
    var table = TextTable([.right, .right, .left])
    let shown = histogram.prefix(outcomesShown)
    for row in shown {
      table.add([
        Formatting.count(row.count), Formatting.percent(Double(row.count) / Double(max(1, tally.iterations))), row.text,
      ])
    }
    let rest = histogram.dropFirst(outcomesShown)
    if !rest.isEmpty {
      let count = rest.reduce(0) { $0 + $1.count }
      table.add([
        Formatting.count(count), Formatting.percent(Double(count) / Double(max(1, tally.iterations))),
        "\(rest.count) more distinct outcomes (all of them in --format json)",
      ])
    }
    return table.lines().map { "    " + $0 }
  }
}

extension ReportText {
  /// How many failing iterations a text report offers to replay.
  static let replaysShown = 3

  /// Under a run of the scheduler: its schedule hash, and how to replay its first failures.
  static func replayLines(_ result: RunResult, program: String) -> [String] {
    guard let schedule = result.schedule else { return [] }
    // A package's test process does not report its schedules' hash.
    var lines = result.test == nil ? ["    schedules: fingerprint \(ScheduleText.hex(schedule.fingerprint))"] : []
    guard schedule.isControlled else {
      if !schedule.failingIterations.isEmpty {
        lines.append(
          "    no replay: threads outside the scheduler (I/O, Dispatch, real-time sleeps) woke this test's tasks, "
            + "so a seed does not reproduce its order")
      }
      return lines
    }
    for failing in schedule.failingIterations.prefix(replaysShown) {
      lines.append("    replay: \(ScheduleText.replayCommand(result, failing, program: program))")
    }
    return lines
  }
}

extension ReportText {
  /// Why a run has fewer iterations than asked.
  static func stopLines(_ result: RunResult) -> [String] {
    guard result.notRun > 0, let stop = result.stop else { return [] }
    return ["    stopped: \(reason(stop)); \(Formatting.count(result.notRun)) iterations not run"]
  }

  /// Why a run stopped, in words.
  static func reason(_ stop: RunStop) -> String {
    switch stop {
    case .neverStarted:
      "\(RunSettling.startFailureLimit) processes in a row ended before the test started"
    case .everyIterationTimedOut:
      "its first \(RunSettling.limit) iterations all timed out, so every further one would cost the whole timeout to say so again"
    case .everyIterationFailed:
      "its first \(RunSettling.limit) iterations all failed, which settles this arm of the diagnosis"
    case .hangsAlone:
      "it timed out in every pass and in its first \(RunSettling.limit) processes alone, "
        + "so each further arm would only wait again"
    case .budgetSpent:
      "the --budget was spent before the rest could start"
    case .interrupted:
      "interrupted (Ctrl-C or SIGTERM) before the rest ran"
    case .everyIterationFailedSlowly:
      "its first \(RunSettling.limit) passes each failed after waiting \(Formatting.duration(PassSupervisor.slowFailure)) or more, or timed out, so every further pass would wait again to say so"
    case .everyIterationChangedExecutor:
      "the executor was off when each of its first \(RunSettling.limit) passes ended (the test, or one before it, turned it off), so no later pass could measure it there"
    case .everyIterationDiedBeforeStarting:
      "its first \(RunSettling.limit) passes all died before any test started because of it, which settles it"
    case .eventsLost:
      "the lab lost events of \(RunSettling.limit) processes in a row that ran it (the lab's failure, not the test's)"
    }
  }

  /// What a package's test run may need explained: a test its framework skipped, or a timeout
  /// under an executor that runs every job on one queue, when the evidence says the test
  /// blocks its thread: the same test finished every iteration under global in this report (a
  /// test that is only slow times out under every executor, or under none).
  static func hintLines(_ result: RunResult, in report: Report) -> [String] {
    guard let test = result.test else { return [] }
    var lines: [String] = []
    let finishesUnderGlobal = report.runs.contains {
      $0.test?.test == test.test && $0.ranInParallel && $0.tally.passed > 0 && $0.tally.timedOut == 0
    }
    if result.tally.timedOut > 0, !result.ranInParallel, finishesUnderGlobal {
      lines.append(
        "    hint: under \(result.executor) every job runs one at a time on one queue, so a test that blocks "
          + "its thread waiting for async work (a semaphore, a blocking wait) can never finish")
    }
    if result.rerunForLostEvents > 0 {
      lines.append(
        "    hint: the lab lost events of \(Formatting.count(result.rerunForLostEvents)) processes that ran this test "
          + "and ran those passes again: what such a process said is no outcome")
    }
    if result.ignoredEvents > 0 {
      lines.append(
        "    hint: \(Formatting.count(result.ignoredEvents)) event lines fit no iteration and were ignored "
          + "(an end with no start, or past the iterations asked): something other than the test framework wrote them")
    }
    if result.tally.skipped > 0 {
      lines.append(
        "    hint: the framework skipped this test (disabled, a condition trait, or XCTSkip); skipped iterations are "
          + "outside the rate, and --skip leaves the test out")
    }
    return lines
  }
}

/// The first line of every text report, and the reminder that goes with it.
enum MachineLine {
  static func render(_ report: Report) -> String {
    lines(report).joined(separator: "\n")
  }

  /// The machine, then a line for each of the run's settings that shape its figures.
  static func lines(_ report: Report) -> [String] {
    let context = ReportContext(report)
    var lines = [
      context.machine.line,
      "Rates under the global executor depend on this machine's cores and load.",
    ]
    if let seed = context.seed {
      lines.append("Seed \(seed): the same seed gives the same schedules under seeded.")
    }
    if let timeout = context.timeout {
      lines.append("An iteration still running after \(timeout) was timed out (--timeout).")
    }
    if let budget = context.budgetSpent {
      let halves =
        context.layout == .suite
        ? " (the screen by its first half once a test has failed, past it while none has; the diagnosis by the rest)"
        : ""
      lines.append("The run was bounded by --budget \(budget)\(halves); the runs it cut short say so.")
    }
    if let layout = context.layout {
      let text: String? =
        switch layout {
        case .suite:
          "Tests ran in suite passes, as swift test runs them: each pass one process running every test "
            + "(Swift Testing's in parallel under global, one at a time on one queue); those that failed then ran alone."
        case .fresh: "Tests ran one process per iteration: first-run rates."
        case .repetitions:
          "Tests ran as repetitions in one process per worker; first-run rates (--layout fresh) can differ."
        case .oneAtATime, .alone, .stressed, .replay: nil
        }
      if let text { lines.append(text) }
    }
    if let shard = context.shard {
      lines.append("Shard \(shard.index)/\(shard.count): this report holds that share of each run.")
    }
    if context.interrupted {
      lines.append("Interrupted: the counts are of the iterations that finished.")
    }
    return lines
  }
}

/// An outcome as a phrase for text reports.
package enum OutcomeText {
  package static func describe(_ outcome: Outcome) -> String {
    switch outcome {
    case .passed: "passed"
    case .failed(let observation): observation
    case .crashed(let crash): "crashed: \(observation(of: crash))"
    case .timedOut: "timed out"
    case .deadlocked(let observation): observation
    case .skipped(let reason): "skipped: \(reason)"
    case .executorChanged: "not under the executor: the test turned it off (cleared the global-enqueue hook)"
    }
  }
}

extension OutcomeText {
  /// A crash in words: how the process ended, and who else was in flight, as reports and the
  /// JSON's `observation` give it.
  package static func observation(of crash: Crash) -> String {
    let how = (crash.beforeTheTestStarted ? "before the test started, " : "") + crash.how
    guard !crash.beside.isEmpty else { return how }
    let others = crash.beside.map(\.id).joined(separator: ", ")
    return crash.crashedAlone
      ? how + " (in the pass, beside \(others); alone too)"
      : how + " (while \(others) \(crash.beside.count == 1 ? "was" : "were") in flight beside it; none crashed alone)"
  }
}

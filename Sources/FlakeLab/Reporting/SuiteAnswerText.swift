/// The text report of `flakelab test` in the suite layout: the answer first. One block per test
/// that is not stable (its verdict, diagnosis, the counts of every arm that support it, what to
/// do, how to replay), then one line for the stable tests and one for the skipped; the table of
/// every run follows with `--verbose`.
package enum SuiteAnswerText {
  package static func render(_ report: Report, verbose: Bool) -> String {
    guard !report.tests.isEmpty else { return ReportText.render(report) }
    let answer = SuiteAnswer(report)
    var lines = MachineLine.lines(report) + [""] + summary(answer)
    lines += answer.crash.map { crashBlock($0, arms: answer.crashArms) } ?? []
    // The victims of one polluter share a cause and a remedy: one block says it for them all.
    for cause in answer.causes {
      lines += block(cause.finding, program: report.program)
      if !cause.sameCause.isEmpty {
        let names = cause.sameCause.map(\.test.id)
        lines.append(
          "    and \(count(names.count, "more test")) for the same cause, each with its runs in JSON tests[]: "
            + names.prefix(5).joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : ""))
      }
    }
    for finding in report.tests where finding.verdict == .stable && finding.races?.races.isEmpty == false {
      lines += racedBlock(finding)
    }
    lines += answer.summary.sentences { $0 }
    if let sanitizer = report.sanitizer { lines.append(RaceText.cost(sanitizer)) }
    var text = Formatting.lines(lines)
    if verbose {
      let all = Report(
        machine: report.machine, runs: report.tests.flatMap(\.runs), confidence: report.confidence,
        program: report.program)
      text +=
        "\nEvery run, screen (suite) and diagnosis (repetitions, fresh):\n"
        + ReportText.tableLines(all).joined(separator: "\n") + "\n"
    }
    return text
  }

  /// The first screen, where more than one test is not stable: how many, by verdict and by
  /// cause, then each cause with what to do in a phrase and one line per test (its ID and the
  /// line to open), the most harmful cause first; the blocks follow.
  static func summary(_ answer: SuiteAnswer) -> [String] {
    guard answer.unstable.count + (answer.crash == nil ? 0 : 1) > 1 else { return [] }
    let verdicts = [TestVerdict.failing, .flaky].compactMap { verdict -> String? in
      let count = answer.unstable.filter { $0.verdict == verdict }.count
      return count == 0 ? nil : "\(Formatting.count(count)) \(verdict.rawValue)"
    }
    let groups = answer.byCause
    let headline: String = answer.headline.prefix(1).uppercased() + answer.headline.dropFirst()
    let causes: [String] =
      (answer.crash == nil ? [] : ["\(TestDiagnosis.crashBesideOthers.rawValue) (the suite's, no test's)"])
      + groups.map { "\($0.diagnosis.rawValue) \(Formatting.count($0.findings.count))" }
    var lines = [
      "\(headline): \(verdicts.joined(separator: ", ")); by cause, the most harmful first: "
        + "\(causes.joined(separator: ", "))."
    ]
    if let crash = answer.crash {
      let cause = TestDiagnosis.crashBesideOthers
      lines.append("  \(cause.rawValue): \(crash.headline); \(cause.remedy)")
    }
    for (diagnosis, findings) in groups {
      lines.append("  \(diagnosis.rawValue) (\(Formatting.count(findings.count))): \(diagnosis.remedy)")
      for finding in findings {
        let open = finding.lead.map { "  open " + $0.location.place(relativeTo: finding.packagePath) }
        lines.append("    \(Formatting.printable(finding.test.id))" + (open ?? ""))
      }
    }
    return lines + [""]
  }

  /// `FLAKY  Module.Suite/test()  needs-parallelism: …`, then the evidence, the advice, replays.
  static func block(_ finding: TestFinding, program: String) -> [String] {
    var lines = [
      "\(finding.verdict.rawValue.uppercased())  \(finding.test.id)"
        + (finding.diagnosis.map { "  \($0.rawValue): \(finding.summary ?? $0.summary)" } ?? "")
    ]
    if let lead = finding.lead { lines.append("    open: " + lead.text(relativeTo: finding.packagePath)) }
    // The arms a hang left unrun say so once, not a line of none each.
    let unrun = { (run: RunResult) in run.stop == .hangsAlone && run.tally.iterations == 0 }
    lines += finding.runs.filter { !unrun($0) }.map { "    " + armLine($0) }
    let hung = finding.runs.filter(unrun).map { "\($0.test?.layout.rawValue ?? "run"), \($0.executor)" }
    if !hung.isEmpty {
      lines.append("    not run: " + hung.joined(separator: "; ") + " (" + ReportText.reason(.hangsAlone) + ")")
    }
    lines += evidence(finding).map { "    " + $0 }
    if let seen = mostFrequentFailure(finding) {
      lines.append("    seen: \(seen)")
    }
    if let advice = finding.advice {
      lines.append("    do: \(advice)")
    }
    if let replay = finding.replay(program: program) {
      lines.append("    replay: \(replay)")
    } else if let reason = finding.noReplay {
      lines.append("    no replay: \(reason)")
    }
    return lines
  }

  /// What the experiments showed beyond each arm's counts, a line each: the polluter search, the
  /// tests beside a failure, the randomness replays, a cause the second seed did not repeat, the
  /// contrasts left undecided and the causes ruled out. The text and the page both give them.
  static func evidence(_ finding: TestFinding) -> [String] {
    var lines: [String] = []
    if let failure = finding.commonestFailure, let place = finding.place(of: failure),
      let origin = finding.origin(of: place)
    {
      lines.append(
        "its failure's line, \(place.place(relativeTo: finding.packagePath ?? ".")), is in the body of \(origin.id), "
          + "which ran before it in its process: probably a task of that test's that outlived it (XCTest charges an "
          + "assertion to the test running when it lands); counted here, as swift test counts it")
    }
    if let polluters = finding.polluters {
      lines.append(pollutersLine(polluters, alone: finding.runs.filter { $0.test?.layout.isSuitePass == false }))
    }
    if finding.diagnosis == .interference, finding.polluters?.tests.isEmpty ?? true,
      let most = finding.neighbours.first?.passes
    {
      // The tests beside it in the most failing passes: the event stream's timing can narrow
      // the suspects no further.
      let suspects = finding.neighbours.filter { $0.passes == most }.map(\.test.id)
      let failingPasses = finding.runs.filter { $0.test?.layout == .suite }.reduce(0) { $0 + $1.tally.notPassed }
      lines.append(
        "beside it in \(Formatting.count(most)) of its \(Formatting.count(failingPasses)) failing passes: "
          + suspects.prefix(5).joined(separator: ", ") + (suspects.count > 5 ? " and \(suspects.count - 5) more" : ""))
    }
    lines += raceLines(finding)
    if let draw = finding.randomDraw {
      let replays = finding.runs.filter(Diagnostician.isRandomnessReplay)
      let failed = replays.reduce(0) { $0 + $1.tally.notPassed }
      let passed = replays.reduce(0) { $0 + $1.tally.ran } - failed
      lines.append(
        "replayed on one queue, a fresh process each: the \(count(failed, "seed")) that failed it failed again, "
          + "the \(Formatting.count(passed)) that passed passed; drawn "
          + (draw == .perProcess ? "once per process (a hash order, a value drawn once)" : "in each iteration"))
    }
    if let cause = finding.unconfirmed {
      lines.append("the first seed's runs showed \(cause.rawValue); the second seed's did not show it again")
    }
    if finding.diagnosis == .undetermined, !finding.undecided.isEmpty {
      lines.append(
        "undecided: " + finding.undecided.map(\.rawValue).joined(separator: ", ")
          + " (its arms failed more, not yet significantly, after as many iterations as its share allowed: "
          + "raise --iterations, or --budget, to decide)")
    }
    if finding.diagnosis == .undetermined, !finding.ruledOut.isEmpty {
      // A replay repeats only the randomness the harness seeds: a test decided by bytes read
      // from `/dev/urandom` fails its replays as often as its first runs, and is not shown to be
      // random.
      let tried = finding.ruledOut.map {
        $0 == .randomness ? "randomness (of what the harness seeds: not reads of /dev/urandom)" : $0.rawValue
      }
      lines.append(
        "tried, and did not show their cause: " + tried.joined(separator: ", ")
          + " (the arms above give each experiment's counts)")
    }
    return lines
  }

  /// A stable test whose sanitized runs raced (`--sanitize thread`): it keeps its verdict, since
  /// a race is not a failure and no rate counts it, and the race is shown where it is.
  static func racedBlock(_ finding: TestFinding) -> [String] {
    var lines = ["RACED  \(finding.test.id)  passed every run, but the thread sanitizer saw it race"]
    if let packagePath = finding.packagePath, let place = finding.races?.races.first?.race.placeToOpen(in: packagePath)
    {
      lines.append("    open: " + place.place(relativeTo: finding.packagePath))
    }
    return lines + raceLines(finding).map { "    " + $0 }
  }

  /// The thread sanitizer's races, the most often reported first (three at most: the JSON has
  /// them all), or what its runs showed when they named none.
  static func raceLines(_ finding: TestFinding) -> [String] {
    guard let evidence = finding.races else { return [] }
    if evidence.races.isEmpty { return ["thread sanitizer: " + RaceText.nothingReported(evidence)] }
    let shown = evidence.races.prefix(3).map {
      "race: " + RaceText.describe($0, of: evidence, packagePath: finding.packagePath)
    }
    let more = evidence.races.count > 3 ? ["and \(evidence.races.count - 3) more races (JSON tests[].races)"] : []
    return shown + more
  }

  /// `polluter search: failed in 3 of 3 passes with that test and no other, 0 of 100 iterations
  /// alone; found among 12 neighbours in 9 processes`.
  static func pollutersLine(_ polluters: Polluters, alone: [RunResult]) -> String {
    let aloneFailed = alone.reduce(0) { $0 + $1.tally.notPassed }
    let aloneRan = alone.reduce(0) { $0 + $1.tally.ran }
    let with =
      polluters.tests.isEmpty
      ? "with every neighbour, in the screen"
      : polluters.tests.count == 1
        ? "with that test and no other"
        : polluters.together ? "with those tests and no other" : "with \(polluters.tests[0].id) and no other"
    return
      "polluter search: failed in \(Formatting.count(polluters.failed)) of \(count(polluters.passes, "pass")) \(with), "
      + "\(Formatting.count(aloneFailed)) of \(Formatting.count(aloneRan)) iterations alone; "
      + "searched \(count(polluters.candidates, "neighbour")) in \(count(polluters.processes, "process"))"
  }

  /// One block for the tests that were in flight when their process crashed and none of which
  /// crashed alone: the crash is theirs together, and listing each as flaky would say nothing.
  static func crashBlock(_ crash: CrashBesideOthers, arms: [SuiteAnswer.CrashedArm]) -> [String] {
    var lines = ["CRASHED  \(crash.headline): \(CrashBesideOthers.meaning)"]
    for arm in arms {
      lines.append(
        "    " + arm.arm.padding(toLength: armNameWidth, withPad: " ", startingAt: 0)
          + "crashed in \(Formatting.count(arm.crashed)) of \(Formatting.count(arm.passes)) passes")
    }
    if let seen = crash.how { lines.append("    seen: " + seen) }
    let names = crash.inFlight
    lines.append(
      "    in flight: " + names.prefix(5).joined(separator: ", ")
        + (names.count > 5 ? " and \(names.count - 5) more (JSON tests[], diagnosis crash-beside-others)" : ""))
    lines.append("    do: \(CrashBesideOthers.advice)")
    return lines
  }

  /// `suite, global        3 of 40 failed   7.50% [2.58%, 19.86%]`.
  /// The width of an arm's name, `one-at-a-time, global` and a space.
  static let armNameWidth = 23

  static func armLine(_ run: RunResult) -> String {
    let layout = run.test?.layout.rawValue ?? "run"
    let name = "\(layout), \(run.executor)".padding(toLength: armNameWidth, withPad: " ", startingAt: 0)
    let tally = run.tally
    let counts = "\(Formatting.count(tally.notPassed)) of \(Formatting.count(tally.ran)) failed"
    var line =
      name + counts.padding(toLength: 19, withPad: " ", startingAt: 0)
      + RateText.withInterval(run.estimate)
    if tally.timedOut > 0 { line += " · \(Formatting.count(tally.timedOut)) timed out" }
    if tally.crashed > 0 { line += " · \(Formatting.count(tally.crashed)) crashed" }
    if Diagnostician.isRandomnessReplay(run) { line += " · seeds replayed: those that failed and as many that passed" }
    if run.test?.isConfirmation == true { line += " · second seed: does the cause show again?" }
    if let place = run.blockedAt, run.blockedIterations > 0 {
      line += " · \(Formatting.count(run.blockedIterations)) blocked the queue's thread at \(place)"
      line +=
        run.blockedPassingIterations == 0
        ? " (no passing iteration blocked it)"
        : " (and \(Formatting.count(run.blockedPassingIterations)) that passed blocked it too)"
    }
    if run.notRun > 0, let stop = run.stop {
      line += " · stopped: \(ReportText.reason(stop))"
    }
    return line
  }

  /// The outcome that did not pass most often, over all the test's runs, with its line when
  /// that is not the line the block leads with.
  private static func mostFrequentFailure(_ finding: TestFinding) -> String? {
    guard let outcome = finding.commonestFailure else { return nil }
    let count = finding.runs.reduce(0) { $0 + ($1.tally.nonPassing[outcome] ?? 0) }
    let place = finding.place(of: outcome).flatMap { place in
      place == finding.lead?.location ? nil : " at " + place.place(relativeTo: finding.packagePath ?? ".")
    }
    return "\(finding.said(outcome)) (\(Formatting.count(count))×)" + (place ?? "")
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    "\(Formatting.count(number)) \(noun)\(number == 1 ? "" : noun.hasSuffix("s") ? "es" : "s")"
  }
}

extension Sequence where Element: Hashable {
  /// The elements in order, each once.
  func uniqued() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}

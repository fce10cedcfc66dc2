/// The text answer of `flakelab ci`: the tests that fail the job, then the flaky ones, then the
/// quarantined, each with what it did run by run and the failure as the test said it; then one
/// line for the rest and one for the job.
package enum CIText {
  package static func render(_ run: CIRun) -> String {
    var lines = [
      run.machine.line + " · seed \(run.seed)",
      "The suite ran once under global, as swift test runs it; a test that failed, crashed or hung ran again alone, "
        + "in a fresh process, up to \(run.retries) time\(run.retries == 1 ? "" : "s"), and one that then passed alone "
        + "ran after the tests before it and alone in turn, as often.",
      "",
    ]
    let crashes = run.crashes
    // Quarantined tests last, after the crashes that fail or warn the job.
    for test in run.shown where test.quarantine == nil { lines += block(test, of: run) }
    lines += crashBlocks(crashes)
    for test in run.shown where test.quarantine != nil { lines += block(test, of: run) }
    lines += run.context.staleQuarantine.map { "STALE  " + stale($0) }
    for test in run.tests where !test.status.failedFirst && test.races?.races.isEmpty == false {
      lines.append("RACED  \(test.test.id)  passed, but the thread sanitizer saw it race")
      lines += raceLines(test, of: run)
    }
    lines.append(summary(run))
    if let sanitizer = run.sanitizer { lines.append(RaceText.cost(sanitizer)) }
    lines.append(verdict(run))
    return Formatting.lines(lines)
  }

  /// `FLAKY  M.S/t()  failed in the pass, passed in retry 1 alone`, the runs, what it said,
  /// where its failure probably came from.
  static func block(_ test: CITest, of run: CIRun) -> [String] {
    let label = test.quarantine != nil ? "QUARANTINED" : test.status.label
    var lines = ["\(label)  \(test.test.id)  \(story(test, of: run))"]
    if let entry = test.quarantine {
      let reason = entry.reason.isEmpty ? "no reason given" : entry.reason
      lines.append("    quarantined since \(entry.added): \(reason); its failures do not fail the job")
    }
    if let seen = test.seen ?? test.attempts.first.flatMap({ $0.origin?.shown == true ? $0 : nil }) {
      let place = seen.place.map { " at " + $0.place(relativeTo: run.packagePath) } ?? ""
      lines.append("    seen: " + said(seen) + place)
    }
    if let origin = origin(test) { lines.append("    " + origin) }
    if test.status == .failsInSuite { lines.append("    after: " + predecessors(of: test, in: run)) }
    if let location = test.location {
      lines.append(
        "    declared at: " + location.place(relativeTo: run.packagePath)
          + (test.locationDoubt.map { " (unsure: \($0))" } ?? ""))
    }
    if let replay = run.replay(of: test) { lines.append("    replay: " + replay) }
    return lines + raceLines(test, of: run)
  }

  /// The thread sanitizer's races of the test, three at most, or what its runs showed when
  /// they named none.
  static func raceLines(_ test: CITest, of run: CIRun) -> [String] {
    guard let evidence = test.races else { return [] }
    if evidence.races.isEmpty { return ["    thread sanitizer: " + RaceText.nothingReported(evidence)] }
    return evidence.races.prefix(3).map {
      "    race: " + RaceText.describe($0, of: evidence, packagePath: run.packagePath)
    }
  }

  /// Where the failure recorded in the pass probably came from, and what the experiment showed.
  static func origin(_ test: CITest) -> String? {
    guard let first = test.attempts.first else { return nil }
    if let owner = first.recordedWhile {
      return "whose: recorded after it ended, while \(owner) ran; it failed so alone too, so the failure is its"
    }
    // Alone it failed the same way: the failure comes with the test, wherever its line is.
    guard let origin = first.origin,
      !test.attempts(.alone).contains(where: { $0.outcome == first.outcome && $0.place == first.place })
    else { return nil }
    let line = "the line is in the body of \(origin.test), which ran before it in the process"
    switch origin.shown {
    case true?: return "whose: \(origin.test)'s: \(line), and alone it failed so, while this test passed alone"
    case false?:
      return "whose: probably \(origin.test)'s (a task that outlived it?): \(line); alone it did not fail so, "
        + "so the failure stays with this test"
    case nil: return "whose: probably \(origin.test)'s (a task that outlived it?): \(line)"
    }
  }

  /// The tests a test that fails in the suite ran after: the nearest few by name.
  static func predecessors(of test: CITest, in run: CIRun) -> String {
    let before = run.predecessors(of: test).map(\.id)
    let nearest = before.suffix(3)
    let more = before.count - nearest.count
    let which = test.test.framework == .xctest ? "ran before it" : "ran beside it"
    return "the \(Formatting.count(before.count)) test\(before.count == 1 ? "" : "s") that \(which) in the pass"
      + (nearest.isEmpty
        ? "" : ": " + (more > 0 ? "… \(Formatting.count(more)) more, " : "") + nearest.joined(separator: ", "))
      + "; one of them probably leaves what fails it (it failed after them each time, and passed each time alone)"
  }

  /// `quarantine entry 'M.old()' names no test of the package: it quarantines nothing; did you mean 'M.new()'?`
  package static func stale(_ stale: Quarantine.StaleEntry) -> String {
    "quarantine entry '\(stale.entry.test)' names no test of the package: it quarantines nothing"
      + (stale.closest.map { "; did you mean '\($0)'?" } ?? " (renamed or removed?)")
  }

  /// What a run that failed said: the failure as the test said it, or what became of it.
  static func said(_ attempt: CITest.Attempt) -> String {
    attempt.example ?? OutcomeText.describe(attempt.outcome)
  }

  /// Each crash of the pass's process that none of those in flight caused alone, once.
  static func crashBlocks(_ crashes: [CIRun.PassCrash]) -> [String] {
    crashes.flatMap { crash -> [String] in
      var lines = [
        "CRASHED  \(crash.crash.headline): \(CrashBesideOthers.meaning). Flaky, each passed alone:",
        "    " + Formatting.list(crash.tests.map(\.test.id).sorted()),
      ]
      if let how = crash.crash.how { lines.append("    seen: " + how) }
      lines.append("    do: " + CrashBesideOthers.advice)
      return lines
    }
  }

  /// What the test's runs came to, in order: the pass, the retries alone, the runs after the
  /// tests before it.
  static func story(_ test: CITest, of run: CIRun) -> String {
    guard let first = test.attempts.first else { return "never started: its processes ended before it" }
    // A crash that none in flight caused alone is the pass's, not this test's.
    var parts = [
      first.outcome.isCrashBesideOthers
        ? "in flight when the pass crashed"
        : first.origin?.shown == true
          ? "failed in the pass with another test's failure" : did(first) + " in the pass"
    ]
    let alone = test.attempts(.alone)
    let again = test.attempts(.suiteAgain)
    if let runs = runs(alone, "alone", first: first, onlyPlace: again.isEmpty) {
      if runs.hasPrefix("and ") { parts[0] += " " + runs } else { parts.append(runs) }
    }
    let before = run.predecessors(of: test).count
    let after =
      switch (test.test.framework, before) {
      case (.swiftTesting, _): "beside the others"
      case (.xctest, 0): "in the suite again, where it runs first"
      case (.xctest, 1): "after the test before it"
      case (.xctest, _): "after the \(Formatting.count(before)) tests before it"
      }
    if let runs = runs(again, after, first: first, onlyPlace: false) { parts.append(runs) }
    let cut = test.retriesCut ? ", then retried until the interrupt cut it short" : ""
    return parts.joined(separator: ", ") + cut
  }

  private static func did(_ attempt: CITest.Attempt) -> String {
    switch attempt.outcome {
    case .crashed: "crashed"
    case .timedOut: "hung"
    default: attempt.failed ? "failed" : "passed"
    }
  }

  /// `passed in retry 1 alone`, `failed in 2 retries alone`, `passed in 2 retries alone`; with
  /// `onlyPlace`, runs that all failed as the first did read `and in 2 retries alone`.
  private static func runs(
    _ runs: [CITest.Attempt], _ place: String, first: CITest.Attempt, onlyPlace: Bool
  ) -> String? {
    guard !runs.isEmpty else { return nil }
    let times = "\(runs.count) retr\(runs.count == 1 ? "y" : "ies") \(place)"
    if runs.allSatisfy({ $0.outcome == .passed }) {
      return runs.count == 1 ? "passed in retry \(runs[0].index) \(place)" : "passed in " + times
    }
    if let passed = runs.first(where: { $0.outcome == .passed }) { return "passed in retry \(passed.index) \(place)" }
    let kinds = Set(runs.map(did))
    if onlyPlace, kinds == [did(first)] { return "and in " + times }
    return kinds.sorted().joined(separator: " or ") + " in " + times
  }

  /// `412 tests passed, 3 skipped, 1 flaky, 1 failed; quarantined: 1 did not pass, 2 passed.`
  static func summary(_ run: CIRun) -> String {
    let passed = run.tests(.passed).count
    var parts = ["\(Formatting.count(passed)) test\(passed == 1 ? "" : "s") passed"]
    for status in [CITest.Status.skipped, .flaky, .failed, .failsInSuite, .interrupted, .notRun]
    where !run.tests(status).isEmpty {
      let name =
        switch status {
        case .notRun: run.interrupted ? "not run before the interrupt" : "never started"
        case .interrupted: "interrupted in their retries"
        case .failsInSuite: "failed in the suite (passed alone)"
        default: status.rawValue
        }
      parts.append("\(Formatting.count(run.tests(status).count)) \(name)")
    }
    let quarantined = run.quarantined
    let rest =
      quarantined.isEmpty
      ? ""
      : "; quarantined: \(quarantined.filter { $0.status != .passed }.count) did not pass, "
        + "\(quarantined.filter { $0.status == .passed }.count) passed"
    return parts.joined(separator: ", ") + rest + "."
  }

  /// Whether the job fails, and why.
  static func verdict(_ run: CIRun) -> String {
    if run.interrupted { return "Interrupted: the tests hold the runs that finished." }
    let failing = run.failingTheJob
    guard !failing.isEmpty else {
      return "The job passes"
        + (run.tests(.flaky).isEmpty ? "." : ": flaky tests pass it (--fail-on-flaky makes them fail it).")
    }
    return "The job fails: " + Formatting.list(failing.prefix(5).map(\.test.id))
      + (failing.count > 5 ? " and \(failing.count - 5) more" : "") + "."
  }
}

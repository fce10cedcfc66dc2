/// The text answer of `flakelab ci`: the tests that fail the job, then the flaky ones, then the
/// quarantined, each with what it did run by run and the failure as the test said it; then one
/// line for the rest and one for the job.
package enum CIText {
  package static func render(_ run: CIRun) -> String {
    var lines = [
      run.machine.line + " · seed \(run.seed)",
      "The suite ran once under global, as swift test runs it; a test that failed, crashed or hung ran again alone, "
        + "in a fresh process, up to \(run.retries) time\(run.retries == 1 ? "" : "s").",
      "",
    ]
    let crashes = run.crashes
    // Quarantined tests last, after the crashes that fail or warn the job.
    for test in run.shown where test.quarantine == nil { lines += block(test, of: run) }
    lines += crashBlocks(crashes)
    for test in run.shown where test.quarantine != nil { lines += block(test, of: run) }
    lines += run.context.staleQuarantine.map { "STALE  " + stale($0) }
    lines.append(summary(run))
    lines.append(verdict(run))
    return Formatting.lines(lines)
  }

  /// `FLAKY  M.S/t()  failed in the pass, passed in retry 1 of 2`, the runs, what it said.
  static func block(_ test: CITest, of run: CIRun) -> [String] {
    let label = test.quarantine != nil ? "QUARANTINED" : test.status.rawValue.uppercased()
    var lines = ["\(label)  \(test.test.id)  \(story(test))"]
    if let entry = test.quarantine {
      lines.append("    quarantined since \(entry.added): \(entry.reason.isEmpty ? "no reason given" : entry.reason); its failures do not fail the job")
    }
    if let seen = test.seen {
      lines.append("    seen: " + said(seen) + (seen.place.map { " at " + $0.place(relativeTo: run.packagePath) } ?? ""))
    }
    if let location = test.location {
      lines.append("    declared at: " + location.place(relativeTo: run.packagePath))
    }
    if let replay = run.replay(of: test) { lines.append("    replay: " + replay) }
    return lines
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

  /// What the test's runs came to, in order.
  static func story(_ test: CITest) -> String {
    guard let first = test.attempts.first else { return "never started: its processes ended before it" }
    let retries = test.attempts.dropFirst()
    func did(_ attempt: CITest.Attempt) -> String {
      switch attempt.outcome {
      case .crashed: "crashed"
      case .timedOut: "hung"
      default: attempt.failed ? "failed" : "passed"
      }
    }
    // A crash that none in flight caused alone is the pass's, not this test's.
    let pass = first.outcome.isCrashBesideOthers ? "in flight when the pass crashed" : did(first) + " in the pass"
    let cut = test.retriesCut ? ", then retried until the interrupt cut it short" : ""
    guard !retries.isEmpty else { return pass + cut }
    if let passed = retries.firstIndex(where: { $0.outcome == .passed }) {
      return pass + ", passed in retry \(passed) alone"
    }
    let kinds = Set(retries.map(did))
    let times = "\(retries.count) retr\(retries.count == 1 ? "y" : "ies") alone"
    return (kinds == [did(first)] ? pass + " and in " + times : pass + ", " + kinds.sorted().joined(separator: " or ") + " in " + times) + cut
  }

  /// `412 tests passed, 3 skipped, 1 flaky, 1 failed; quarantined: 1 did not pass, 2 passed.`
  static func summary(_ run: CIRun) -> String {
    let passed = run.tests(.passed).count
    var parts = ["\(Formatting.count(passed)) test\(passed == 1 ? "" : "s") passed"]
    for status in [CITest.Status.skipped, .flaky, .failed, .interrupted, .notRun] where !run.tests(status).isEmpty {
      let name =
        switch status {
        case .notRun: run.interrupted ? "not run before the interrupt" : "never started"
        case .interrupted: "interrupted in their retries"
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
      return "The job passes" + (run.tests(.flaky).isEmpty ? "." : ": flaky tests pass it (--fail-on-flaky makes them fail it).")
    }
    return "The job fails: " + Formatting.list(failing.prefix(5).map(\.test.id)) + (failing.count > 5 ? " and \(failing.count - 5) more" : "") + "."
  }
}

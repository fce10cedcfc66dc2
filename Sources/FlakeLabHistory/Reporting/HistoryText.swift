import FlakeLab
import Foundation

/// `flakelab history`: the answer as text, most telling first: the tests that passed and failed
/// on the same commit, then those that only failed, then what stopped flaking, what may leave
/// the quarantine, and the gate.
package enum HistoryText {
  package static func render(_ answer: HistoryAnswer, path: String) -> String {
    var lines = [header(answer, path: path)]
    lines.append(
      "\(runs(answer.ciRuns, "CI run")) and \(runs(answer.labRuns, "lab run")) on \(runs(answer.commits, "commit")).")
    let flaky = answer.tests.filter(\.isFlaky)
    let inSuite = answer.tests.filter(\.failsInSuite)
    let failed = answer.tests.filter { !$0.isFlaky && !$0.failsInSuite }
    if answer.tests.isEmpty {
      lines.append("No test failed in the window.")
    }
    if !flaky.isEmpty {
      lines += ["", "Flaky: passed and failed on the same commit (\(flaky.count)):"]
      for test in flaky {
        lines.append("  " + test.test)
        lines.append("    " + rate(test, confidence: answer.confidence))
        if let first = test.firstFlaked {
          let commits = test.flakyCommits.count
          lines.append(
            "    first flaked on \(short(first.commit)) (\(day(first.started)))"
              + (commits > 1 ? "; flaky on \(commits) commits" : ""))
        }
      }
    }
    if !inSuite.isEmpty {
      lines += [
        "", "Failed in the suite every time and passed alone: a test before it fails it, not flaky (\(inSuite.count)):",
      ]
      for test in inSuite { lines += ["  " + test.test, "    " + rate(test, confidence: answer.confidence)] }
    }
    if !failed.isEmpty {
      lines += ["", "Failed, never beside a pass on the same commit (\(failed.count)):"]
      for test in failed { lines += ["  " + test.test, "    " + rate(test, confidence: answer.confidence)] }
    }
    if !answer.crashes.isEmpty {
      lines += [
        "",
        "Crashed with tests in flight, none of which crashed alone (\(runs(answer.crashes.count, "run"))): "
          + CrashBesideOthers.meaning + ":",
      ]
      lines += answer.crashes.map(crashLine).map { "  " + $0 }
    }
    if !answer.stoppedFlaking.isEmpty {
      lines += ["", "Stopped flaking: passed each of their last \(answer.quietRuns) CI runs:"]
      lines += answer.stoppedFlaking.map { "  " + $0 }
    }
    if !answer.readyToLeave.isEmpty {
      lines += ["", "Ready to leave the quarantine: passed each of their last \(answer.quietRuns) recorded CI runs:"]
      lines += answer.readyToLeave.map { "  \($0)    (flakelab quarantine remove \(ScheduleText.shellQuoted($0)))" }
    }
    if !answer.races.isEmpty {
      lines += ["", racesHeading(answer) + ":"]
      for race in answer.races { lines += ["  " + raceLine(race), "    " + raceStatus(race)] }
    }
    if let gate = answer.gate {
      let gateLines = gateLines(gate, answer: answer)
      lines += [""] + gateLines.prefix(1) + gateLines.dropFirst().map { "  " + $0 }
    }
    let raceGate = raceGateLines(answer)
    if !raceGate.isEmpty { lines += [""] + raceGate.prefix(1) + raceGate.dropFirst().map { "  " + $0 } }
    return Formatting.lines(lines)
  }

  /// `Races the thread sanitizer reported (2), a finding of their own: no failure rate counts them`.
  static func racesHeading(_ answer: HistoryAnswer) -> String {
    "Races the thread sanitizer reported (\(answer.races.count)), a finding of their own: no failure rate counts them"
  }

  /// `M.testCounter(): Sources/M/Counter.swift:5 against Sources/M/Counter.swift:5 (race on Registry.registered)`.
  static func raceLine(_ race: HistoryAnswer.RaceHistory) -> String {
    let lines = race.race.lines
    let pair =
      lines.count == 2
      ? "\(lines[0]) against \(lines[0] == lines[1] ? "the same line" : lines[1])" : lines.joined(separator: ", ")
    return "\(race.race.test): \(pair)" + (race.variable.map { " (race on \($0))" } ?? "")
  }

  /// `new, open: first reported on 2b02063a1f (2026-11-29), in 3 of 4 recorded runs that ran it
  /// sanitized, the last on …`: runs of the history (jobs), not a job's sanitized processes.
  static func raceStatus(_ race: HistoryAnswer.RaceHistory) -> String {
    var said = [
      race.isNew ? "new" : "known before the window",
      race.isOpen
        ? "open" + (race.missedRuns > 0 ? " (missed by the last \(runs(race.missedRuns, "sanitized run")))" : "")
        : "gone: missed by the last \(race.missedRuns) sanitized runs",
    ]
    if race.isQuarantined { said.append("quarantined") }
    return said.joined(separator: ", ") + ": first reported on \(short(race.first.commit)) (\(day(race.first.started)))"
      + ", in \(race.reportedRuns) of \(runs(race.sanitizedRuns, "recorded run")) that ran it sanitized"
      + (race.reportedRuns > 1 ? ", the last on \(short(race.last.commit)) (\(day(race.last.started)))" : "")
  }

  /// The gate on new races' verdict, when it was asked for, then each race that fails it.
  static func raceGateLines(_ answer: HistoryAnswer) -> [String] {
    guard answer.gatesNewRaces else { return [] }
    let new = answer.newRaces
    guard !new.isEmpty else {
      return ["Gate --fail-on-new-races: passed; no race the window recorded is new and not gone."]
    }
    return [
      "Gate --fail-on-new-races: FAILED: \(new.count) new race\(new.count == 1 ? "" : "s") not gone "
        + "(fix, or flakelab quarantine add TEST --races --reason TEXT):"
    ] + new.map(raceLine)
  }

  static func header(_ answer: HistoryAnswer, path: String) -> String {
    "flakelab \(Report.labVersion) · history \(path) · \(day(answer.window.from)) to \(day(answer.window.to))"
      + (answer.window.branch.map { " · branch \($0)" } ?? " · every branch")
  }

  /// `CI: failed first in 3 of 12 runs, 25.00% (95% interval 8.89%–53.23%); flipped 5 times in 11`.
  static func rate(_ test: HistoryAnswer.TestHistory, confidence: Double) -> String {
    guard test.ciRuns > 0 else { return "no CI run in the window (lab runs only)" }
    return "CI: failed first in \(test.ciFailures) of \(runs(test.ciRuns, "run")), \(Formatting.percent(test.rate)) "
      + "(\(Int((confidence * 100).rounded()))% interval \(Formatting.percent(test.low))–\(Formatting.percent(test.high)))"
      + (test.pairs == 0
        ? ""
        : "; flipped in \(test.flips) of \(test.pairs) pairs of runs in a row (\(Formatting.percent(test.flipRate)))")
  }

  /// The gate's verdict, then the tests too few runs leave undecided, when there are any.
  static func gateLines(_ gate: HistoryAnswer.GateResult, answer: HistoryAnswer) -> [String] {
    let bound = Formatting.percent(gate.maxFailureRate)
    let verdict =
      gate.over.isEmpty
      ? "Gate --max-failure-rate \(bound): passed; no test's CI failure rate is shown above it."
      : "Gate --max-failure-rate \(bound): FAILED: "
        + gate.over.map { name in
          let test = answer.tests.first { $0.test == name }
          return name + (test.map { " (interval \(Formatting.percent($0.low))–\(Formatting.percent($0.high)))" } ?? "")
        }.joined(separator: ", ")
    guard !gate.undecided.isEmpty else { return [verdict] }
    return [
      verdict, "Too few runs to tell either way (not failing the job): " + gate.undecided.joined(separator: ", "),
    ]
  }

  /// `2026-11-24 14:03:27 UTC fab95a48ac: M.a(), M.b()`: to the second, since one commit's runs
  /// of a day would otherwise read as one line repeated.
  static func crashLine(_ crash: HistoryAnswer.CrashInFlight) -> String {
    let time = Timestamp.iso8601(crash.started).prefix(19).replacingOccurrences(of: "T", with: " ")
    return "\(time) UTC \(short(crash.commit)): " + crash.tests.joined(separator: ", ")
  }

  static func runs(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  static func short(_ commit: String?) -> String {
    commit.map { String($0.prefix(10)) } ?? "no commit"
  }

  static func day(_ date: Date) -> String {
    String(Timestamp.iso8601(date).prefix(10))
  }
}

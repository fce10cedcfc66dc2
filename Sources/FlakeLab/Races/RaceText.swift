/// A race in words, as every format writes it: "race on `Registry.registered`: a write at
/// Sources/M/Registry.swift:4 (`Registry.register()`, a task) against a write at the same line
/// (a task); in 5 of 5 sanitized runs".
package enum RaceText {
  /// The race's line, its places from `packagePath`.
  package static func describe(_ seen: RaceEvidence.Seen, of evidence: RaceEvidence, packagePath: String?) -> String {
    let race = seen.race
    let root = packagePath ?? "/"
    let subject = race.variable.map { "race on `\($0)`" } ?? "data race"
    var places: [String] = []
    var sides: [String] = []
    for access in race.accesses {
      let place = access.place(in: root).map { $0.place(relativeTo: packagePath) }
      let function = access.function(in: root).map { "`\($0)`, " } ?? ""
      let at = place.map { $0 == places.last ? "at the same line" : "at \($0)" } ?? "in code with no line of its own"
      sides.append("a \(access.isWrite ? "write" : "read") \(at) (\(function)\(access.runner.text))")
      if let place { places.append(place) }
    }
    // Where a thread the package made was started (a `Thread`, an event loop's); a pool's
    // threads are started by whichever work first needed one, which says nothing of the race.
    let made = race.accesses.filter { [.thread, .eventLoop].contains($0.runner) }
    let started =
      made.lazy.compactMap { $0.startedAt(in: root) }.first.map {
        ", its thread started at \($0.place(relativeTo: packagePath))"
      } ?? ""
    return "\(subject): " + sides.joined(separator: " against ") + started
      + "; in \(seen.runs) of \(evidence.runs) sanitized runs"
  }

  /// The runners of `race` that no executor orders, in words: "a Dispatch queue".
  package static func unorderedRunners(_ race: DataRace) -> String {
    race.accesses.map(\.runner).filter { !$0.isOrderedByExecutors }.uniqued().map(\.text).joined(separator: " and ")
  }

  /// What the sanitized runs showed when they named no race: a logical race where they failed
  /// the test, else nothing either way.
  package static func nothingReported(_ evidence: RaceEvidence) -> String {
    let runs = "\(evidence.runs) sanitized run\(evidence.runs == 1 ? "" : "s")"
    if evidence.failedRuns > 0 {
      return "no data race in \(runs), \(evidence.failedRuns) of which failed it: a logical race, not a missing lock"
    }
    return "no data race in \(runs), none of which failed it (the sanitizer slows the code five to fifteen times, "
      + "which can keep a race's two accesses apart)"
  }

  /// `thread sanitizer: built in 15.3 s, 35 processes in 41.2 s`, or why it did not run.
  package static func cost(_ summary: SanitizerSummary) -> String {
    var parts: [String] = []
    if let build = summary.build {
      parts.append(
        "built in \(Formatting.duration(build)), \(summary.processes) process\(summary.processes == 1 ? "" : "es") "
          + "in \(Formatting.duration(summary.runs))")
    }
    if summary.unattributedRaces > 0 {
      parts.append(
        "\(summary.unattributedRaces) race\(summary.unattributedRaces == 1 ? "" : "s") of the sanitized passes on no "
          + "test's stack (a test's work still running after it, or a framework's own)")
    }
    if let why = summary.unavailable { parts.append(why) }
    return "thread sanitizer: " + parts.joined(separator: "; ")
  }
}

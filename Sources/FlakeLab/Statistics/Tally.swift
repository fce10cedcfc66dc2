/// The counts of one run: how many iterations came to each outcome.
///
/// Passes are a plain counter; every other outcome is kept in a histogram so that a report can
/// say not only how often a test failed but how (jcstress's per-outcome counts).
package struct Tally: Equatable, Sendable, OutcomeSink {
  package private(set) var passed = 0
  /// Each outcome other than `.passed`, with how many iterations came to it.
  package private(set) var nonPassing: [Outcome: Int] = [:]
  /// For an outcome whose observation was folded into placeholders, the first message as the
  /// test said it, so a report can show one real instance.
  package private(set) var examples: [Outcome: String] = [:]
  /// For a failure, the line the framework said it was recorded at, the first time it was
  /// seen: where a report sends a person to look.
  package private(set) var places: [Outcome: SourceLocation] = [:]

  package init() {}

  package mutating func record(_ outcome: Outcome, at index: Int, schedule: IterationSchedule?) {
    record(outcome, count: 1)
  }

  package mutating func record(_ outcome: Outcome, count: Int, example: String? = nil, place: SourceLocation? = nil) {
    if outcome == .passed {
      passed += count
    } else {
      nonPassing[outcome, default: 0] += count
      if let example, examples[outcome] == nil { examples[outcome] = example }
      if let place, places[outcome] == nil { places[outcome] = place }
    }
  }

  /// Adds another tally's counts to this one (workers, shards).
  package mutating func merge(_ other: Tally) {
    passed += other.passed
    for (outcome, count) in other.nonPassing { nonPassing[outcome, default: 0] += count }
    examples.merge(other.examples) { mine, _ in mine }
    places.merge(other.places) { mine, _ in mine }
  }

  package var failed: Int { count { if case .failed = $0 { true } else { false } } }
  package var crashed: Int { count { if case .crashed = $0 { true } else { false } } }
  package var timedOut: Int { nonPassing[.timedOut, default: 0] }
  package var deadlocked: Int { count { if case .deadlocked = $0 { true } else { false } } }
  package var skipped: Int { count { if case .skipped = $0 { true } else { false } } }
  package var executorChanged: Int { nonPassing[.executorChanged, default: 0] }
  package var iterations: Int { passed + nonPassing.values.reduce(0, +) }
  /// Iterations the test ran under the run's executor: all but those outside the rate
  /// (``Outcome/isOutsideTheRate``). The denominator of the failure rate.
  package var ran: Int { iterations - count(where: \.isOutsideTheRate) }
  /// Iterations that ran and did not pass, for any reason: the numerator of the failure rate.
  package var notPassed: Int { ran - passed }

  /// The failure rate as a fraction, 0 for a run in which nothing ran (see ``hasRate``).
  package var failureRate: Double {
    ran == 0 ? 0 : Double(notPassed) / Double(ran)
  }

  /// Whether any iteration ran: a run that only skipped has no failure rate.
  package var hasRate: Bool { ran > 0 }

  /// Non-passing outcomes, most frequent first; ties in a stable order.
  package var outcomesByFrequency: [(outcome: Outcome, count: Int)] {
    nonPassing.map { (outcome: $0.key, count: $0.value) }
      .sorted { $0.count != $1.count ? $0.count > $1.count : "\($0.outcome)" < "\($1.outcome)" }
  }

  /// Every distinct outcome with its count: passes first, then the rest most frequent first.
  /// The jcstress-style histogram of a run.
  package var histogram: [(outcome: Outcome, count: Int)] {
    (passed > 0 ? [(outcome: .passed, count: passed)] : []) + outcomesByFrequency
  }

  private func count(where matches: (Outcome) -> Bool) -> Int {
    nonPassing.reduce(0) { matches($1.key) ? $0 + $1.value : $0 }
  }
}

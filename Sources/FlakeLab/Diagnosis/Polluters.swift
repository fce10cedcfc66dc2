/// The tests whose presence makes an `interference` victim fail, as ``PolluterSearch`` found
/// them: the culprit a user needs named, with the passes that show it.
package struct Polluters: Sendable, Equatable {
  /// Where the polluters run, relative to the victim, in the passes that fail it.
  package enum Placement: String, Sendable {
    /// In the same process, earlier (XCTest's order, one queue): they leave state behind.
    case before
    /// In the same process, at the same time (Swift Testing in parallel).
    case beside
  }

  /// The tests found that fail the victim: each of them alone does, or, when `together`, they
  /// do only together. Empty when no few do, and only many neighbours together fail it (load,
  /// or a state that many of them change).
  package let tests: [PackageTest]
  package let together: Bool
  /// Whether the victim passed with every other neighbour, so that no other polluter is left.
  package let isComplete: Bool
  package let placement: Placement
  /// Passes of the victim with `tests` alone (with every neighbour when `tests` is empty), and
  /// in how many it failed.
  package let failed: Int
  package let passes: Int
  /// The neighbours searched, and the processes the search took.
  package let candidates: Int
  package let processes: Int

  package init(
    tests: [PackageTest], together: Bool = false, isComplete: Bool, placement: Placement, failed: Int, passes: Int,
    candidates: Int, processes: Int
  ) {
    self.tests = tests
    self.together = together
    self.isComplete = isComplete
    self.placement = placement
    self.failed = failed
    self.passes = passes
    self.candidates = candidates
    self.processes = processes
  }

  /// The most polluters an answer names: beyond that, "these tests together" is no culprit.
  package static let namedAtMost = 3

  /// `fails when A runs before it`, `fails when A and B run beside it`.
  package var when: String {
    guard !tests.isEmpty else {
      return
        "no single neighbour, nor \(Self.namedAtMost) together, fails it: only many of its \(candidates) neighbours together do"
    }
    let named =
      tests.count == 1
      ? tests[0].id + " runs"
      : together ? Self.names(tests) + " run" : "any of " + Self.names(tests, or: true) + " runs"
    return "fails when \(named) \(placement.rawValue) it"
      + (isComplete ? "" : " (and maybe when others do: the search stopped)")
  }

  /// What to change, with the culprit named.
  package var advice: String {
    guard !tests.isEmpty else {
      return
        "isolate the state it shares with its neighbours; none alone is the culprit, so look for state many of them change (a shared default, the environment, the file system) or for load"
    }
    let one = tests.count == 1
    let named = Self.names(tests)
    // Run before it, the neighbours left without them still fail it: they are not the culprit,
    // only the first found (combine-schedulers' testRunsOnMain fails after a test of any other
    // class, whichever).
    guard isComplete || placement == .beside else {
      return
        "it fails after \(named) and after other neighbours too (without \(one ? "it" : "them") the rest still fail it), "
        + "so look for what running any test before it changes that it reads (the main run loop, a shared default, "
        + "the environment) rather than for a fault in \(one ? "that test" : "those tests")"
    }
    switch placement {
    case .before:
      return
        "\(named) leave\(one ? "s" : "") behind state this test reads: make \(one ? "it" : "each") restore what it changes (tearDown, defer) or give this test state of its own; running the tests one at a time keeps the order that fails"
    case .beside:
      return
        "\(named) change\(one ? "s" : "") state this test reads while they run beside it: give each its own state, or put them in one .serialized suite"
    }
  }

  /// Five names at most; the rest are in the JSON report.
  private static func names(_ tests: [PackageTest], or: Bool = false) -> String {
    tests.count > 5
      ? tests.prefix(5).map(\.id).joined(separator: ", ")
        + " \(or ? "or" : "and") \(tests.count - 5) more (JSON tests[].polluters)"
      : Formatting.list(tests.map(\.id), or: or)
  }
}

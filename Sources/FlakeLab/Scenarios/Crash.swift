/// How an iteration's process died, and, in a suite pass, which other tests were in flight and
/// whether the test crashed alone too. The supervisor sets these as values; verdicts read them,
/// never the words a report prints (``OutcomeText``).
package struct Crash: Hashable, Sendable {
  /// The process's end: its status and the last lines it printed, `signal 6 (SIGABRT): …`.
  package let how: String
  /// Whether the process died before the test started (its planning, a class's set-up).
  package let beforeTheTestStarted: Bool
  /// The other tests in flight when the process died, in a suite pass.
  package let beside: [PackageTest]
  /// With others beside it: whether the test, run alone, crashed too. When none of those in
  /// flight did, the crash is charged to them all and is known to be none of theirs alone.
  package let crashedAlone: Bool

  package init(how: String, beforeTheTestStarted: Bool = false, beside: [PackageTest] = [], crashedAlone: Bool = true) {
    self.how = how
    self.beforeTheTestStarted = beforeTheTestStarted
    self.beside = beside
    self.crashedAlone = crashedAlone
  }

  /// A process that ended with `status`, after printing `lastLines`.
  package init(status: Int32, lastLines: String, beforeTheTestStarted: Bool = false) {
    self.init(
      how: Supervisor.describe(status: status) + (lastLines.isEmpty ? "" : ": \(lastLines)"),
      beforeTheTestStarted: beforeTheTestStarted)
  }

  /// The same crash, with others in flight beside the test.
  package func beside(_ others: [PackageTest], crashedAlone: Bool) -> Crash {
    Crash(how: how, beforeTheTestStarted: beforeTheTestStarted, beside: others, crashedAlone: crashedAlone)
  }

  /// A crash charged to every test in flight because none of them crashed alone: the suite's,
  /// not known to be any one test's.
  package var isBesideOthers: Bool { !beside.isEmpty && !crashedAlone }
}

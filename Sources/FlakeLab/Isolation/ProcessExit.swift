/// How a supervised process ended, as both machines read it (``BatchMachine``,
/// ``SuitePassMachine``): its wait status, whether the supervisor killed it past the timeout,
/// whether it got ready, what it printed last, and how long it lived. What else
/// each learns of the process (iterations counted, tests finished and in flight) is its own.
struct ProcessExit {
  var status: Int32
  var wasTimedOut: Bool
  var wasReady: Bool
  /// The end of what it printed (the worker keeps the last 8 KiB).
  var output: String
  var lifetime: Duration

  /// The gist of its last lines (``CrashSummary``), worked out only for an end that needs it: its
  /// regular expressions, run at every end, cost the lab 14 ms between a suite's two passes.
  var lastLines: String { CrashSummary.summarize(output) }

  /// Its end as a crash of the test it was running, or of one before it started.
  func crash(beforeTheTestStarted: Bool) -> Crash {
    Crash(status: status, lastLines: lastLines, beforeTheTestStarted: beforeTheTestStarted)
  }
}

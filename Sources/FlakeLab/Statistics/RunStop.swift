/// Why a run ended before its last iteration; its other iterations are counted as not run.
package enum RunStop: String, Sendable, Equatable {
  /// ``RunSettling/startFailureLimit`` workers in a row ended before the test started, so every
  /// further one would too.
  case neverStarted
  /// Its first ``RunSettling/limit`` iterations all timed out: under this executor the
  /// test does not finish (a test that blocks its thread under a serial executor), and every
  /// further iteration would cost the whole timeout to say so again.
  case everyIterationTimedOut
  /// Suite passes only: in each of its first ``RunSettling/limit`` passes under this
  /// executor it timed out or failed after at least ``PassSupervisor/slowFailure`` (its own wait
  /// ran out: a test helper that blocks the one queue's thread waits in vain), so every further
  /// pass would cost that wait again to say so.
  case everyIterationFailedSlowly
  /// Suite passes only: the test turned the executor off in each of its first
  /// ``RunSettling/limit`` passes under it, so no later pass could measure it there.
  case everyIterationChangedExecutor
  /// Drill-down only (``DrillDownPlan``): its first ``RunSettling/limit`` iterations all
  /// failed, which settles that arm's answer; rate measurements never stop on failures.
  case everyIterationFailed
  /// Drill-down only: the test timed out in every pass of the screen and in the first
  /// ``RunSettling/limit`` fresh processes alone under global, so this arm did not run: it
  /// hangs, and each iteration would cost the whole timeout to say so again.
  case hangsAlone
  /// `--budget` was spent before these iterations started: a bound the user set, not an answer.
  case budgetSpent
  /// Ctrl-C or SIGTERM stopped the measurement before these iterations ran.
  case interrupted
  /// Suite passes only: in each of its first ``RunSettling/limit`` passes, a process with
  /// this test among its tests died before any test started (its arguments, evaluated when the
  /// framework plans the run, trap; a class's set-up crashes), and it was charged the crash.
  case everyIterationDiedBeforeStarting
  /// Suite passes only: the events of ``RunSettling/limit`` processes in a row that ran
  /// this test did not add up (the lab lost some on the way), so none of them is an outcome. The
  /// lab's failure, never the test's.
  case eventsLost
}

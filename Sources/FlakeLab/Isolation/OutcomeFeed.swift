import Glibc

/// Where the supervisor reads what a worker process came to, iteration by iteration.
///
/// A scenario worker publishes into an ``OutcomeChannelReader``'s shared region; a user's test
/// binary writes test events into a pipe (``TestEventFeed``); a test binary the lab cannot steer
/// tells only by its exit status (``ExitStatusFeed``). The supervisor treats them alike: whatever
/// a worker finished is counted, and the first iteration it did not finish is the one a crash or
/// a timeout is charged to.
protocol OutcomeFeed: AnyObject {
  /// The descriptor the worker gets as its descriptor 3.
  var descriptor: Int32 { get }
  /// Whether the worker got as far as running iterations: a death before this is the lab's
  /// failure, a death after it the test's.
  var workerIsReady: Bool { get }
  /// XOR of the schedule shares of every iteration the worker finished (0 where there are none).
  var schedules: UInt64 { get }
  /// Iterations finished so far and the records published since the last call. Every record of
  /// an iteration counted in `completed` is among the records returned by this call or before.
  func poll() -> (completed: Int, records: [ChannelRecord])
  /// Closes the supervisor's copy of the worker's end, once the worker holds its own.
  func releaseWorkerEnd()
  /// Told how the worker ended, before its last poll.
  func workerEnded(status: Int32, output: String)
  /// Whether the worker said something outside the scheduler decided its order of jobs.
  var scheduleIsUncontrolled: Bool { get }
  /// Records that fit no iteration, ignored (a test writing into a package test's channel).
  var ignoredEvents: Int { get }
  /// Failing iterations in which the test blocked its one queue's thread, and where it blocked.
  var blocks: ThreadBlocks { get }
  /// How long the counted iterations of a test alone took.
  var times: IterationTimes { get }
  /// Iterations the worker ran before those counted (``TestEventFeed``'s warm-up): progress, for
  /// the timeout, though no outcome of the run.
  var warmUpsFinished: Int { get }
  /// The longest the supervisor may leave the feed unread while the worker runs.
  var readInterval: useconds_t { get }
}

extension OutcomeFeed {
  var schedules: UInt64 { 0 }
  var scheduleIsUncontrolled: Bool { false }
  var ignoredEvents: Int { 0 }
  var blocks: ThreadBlocks { ThreadBlocks() }
  var times: IterationTimes { IterationTimes() }
  var warmUpsFinished: Int { 0 }
  var readInterval: useconds_t { Supervisor.eventReadInterval }
  func releaseWorkerEnd() {}
  func workerEnded(status: Int32, output: String) {}
}

extension OutcomeChannelReader: OutcomeFeed {
  func poll() -> (completed: Int, records: [ChannelRecord]) {
    // The counter first: a record is published before the counter moves past its iteration.
    let completed = completed
    return (completed, drain())
  }
}

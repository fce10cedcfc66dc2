/// The progress line of suite passes: the passes done, the failures so far, and the test that
/// took longest in one pass so far or has been running longest now.
struct PassProgress {
  let total: Int
  let start: ContinuousClock.Instant
  let onProgress: (Supervisor.Progress) -> Void
  private var done = 0
  private var lastShown: ContinuousClock.Instant
  private var slowest: (test: String, duration: Duration, executor: ExecutorID)?

  init(total: Int, start: ContinuousClock.Instant, onProgress: @escaping (Supervisor.Progress) -> Void) {
    self.total = total
    self.start = start
    self.onProgress = onProgress
    lastShown = start
  }

  /// Notes the tests `end`'s process finished, of `tests` (the process's, in order).
  mutating func note(_ end: SuitePassMachine.PassProcessEnd, tests: [PackageTest], executor: ExecutorID) {
    for finished in end.finished where finished.duration > slowest?.duration ?? .zero {
      slowest = (tests[finished.test].id, finished.duration, executor)
    }
  }

  /// Shows the line, at most twice a second unless `force`d.
  mutating func show(
    inFlight: (test: String, duration: Duration, executor: ExecutorID)? = nil, states machines: [[SuitePassMachine]],
    clock: ContinuousClock, force: Bool = false
  ) {
    guard force || clock.now - lastShown > .milliseconds(500) else { return }
    lastShown = clock.now
    let notPassed = machines.joined().reduce(0) { $0 + $1.states.reduce(0) { $0 + $1.tally.notPassed } }
    var progress = Supervisor.Progress(
      label: "suite passes", done: done, total: total, notPassed: notPassed, elapsed: clock.now - start)
    progress.slowest = [slowest, inFlight].compactMap { $0 }.max { $0.duration < $1.duration }
    onProgress(progress)
  }

  mutating func passDone(states machines: [[SuitePassMachine]], clock: ContinuousClock) {
    done += 1
    show(states: machines, clock: clock, force: done == total)
  }
}

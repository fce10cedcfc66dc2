import Dispatch
import Foundation
import Synchronization

/// Keeps Dispatch's worker threads as warm on one queue as they are under the global executor,
/// so that an arm on one queue changes where Swift's jobs run and nothing else.
///
/// On Linux the global executor runs its jobs on Dispatch's global queues: under it, the task
/// XCTest starts for each test's set-up leaves a worker thread idle and ready just before the
/// test. On one queue that task runs on the main queue, no worker exists, and the test's first
/// `DispatchQueue.global().asyncAfter` waits for a thread to be made (about 100 µs here): a
/// semaphore signalled after 2 ms and waited for until 2.1 ms failed 8 to 15 of 20 passes on
/// one queue, 0 to 1 under global, and 0 with a worker made before the test. Before each XCTest
/// test on one queue the harness has a worker run an empty block, as the set-up task would have.
/// Swift Testing's runner leaves workers of its own, but not always ready: the same test there
/// failed 2 to 19 of 100 passes under serial against 0 to 2 plain in seven figures, and 1 of 100
/// in each of two with the warm-up before its start, which it now has under serial.
enum DispatchPoolWarmth {
  /// Runs an empty block on a global queue and waits for it, spinning, not in a watched call (a
  /// wait the blocking watch would tell as the test's), for at most 20 ms.
  static func warm() {
    let done = Flag()
    DispatchQueue.global().async { done.raise() }
    let deadline = ContinuousClock.now + .milliseconds(20)
    while !done.isRaised, ContinuousClock.now < deadline { sched_yield() }
  }

  private final class Flag: Sendable {
    private let raised = Atomic(false)
    func raise() { raised.store(true, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
  }
}

import Dispatch
import Foundation
import Testing
import XCTest

// Tests that block their thread until async work is done. On one queue the work can never run
// while the thread waits: every iteration fails, however short the wait. Right: blocks-thread.

final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var raised = false

  func raise() { lock.withLock { raised = true } }
  var isRaised: Bool { lock.withLock { raised } }
}

/// A test helper in the style of a package's own `fulfillment(of:timeout:)` shim: it polls,
/// sleeping between looks, until the condition holds or the time is up.
func waitSynchronously(timeout: Duration, until condition: () -> Bool) {
  let deadline = ContinuousClock.now + timeout
  while !condition(), ContinuousClock.now < deadline { usleep(1_000) }
}

@Suite struct BlockedThreads {
  /// Sleeps 200 ms "to let the task finish": short, and still never enough on one queue.
  @Test func sleepsToLetATaskFinish() {
    let flag = Flag()
    Task { flag.raise() }
    usleep(200_000)
    #expect(flag.isRaised)
  }

  /// Waits for the save through a polling helper.
  @Test func waitsThroughAPollingHelper() async {
    let flag = Flag()
    Task { flag.raise() }
    waitSynchronously(timeout: .milliseconds(300)) { flag.isRaised }
    #expect(flag.isRaised)
  }
}

final class UploadTests: XCTestCase {
  /// Waits for an upload task with a dispatch group.
  func testWaitsForTheUploadWithAGroup() {
    let group = DispatchGroup()
    group.enter()
    Task { group.leave() }
    XCTAssertEqual(group.wait(timeout: .now() + 0.5), .success)
  }
}

/// A package's own `fulfillment(of:timeout:)` for async tests, as swift-async-algorithms had: it
/// waits with `XCTWaiter` synchronously, inside the test's task. On one queue its run loop has
/// nothing it may run (the queue's job is the one waiting) and spins until the timeout.
extension XCTestCase {
  func fulfillmentBlocking(of expectations: [XCTestExpectation], timeout: TimeInterval) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      _ = XCTWaiter().wait(for: expectations, timeout: timeout)
      continuation.resume()
    }
  }
}

final class WaiterShimTests: XCTestCase {
  /// Waits for a task's expectation through the blocking shim.
  func testWaitsThroughABlockingShim() async {
    let flag = Flag()
    let done = XCTestExpectation(description: "the task ran")
    Task {
      // After the call below has started, as a save that awaits its store would be.
      await Task.yield()
      flag.raise()
      done.fulfill()
    }
    await fulfillmentBlocking(of: [done], timeout: 0.5)
    XCTAssertTrue(flag.isRaised)
  }
}


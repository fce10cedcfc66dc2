import Dispatch
import Foundation
import Testing
import XCTest

/// Tests that measure time, as people write them, with margins so thin that plain runs fail a
/// part of the time (set on a 2-core VM, where a 5 ms sleep takes 5.13 ms at the median and
/// 1,000 `usleep(0)` 75 ms; another machine moves the plain rates, which the figure shows): a
/// few microseconds added to each watched call would show in their failure rates. `make bench`
/// runs them plainly and in the lab, per executor, in alternating rounds (flakelab-bench,
/// TimingFidelity.swift): the lab must not make them fail more often.
final class TimingTests: XCTestCase {
  /// A 5 ms sleep checked against a bound of 5.15 ms.
  func testShortSleepMeetsATightBound() {
    let start = ContinuousClock.now
    Thread.sleep(forTimeInterval: 0.005)
    XCTAssertLessThan(ContinuousClock.now - start, .microseconds(5_150))
  }

  /// A thousand zero-length sleeps in a budget of 78 ms: a loop of watched calls.
  func testManyZeroSleepsWithinABudget() {
    let start = ContinuousClock.now
    for _ in 0..<1_000 { usleep(0) }
    XCTAssertLessThan(ContinuousClock.now - start, .milliseconds(78))
  }

  /// Work on another queue signals after 2 ms; the test waits at most 2.1 ms for it.
  func testSemaphoreSignalledInTime() {
    let semaphore = DispatchSemaphore(value: 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) { semaphore.signal() }
    XCTAssertEqual(semaphore.wait(timeout: .now() + .microseconds(2_100)), .success)
  }

  /// A thread sets a flag after 2 ms and signals the condition; the test waits until 2.1 ms.
  func testConditionSignalledInTime() {
    let condition = NSCondition()
    nonisolated(unsafe) var done = false
    Thread.detachNewThread {
      usleep(2_000)
      condition.lock()
      done = true
      condition.signal()
      condition.unlock()
    }
    let deadline = Date(timeIntervalSinceNow: 0.0021)
    condition.lock()
    while !done, condition.wait(until: deadline) {}
    let signalled = done
    condition.unlock()
    XCTAssertTrue(signalled)
  }
}

/// The semaphore test in Swift Testing, whose runner starts its own tasks: on one queue they
/// run on the main queue, where no Dispatch worker is left behind.
@Suite struct TimingSuite {
  @Test func semaphoreSignalledInTime() {
    let semaphore = DispatchSemaphore(value: 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) { semaphore.signal() }
    #expect(semaphore.wait(timeout: .now() + .microseconds(2_100)) == .success)
  }
}

import Foundation
import Testing
import XCTest

// Tests that rely on the order a FIFO queue runs jobs in: they pass on the serial executor every
// time, and fail when jobs run in another order (seeded interleavings). Right: fifo-dependent.

final class OrderLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [Int] = []

  func append(_ entry: Int) { lock.withLock { entries.append(entry) } }
  var all: [Int] { lock.withLock { entries } }
}

@Suite struct JobOrders {
  /// Two tasks started one after the other are expected to log in that order; the first has a
  /// little more to do, so that on two threads the second often logs first.
  @Test func tasksLogInTheOrderStarted() async {
    let log = OrderLog()
    let first = Task {
      _ = arithmetic(rounds: 20_000)
      log.append(1)
    }
    let second = Task { log.append(2) }
    await first.value
    await second.value
    #expect(log.all == [1, 2])
  }
}

final class HandlerOrderTests: XCTestCase {
  /// Two event handlers scheduled one after the other, expected to run in that order: the tap
  /// is decoded first, so that on two threads the scroll often overtakes it.
  func testHandlersRunInTheOrderScheduled() async {
    let handled = OrderLog()
    let tap = Task.detached {
      _ = arithmetic(rounds: 20_000)
      handled.append(1)
    }
    let scroll = Task.detached { handled.append(2) }
    _ = await (tap.value, scroll.value)
    XCTAssertEqual(handled.all, [1, 2])
  }
}

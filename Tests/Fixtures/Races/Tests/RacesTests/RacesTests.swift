import Foundation
import Races
import XCTest

final class DataRaceTests: XCTestCase {
  func testCounterFromTasks() async {
    let counter = Counter()
    await withTaskGroup(of: Void.self) { group in
      // Each task yields now and then, so that its jobs run on whichever thread is free.
      for _ in 0..<4 {
        group.addTask {
          for step in 0..<2_000 {
            counter.bump()
            if step % 250 == 0 { await Task.yield() }
          }
        }
      }
    }
    XCTAssertEqual(counter.value, 8_000)
  }

  func testDictionaryFromTaskGroup() async {
    let tally = Tally()
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<4 { group.addTask { for _ in 0..<500 { tally.add("w\(index % 2)") } } }
    }
    XCTAssertEqual(tally.counts.values.reduce(0, +), 2_000)
  }

  func testUncheckedStatic() async {
    Registry.registered = 0
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 { group.addTask { for _ in 0..<2_000 { Registry.register() } } }
    }
    XCTAssertEqual(Registry.registered, 8_000)
  }

  func testConcurrentPerform() {
    let counter = Counter()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<2_000 { counter.bump() }
    }
    XCTAssertEqual(counter.value, 8_000)
  }

  func testTaskAgainstThread() async {
    let counter = Counter()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      for _ in 0..<2_000 { counter.bump() }
      done.signal()
    }
    thread.start()
    for _ in 0..<2_000 { counter.bump() }
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        done.wait()
        continuation.resume()
      }
    }
    XCTAssertEqual(counter.value, 4_000)
  }

  func testSameValueFlag() async {
    let flag = Flag()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 { group.addTask { flag.set() } }
    }
    XCTAssertTrue(flag.isSet)
  }
}

final class LogicalRaceTests: XCTestCase {
  func testEachStepLocked() async {
    let account = Account()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 { group.addTask { for _ in 0..<500 { account.deposit(1) } } }
    }
    XCTAssertEqual(account.total, 2_000)
  }

  func testActorReentrancy() async {
    let cache = Cache()
    async let first = cache.get()
    async let second = cache.get()
    _ = await (first, second)
    let fills = await cache.fills
    XCTAssertEqual(fills, 1)
  }

  func testLockedControl() async {
    let counter = LockedCounter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 { group.addTask { for _ in 0..<500 { counter.bump() } } }
    }
    XCTAssertEqual(counter.count, 2_000)
  }
}

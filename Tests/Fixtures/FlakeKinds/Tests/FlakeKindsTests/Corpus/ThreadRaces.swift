import Foundation
import Testing
import XCTest

// Races between threads: each fails under the global executor, in some layout, and never on one
// queue, where every job runs to its end before the next. Right: needs-parallelism.

/// Episode 242's `@ThreadSafe` wrapper, the seeds' own: its getter and its setter are each
/// locked, but `toggle()` is a get then a set, and another thread can toggle between the two.
@propertyWrapper
struct LockedApart<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  var wrappedValue: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }

  init(wrappedValue: Value) { stored = wrappedValue }
}

final class LightSwitch: @unchecked Sendable {
  @LockedApart var isOn = false
}

final class UnlockedCounter: @unchecked Sendable {
  var value = 0
}

@Suite struct ThreadRaces {
  /// The seeds' toggle test: 1,000 children toggle once each, so the switch ends where it began.
  /// First runs make the race likelier (threads are still being created), warm runs fail too.
  @Test func thousandToggles() async {
    let light = LightSwitch()
    await withTaskGroup(of: Void.self) { group in
      for _ in 1...1000 { group.addTask { light.isOn.toggle() } }
    }
    #expect(!light.isOn)
  }

  /// Two child tasks bump an unlocked counter a few thousand times. In a parallel suite pass the
  /// pool is busy with other tests and the two run one after the other; alone, or with the tests
  /// one at a time (`swift test --no-parallel`, Xcode), they overlap.
  @Test func twoChildrenBumpACounter() async {
    let counter = UnlockedCounter()
    async let first: Void = bump(counter, times: 3_000)
    async let second: Void = bump(counter, times: 3_000)
    _ = await (first, second)
    #expect(counter.value == 6_000)
  }
}

@concurrent private func bump(_ counter: UnlockedCounter, times: Int) async {
  for _ in 0..<times { counter.value += 1 }
}

/// A cache that loads on first use, checked and filled without a lock.
final class UnguardedCache: @unchecked Sendable {
  private var stored: [Int]?
  private(set) var loads = 0

  func values() -> [Int] {
    if let stored { return stored }
    loads += 1
    let loaded: [Int] = (0..<20_000).map { $0 &* 31 }
    stored = loaded
    return loaded
  }
}

final class UnguardedCacheTests: XCTestCase {
  /// Two tasks ask the cache at once: on two threads both can find it empty and load it twice.
  func testLoadsOnce() async {
    let cache = UnguardedCache()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 { group.addTask { _ = cache.values() } }
    }
    XCTAssertEqual(cache.loads, 1)
  }
}

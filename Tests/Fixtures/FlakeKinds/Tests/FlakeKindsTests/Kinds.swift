import Dispatch
import Foundation
import Testing

/// Passes however it runs.
@Test func stable() {
  #expect(1 + 1 == 2)
}

/// Two threads add to one counter without a lock: under the global executor they interleave and
/// lose updates; on one queue each task runs to its end before the other starts.
@Test func race() async {
  final class Counter: @unchecked Sendable { var value = 0 }
  let counter = Counter()
  await withTaskGroup(of: Void.self) { group in
    for _ in 0..<2 {
      group.addTask { for _ in 0..<20_000 { counter.value += 1 } }
    }
  }
  #expect(counter.value == 40_000)
}

final class Loader: @unchecked Sendable {
  var isLoading = false

  func load() async {
    isLoading = true
    await Task.yield()
    isLoading = false
  }
}

/// Expects the load to be under way after one yield: true when jobs run first in, first out
/// (the task started before the test resumed), false in other orders, and now and then under
/// global, where the task runs on another thread.
@Test func fifoDependent() async {
  let loader = Loader()
  let load = Task { await loader.load() }
  await Task.yield()
  #expect(loader.isLoading)
  await load.value
}

/// Waits for a task by blocking its thread, with a wait of its own: on one queue the task can
/// never run while the thread waits, and the wait runs out.
@Test func blocksThread() {
  let done = DispatchSemaphore(value: 0)
  Task { done.signal() }
  #expect(done.wait(timeout: .now() + 1) == .success)
}

nonisolated(unsafe) private var hasRunBefore = false

/// Fails half the time on a process's first run (a cache filled lazily, say), never after.
@Test func firstRun() {
  defer { hasRunBefore = true }
  #expect(hasRunBefore || metByAHair(sleepingMicroseconds: 50))
}

/// A deadline met or missed by a hair: a cache warmed in the background, expected ready after
/// 30 ms, about what warming takes on an idle machine here. Real time decides, under every
/// executor alike, and a busy machine misses it.
@Test func timing() async throws {
  let warm = Flag()
  Task.detached {
    _ = arithmetic()
    warm.raise()
  }
  try await Task.sleep(for: .milliseconds(30))
  #expect(warm.isRaised)
}

/// Whether a sleep took an even number of microseconds: a coin that real time tosses, as it
/// decides a deadline met or missed by a hair. No seed replays it.
func metByAHair(sleepingMicroseconds: Int) -> Bool {
  let start = ContinuousClock.now
  usleep(UInt32(sleepingMicroseconds))
  let microseconds = (ContinuousClock.now - start).components.attoseconds / 1_000_000_000_000
  return microseconds % 2 == 0
}

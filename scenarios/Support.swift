import Synchronization

/// Helpers the scenarios' sources take from swift-concurrency-extras, written here on the
/// toolchain alone.

extension Task where Success == Never, Failure == Never {
  /// Episode 239's remedy for flaky tests: 20 detached background-priority tasks that each yield
  /// once, awaited in turn, in the hope that everything else gets to run meanwhile.
  static func megaYield(count: Int = 20) async {
    for _ in 0..<count {
      await Task<Void, Never>.detached(priority: .background) { await Task.yield() }.value
    }
  }
}

extension Task where Failure == Never {
  /// Suspends until the current task is cancelled, then throws `CancellationError`: the
  /// swift-concurrency-extras `Task.never()` an endpoint uses to stand for a request that never
  /// answers.
  static func never() async throws -> Success {
    // A stream whose continuation is dropped never yields; cancelling the iterating task ends it.
    let silence = AsyncStream<Success> { _ in }
    for await element in silence {
      return element
    }
    throw _Concurrency.CancellationError()
  }
}

/// Point-Free's `LockIsolated`: a value behind a lock, read and changed in separate critical
/// sections. The back-to-back test increments its call count and then reads it in two steps, as
/// the episode does, so two concurrent calls can both read 2.
final class LockIsolated<Value: Sendable>: Sendable {
  private let storage: Mutex<Value>

  init(_ value: Value) {
    storage = Mutex(value)
  }

  var value: Value { storage.withLock { $0 } }

  func withValue<T: Sendable>(_ operation: (inout sending Value) throws -> sending T) rethrows -> T {
    try storage.withLock { try operation(&$0) }
  }
}

extension AsyncSequence where Element: Sendable {
  /// The `forEach` the Blabber book adds to `AsyncSequence`: awaits `body` for each element.
  func forEach(_ body: (Element) async throws -> Void) async throws {
    for try await element in self {
      try await body(element)
    }
  }
}

import FlakeLab
import Foundation

/// The chat server of *Modern Concurrency in Swift*'s Blabber app, as the book's tests see it:
/// every message the app sends is recorded and handed to the test as a stream.
///
/// The book records requests with a `URLProtocol` subclass (`TestURLProtocol`) registered on the
/// model's `URLSession`; this actor stands in for that pair. Posting to it is an actor call, a
/// real suspension, as `URLSession.data(for:)` is.
actor ChatServerRecorder {
  nonisolated let messages: AsyncStream<String>
  private let feed: AsyncStream<String>.Continuation

  init() {
    (messages, feed) = AsyncStream.makeStream(of: String.self)
  }

  func post(_ message: String) {
    feed.yield(message)
  }
}

/// The book's `BlabberModel`, reduced to what the countdown test touches.
final class BlabberModel: Sendable {
  let server: ChatServerRecorder

  init(server: ChatServerRecorder) {
    self.server = server
  }

  func say(_ text: String) async throws {
    await server.post(text)
  }

  /// The book's countdown: an `AsyncStream(unfolding:)` that sleeps one second before each
  /// element, "3...", "2...", "1...", "🎉 " + message, and once more before it ends. So an
  /// iteration sleeps five seconds in all, not the three a reader might expect. The count lives
  /// in a box: Swift 6 does not let the `@Sendable` unfolding closure capture a `var`.
  func countdown(to message: String) async throws {
    guard !message.isEmpty else { return }
    let countdown = Box(3)
    let counter = AsyncStream<String> {
      do {
        try await Task.sleep(for: .seconds(1))
      } catch {
        return nil
      }
      defer { countdown.value -= 1 }
      switch countdown.value {
      case (1...): return "\(countdown.value)..."
      case 0: return "🎉 " + message
      default: return nil
      }
    }
    try await counter.forEach { [weak self] in
      try await self?.say($0)
    }
  }
}

/// A mutable value the unfolding closure can share; its steps never overlap, as each `next()`
/// awaits the previous one.
private final class Box: @unchecked Sendable {
  var value: Int
  init(_ value: Int) { self.value = value }
}

/// The book's `TimeoutTask`: races an operation against a sleep and gives whichever ends first.
/// Its two tasks share one continuation without a lock, as in the book; they cannot overlap here,
/// where the operation ends seconds before the timeout.
final class TimeoutTask<Success: Sendable>: @unchecked Sendable {
  struct TimeoutError: LocalizedError {
    var errorDescription: String? { "The operation timed out." }
  }

  let nanoseconds: UInt64
  let operation: @Sendable () async throws -> Success
  private var continuation: CheckedContinuation<Success, any Error>?

  init(seconds: TimeInterval, operation: @escaping @Sendable () async throws -> Success) {
    nanoseconds = UInt64(seconds * 1_000_000_000)
    self.operation = operation
  }

  var value: Success {
    get async throws {
      try await withCheckedThrowingContinuation { continuation in
        self.continuation = continuation
        Task {
          try await Task.sleep(nanoseconds: nanoseconds)
          self.continuation?.resume(throwing: TimeoutError())
          self.continuation = nil
        }
        Task {
          let result = try await operation()
          self.continuation?.resume(returning: result)
          self.continuation = nil
        }
      }
    }
  }
}

/// The countdown test of *Modern Concurrency in Swift* (Marin Todorov, Kodeco), chapter
/// "Testing Asynchronous Code": start the countdown, collect the first four messages the server
/// receives within a 10-second timeout, and check them in order.
///
/// Under the global and serial executors an iteration takes five real seconds. The book's remedy
/// is to inject a faster `sleep` into the model; the deterministic scheduler's virtual time
/// removes the wait without touching the model: under `seeded` and `fifo` the sleeps complete in
/// virtual time.
let countdown = Scenario(
  name: "countdown",
  summary: "a 3-2-1 countdown sends its four messages in order",
  source: "Modern Concurrency in Swift (Kodeco), Blabber, \"Testing Asynchronous Code\" (testModelCountdown)",
  variants: [
    Variant(
      name: "timeoutTask",
      summary: "async let the countdown and the first 4 messages under a 10 s TimeoutTask",
      realTimeWait: .seconds(5),
      claims: [.seeded: .neverFails, .fifo: .neverFails]
    ) { iteration in
      let server = ChatServerRecorder()
      let model = BlabberModel(server: server)
      async let countdown: Void = model.countdown(to: "Tada!")
      async let messages = TimeoutTask(seconds: 10) {
        await server.messages.prefix(4).reduce(into: []) { $0.append($1) }
      }.value
      let (messagesResult, _) = try await (messages, countdown)
      iteration.expect(
        messagesResult == ["3...", "2...", "1...", "🎉 Tada!"],
        "the server received \(messagesResult)")
    }
  ]
)

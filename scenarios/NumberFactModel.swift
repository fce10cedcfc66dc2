import Foundation

/// The feature model of Point-Free's "Reliable Async Tests" episodes 239-242, shared by the
/// `backToBack`, `cancel` and `screenshots` scenarios.
///
/// A counter with a "get fact" button: tapping it cancels any request in flight and starts a new
/// one, kept in `factTask` so the cancel button can stop it; `onTask()` counts screenshots. The
/// model is `@MainActor`, as in the episodes; only the endpoint runs elsewhere. The episodes
/// inject the endpoint with swift-dependencies and publish state with Combine's `@Published` for
/// SwiftUI; here the endpoint is a plain initializer argument and the state plain properties,
/// which changes nothing the tests observe.
@MainActor
final class NumberFactModel {
  let numberFact: @Sendable (Int) async throws -> String

  var count = 0
  var fact: String?
  var factTask: Task<String, any Error>?
  var isLoading: Bool { factTask != nil }

  init(
    numberFact: @escaping @Sendable (Int) async throws -> String = { "\($0) is a good number." }
  ) {
    self.numberFact = numberFact
  }

  func incrementButtonTapped() {
    fact = nil
    factTask?.cancel()
    factTask = nil
    count += 1
  }

  func decrementButtonTapped() {
    fact = nil
    factTask?.cancel()
    factTask = nil
    count -= 1
  }

  func getFactButtonTapped() async {
    factTask?.cancel()
    fact = nil
    factTask = Task { try await self.numberFact(self.count) }
    defer { factTask = nil }
    do {
      fact = try await factTask?.value
    } catch {
      // The episodes leave errors unhandled.
    }
  }

  func cancelButtonTapped() {
    factTask?.cancel()
    factTask = nil
  }

  /// Counts screenshots, as the episodes' `.task { await model.onTask() }` does.
  ///
  /// On Apple platforms the episodes iterate
  /// `NotificationCenter.default.notifications(named: UIApplication.userDidTakeScreenshotNotification)`.
  /// Neither UIKit nor that async sequence exists on Linux, so the nearest toolchain equivalent
  /// stands in: a Foundation `NotificationCenter` observer block that feeds an `AsyncStream`
  /// (see ``NotificationCenter/notificationStream(named:)``), iterated the same way.
  func onTask() async {
    for await _ in NotificationCenter.default.notificationStream(named: .userDidTakeScreenshot) {
      count += 1
    }
  }
}

extension Notification.Name {
  /// Stands in for `UIApplication.userDidTakeScreenshotNotification`.
  static let userDidTakeScreenshot = Notification.Name("UIApplicationUserDidTakeScreenshotNotification")
}

extension NotificationCenter {
  /// Notifications named `name` as an async sequence: the observer is registered at once, like
  /// Apple's `notifications(named:)`, buffers what arrives while nobody is waiting, and is removed
  /// when the iterating task stops.
  func notificationStream(named name: Notification.Name) -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    let observer = addObserver(forName: name, object: nil, queue: nil) { _ in
      continuation.yield()
    }
    let token = ObserverToken(observer)
    continuation.onTermination = { [weak self] _ in self?.removeObserver(token.observer) }
    return stream
  }
}

/// An observer token carried into the termination handler; NotificationCenter's tokens are
/// opaque `NSObjectProtocol` values that Swift cannot prove sendable.
private struct ObserverToken: @unchecked Sendable {
  let observer: any NSObjectProtocol
  init(_ observer: any NSObjectProtocol) { self.observer = observer }
}

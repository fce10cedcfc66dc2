import Synchronization

/// Counts calls, process-wide: tests use it to behave differently on some of their runs.
public final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  public init() {}

  /// The count after this call: 1 on the first.
  public func next() -> Int {
    value.add(1, ordering: .relaxed).newValue
  }
}

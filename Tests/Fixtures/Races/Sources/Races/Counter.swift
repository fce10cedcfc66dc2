/// A counter with no lock: two threads that bump it lose increments.
public final class Counter: @unchecked Sendable {
  public private(set) var value = 0
  public init() {}
  public func bump() { value += 1 }
}

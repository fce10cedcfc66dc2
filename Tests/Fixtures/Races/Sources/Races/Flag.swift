/// A flag each worker sets once it started: every write stores the same value.
public final class Flag: @unchecked Sendable {
  public var isSet = false
  public init() {}
  public func set() { isSet = true }
}

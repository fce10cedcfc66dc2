import Foundation

/// A balance whose reads and writes are each locked: a withdrawal that reads, then writes, can
/// still lose a deposit made between them.
public final class Account: @unchecked Sendable {
  private let lock = NSLock()
  private var balance = 0
  public init() {}
  public func read() -> Int { lock.withLock { balance } }
  public func write(_ value: Int) { lock.withLock { balance = value } }
  public func deposit(_ amount: Int) {
    let now = read()
    write(now + amount)
  }
  public var total: Int { read() }
}

/// The same counter with its whole update under the lock: the control.
public final class LockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  public init() {}
  public func bump() { lock.withLock { value += 1 } }
  public var count: Int { lock.withLock { value } }
}

/// A cache whose fill checks, then awaits, then writes: two callers both fill.
public actor Cache {
  public private(set) var fills = 0
  private var value: Int?
  public init() {}
  public func get() async -> Int {
    if let value { return value }
    let fetched = await fetch()
    fills += 1
    value = fetched
    return fetched
  }
  private func fetch() async -> Int {
    await Task.yield()
    return 42
  }
}

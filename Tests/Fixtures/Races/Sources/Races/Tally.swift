/// Words counted in a dictionary that every task writes.
public final class Tally: @unchecked Sendable {
  public var counts: [String: Int] = [:]
  public init() {}
  public func add(_ word: String) { counts[word, default: 0] += 1 }
}

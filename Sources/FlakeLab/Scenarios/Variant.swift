/// One way a scenario's test is written: its body and what makes it differ from its siblings.
public struct Variant: Sendable {
  /// The test body of one iteration. It returns normally when the test passes and throws
  /// ``ExpectationFailure`` (through ``expect(_:_:)``) with what it saw when it does not.
  public typealias Body = @Sendable (Iteration) async throws -> Void

  /// The name used in a selector, `scenario.variant`.
  public let name: String
  /// One line saying how this variant writes the test.
  public let summary: String
  /// Set when an iteration waits on the wall clock (a real `Task.sleep`), so that `list` can warn
  /// that large iteration counts take real time, e.g. "sleeps 100 ms per iteration".
  public let realTimeWait: String?
  public let body: Body

  public init(
    name: String, summary: String, realTimeWait: String? = nil, body: @escaping Body
  ) {
    self.name = name
    self.summary = summary
    self.realTimeWait = realTimeWait
    self.body = body
  }
}

/// What the lab tells one iteration about itself.
public struct Iteration: Sendable {
  /// The 0-based index of this iteration within the whole run, the same across workers and shards.
  public let index: Int

  public init(index: Int) {
    self.index = index
  }
}

/// One way a scenario's test is written: its body and what makes it differ from its siblings.
public struct Variant: Sendable {
  /// The test body of one iteration. It checks with ``Iteration/expect(_:_:)``; the iteration
  /// passes when every check held and the body returned without throwing.
  public typealias Body = @Sendable (Iteration) async throws -> Void

  /// The name used in a selector, `scenario.variant`.
  public let name: String
  /// One line saying how this variant writes the test.
  public let summary: String
  /// Set when an iteration waits on the wall clock (a real `Task.sleep`), so that `list` can warn
  /// that large iteration counts take real time, e.g. "sleeps 100 ms per iteration".
  public let realTimeWait: String?
  /// What the source claims or the lab demonstrates under each executor.
  public let claims: [ExecutorID: Claim]
  public let body: Body

  public init(
    name: String, summary: String, realTimeWait: String? = nil, claims: [ExecutorID: Claim] = [:],
    body: @escaping Body
  ) {
    self.name = name
    self.summary = summary
    self.realTimeWait = realTimeWait
    self.claims = claims
    self.body = body
  }
}

/// One way a scenario's test is written: its body and what makes it differ from its siblings.
///
/// ```swift
/// Variant(
///   name: "awaited", summary: "taps, awaits the tap's task, checks the count",
///   claims: [.global: .neverFails, .serial: .neverFails]
/// ) { iteration in
///   let model = await Counter(increment: loadIncrement)
///   await model.tap().value
///   iteration.expect(await model.count == 1, "the count was wrong after the tap finished")
/// }
/// ```
public struct Variant: Sendable {
  /// The test body of one iteration. It checks with ``Iteration/expect(_:_:)``; the iteration
  /// passes when every check held and the body returned without throwing.
  public typealias Body = @Sendable (Iteration) async throws -> Void

  /// The name used in a selector, `scenario.variant`.
  public let name: String
  /// One line saying how this variant writes the test.
  public let summary: String
  /// How long an iteration sleeps on the wall clock (a real `Task.sleep`), so that `list` can warn
  /// that large iteration counts take real time, and `check` caps them; nil when it never does.
  public let realTimeWait: Duration?
  /// What the source claims or the lab demonstrates under each executor.
  public let claims: [ExecutorID: Claim]
  /// The test, run once per iteration.
  public let body: Body

  /// A variant of a scenario's test.
  ///
  /// - Parameters:
  ///   - name: the name after the scenario's in a selector (`isLoading.naive`).
  ///   - summary: one line saying how this variant writes the test.
  ///   - realTimeWait: how long an iteration sleeps on the wall clock, if it does.
  ///   - claims: what the variant's source claims under each executor, judged by `check`;
  ///     every executor named must be in the catalog (``ScenarioCatalog/init(_:executors:)``).
  ///   - body: the test body of one iteration.
  public init(
    name: String, summary: String, realTimeWait: Duration? = nil, claims: [ExecutorID: Claim] = [:],
    body: @escaping Body
  ) {
    self.name = name
    self.summary = summary
    self.realTimeWait = realTimeWait
    self.claims = claims
    self.body = body
  }
}

/// The failure a scenario's test body throws when an expectation does not hold.
///
/// The lab's `expect` plays the role of `XCTAssert…`: it ends the iteration with an observation
/// instead of recording and going on, because one observation per failing iteration is what the
/// outcome histogram counts.
public struct ExpectationFailure: Error, Sendable {
  /// What was seen instead of what was expected, e.g. "isLoading was false right after the tap".
  public let observation: String

  public init(_ observation: String) {
    self.observation = observation
  }
}

/// Ends the iteration with `observation` unless `condition` holds.
///
/// ```swift
/// try expect(model.isLoading, "isLoading was false right after the tap")
/// ```
///
/// The observation is only built when the expectation fails, so passing iterations cost nothing.
@inlinable
public func expect(
  _ condition: Bool, _ observation: @autoclosure () -> String
) throws(ExpectationFailure) {
  if !condition { throw ExpectationFailure(observation()) }
}

/// The swift-concurrency-extras README's `NumberFactModel`: a button that loads a fact about a
/// number and shows a progress view meanwhile.
///
/// Not isolated to any actor, as in the README: the test reads `isLoading` while the task it
/// spawned may be writing it, which Swift 6 accepts only with `@unchecked Sendable`.
public final class NumberFactModel: @unchecked Sendable {
  public var fact: String?
  public var isLoading = false
  public var number = 0

  let getFact: @Sendable (Int) async throws -> String

  public init(getFact: @escaping @Sendable (Int) async throws -> String) {
    self.getFact = getFact
  }

  public func getFactButtonTapped() async {
    isLoading = true
    defer { isLoading = false }
    do {
      fact = try await getFact(number)
    } catch {
      // The README leaves errors unhandled.
    }
  }
}

import Synchronization

/// What one iteration of a test records as it runs: the index the lab gave it, and the checks
/// that did not hold.
///
/// `expect` behaves like `XCTAssert`: a failed check is recorded and the test goes on. That
/// matters for fidelity: a test that fails its first check still feeds its stream and awaits its
/// task, as it would under XCTest, instead of leaving them suspended forever.
///
/// ```swift
/// Variant(name: "naive", summary: "asserts right after spawning") { iteration in
///   let task = Task { await model.getFactButtonTapped() }
///   iteration.expect(model.isLoading, "isLoading was false right after the tap")
///   await task.value
/// }
/// ```
public final class Iteration: Sendable {
  /// The 0-based index of this iteration within the whole run, the same across workers and shards.
  public let index: Int
  private let failures = Mutex<[String]>([])

  package init(index: Int) {
    self.index = index
  }

  /// Records `observation` unless `condition` holds. The observation is only built when the
  /// check fails, so a passing check costs a branch. Observations are plain sentences without
  /// addresses or timings, so that equal failures group in the outcome histogram.
  ///
  /// - Parameters:
  ///   - condition: what the test expects.
  ///   - observation: what it saw instead, as a sentence (`"isLoading was false right after the tap"`).
  public func expect(_ condition: Bool, _ observation: @autoclosure () -> String) {
    if !condition {
      let text = observation()
      failures.withLock { $0.append(text) }
    }
  }

  /// Runs the test body as this iteration; a throw is recorded as one more observation, so
  /// an executor only has to await this.
  ///
  /// - Parameter body: the variant's test body.
  public func perform(_ body: Variant.Body) async {
    do {
      try await body(self)
    } catch {
      let text = "the test threw \(error)"
      failures.withLock { $0.append(text) }
    }
  }

  /// Passed when no check failed; otherwise every observation, in the order made.
  package var outcome: Outcome {
    failures.withLock { $0.isEmpty ? .passed : .failed(observation: $0.joined(separator: "; ")) }
  }
}

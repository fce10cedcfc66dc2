import FlakeLab
public import Testing

/// A Swift Testing trait that runs a test, or every test of a suite, under the serial executor
/// (``FlakeLab/withSerialExecutor(_:)-(()async throws->Result)``): every job bound for the global
/// executor goes to the main actor's serial queue, so a state-machine test runs the same way
/// every time.
///
/// ```swift
/// @Suite(.serialized, .serialExecutor)
/// @MainActor
/// struct NumberFactTests {
///   @Test func isLoading() async {
///     let task = Task { await model.getFactButtonTapped() }
///     await Task.yield()
///     #expect(model.isLoading)
///     await task.value
///   }
/// }
/// ```
///
/// > Important: The runtime hook it sets is process-wide. Swift Testing runs tests in parallel
/// > by default, and a test running beside one under this trait would be serialized too, or
/// > would see the hook restored under it. Mark the suites that use it `.serialized`, or run the
/// > tests with `--no-parallel`. And a serial order hides races real users hit: keep it to tests
/// > whose subject is not concurrency itself.
public struct SerialExecutorTrait: TestTrait, SuiteTrait, TestScoping {
  /// Applied to a suite, the trait covers every test in it.
  public var isRecursive: Bool { true }

  /// Runs `function` with the global executor's jobs redirected to the main actor's queue, and
  /// restores the runtime when it returns or throws.
  ///
  /// - Parameters:
  ///   - test: the test or suite the trait is applied to.
  ///   - testCase: the test case, for a parameterized test.
  ///   - function: the test (or the suite's tests) to run in the scope.
  /// - Throws: whatever `function` throws.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withSerialExecutor { try await function() }
  }
}

extension Trait where Self == SerialExecutorTrait {
  /// Runs the test, or every test of the suite, under the serial executor; see
  /// ``SerialExecutorTrait``.
  public static var serialExecutor: Self { Self() }
}

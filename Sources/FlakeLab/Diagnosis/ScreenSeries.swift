/// One series of the screen's passes: an executor, a layout, and how many of the passes it
/// runs. Which series the screen runs is decided here, apart from the processes
/// (``SuiteDiagnosis`` starts them), so that the choice is tested without one.
package struct ScreenSeries: Equatable {
  package let executor: ExecutorID
  package let layout: TestReference.ProcessLayout
  /// The passes it runs, its first; nil runs them all.
  package let passes: Int?

  /// The screen runs one pass of each test alone for this many of its passes: 10 of the default
  /// 20 find a test failing alone 26% of the time with 95% probability (5 found 45%, and missed
  /// in one run of two a test that fails 15–47% of the times it runs alone).
  static let passesPerPassAlone = 2

  /// The series for `tests` in `passes` passes under `executors`: the suite under each, as
  /// swift test runs it; and when a diagnosis follows, under the first executor that runs tests
  /// side by side, Swift Testing's tests one at a time (as swift test --no-parallel and Xcode run
  /// them: a race a busy pool hides in parallel passes shows there) and each test alone, as
  /// swift test --filter runs one (a test that needs a neighbour or a warm process fails only
  /// there; a pass costs a process per test, so it takes a share of the passes).
  package static func chosen(
    for tests: [PackageTest], under executors: [any IterationExecutor], passes: Int, diagnosisFollows: Bool
  ) -> [ScreenSeries] {
    let suite = executors.map { ScreenSeries(executor: $0.id, layout: .suite, passes: nil) }
    let parallel = executors.filter { diagnosisFollows && $0.harnessMechanism?.runsTestsInParallel == true }.prefix(1)
    let inTurn = parallel.filter { _ in tests.contains { $0.framework == .swiftTesting } }.map {
      ScreenSeries(executor: $0.id, layout: .oneAtATime, passes: nil)
    }
    let alone = parallel.filter { _ in tests.count > 1 }.map {
      ScreenSeries(executor: $0.id, layout: .alone, passes: max(1, passes / passesPerPassAlone))
    }
    return suite + inTurn + alone
  }
}

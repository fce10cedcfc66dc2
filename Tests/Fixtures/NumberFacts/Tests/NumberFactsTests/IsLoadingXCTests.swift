import NumberFacts
import Synchronization
import XCTest

/// The README's `isLoading` test in its three forms, written with XCTest as users write it.
final class IsLoadingXCTests: XCTestCase {
  /// Asserts right after spawning the task: the task has usually not started yet.
  func testNaive() async {
    let model = NumberFactModel(getFact: { "\($0) is a good number." })
    let task = Task { await model.getFactButtonTapped() }
    XCTAssertTrue(model.isLoading)
    await task.value
    XCTAssertFalse(model.isLoading)
  }

  /// One `Task.yield()` before asserting: the task may have run to its end by then.
  func testYield() async {
    let model = NumberFactModel(getFact: { "\($0) is a good number." })
    let task = Task { await model.getFactButtonTapped() }
    await Task.yield()
    XCTAssertTrue(model.isLoading)
    await task.value
    XCTAssertFalse(model.isLoading)
  }

  /// The README's fix: the endpoint yields once before answering, the test yields once.
  func testEndpointYield() async {
    let model = NumberFactModel(getFact: { number in
      await Task.yield()
      return "\(number) is a good number."
    })
    let task = Task { await model.getFactButtonTapped() }
    await Task.yield()
    XCTAssertTrue(model.isLoading)
    await task.value
    XCTAssertEqual(model.fact, "0 is a good number.")
    XCTAssertFalse(model.isLoading)
  }

  /// Traps on every 100th run in a process, as a test with a rare crash does.
  func testCrashesOnceInAHundred() {
    let run = xcTestRuns.add(1, ordering: .relaxed).newValue
    if run % 100 == 0 { fatalError("run \(run) of this process crashed on purpose") }
  }

  /// Waits for ever on every 50th run in a process, as a test whose continuation is never
  /// resumed does.
  func testHangsOnceInFifty() async {
    let run = xcTestHangRuns.add(1, ordering: .relaxed).newValue
    if run % 50 == 0 { await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in } }
  }
}

private let xcTestRuns = Atomic<Int>(0)
private let xcTestHangRuns = Atomic<Int>(0)

import FlakeLab
import Foundation
import XCTest

final class SerialExecutorTests: XCTestCase {
  @MainActor
  func testTaskGroupChildrenRunInEnqueueOrder() async {
    let order = await withSerialExecutor {
      await withTaskGroup(of: Int.self) { group in
        for index in 1...1000 { group.addTask { index } }
        var order: [Int] = []
        for await index in group { order.append(index) }
        return order
      }
    }
    XCTAssertEqual(order, Array(1...1000))
  }

  @MainActor
  func testGlobalJobsRunOnTheMainThreadInsideAndOffItAfterwards() async {
    let inside = await withSerialExecutor {
      await Task.detached { Thread.isMainThread }.value
    }
    XCTAssertTrue(inside, "a detached task should run on the main queue inside the scope")
    let after = await Task.detached { Thread.isMainThread }.value
    XCTAssertFalse(after, "the global executor should be back after the scope")
  }

  /// Each form must both put global jobs on the main queue inside and restore the runtime
  /// after: a form that did neither would pass a check of the second alone.
  @MainActor
  func testRuntimeIsRestoredWhenTheOperationThrows() async {
    struct Boom: Error {}
    var inside = false
    do {
      try await withSerialExecutor {
        inside = await Task.detached { Thread.isMainThread }.value
        throw Boom()
      }
      XCTFail("the error should propagate")
    } catch {}
    XCTAssertTrue(inside, "a detached task should run on the main queue inside the scope")
    let after = await Task.detached { Thread.isMainThread }.value
    XCTAssertFalse(after)
  }

  /// The synchronous form wraps a whole `invokeTest()`: the runtime's hook is set for its
  /// operation and gone after it.
  func testSynchronousFormRedirectsInsideAndRestoresTheRuntime() async {
    let before = GlobalEnqueueHook.current == nil
    let inside = withSerialExecutor { GlobalEnqueueHook.current != nil }
    XCTAssertTrue(before)
    XCTAssertTrue(inside, "the hook should send global jobs to the main queue inside the scope")
    XCTAssertNil(GlobalEnqueueHook.current)
    let after = await Task.detached { Thread.isMainThread }.value
    XCTAssertFalse(after)
  }
}

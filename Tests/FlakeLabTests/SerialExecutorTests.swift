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

  @MainActor
  func testRuntimeIsRestoredWhenTheOperationThrows() async {
    struct Boom: Error {}
    do {
      try await withSerialExecutor {
        await Task.yield()
        throw Boom()
      }
      XCTFail("the error should propagate")
    } catch {}
    let after = await Task.detached { Thread.isMainThread }.value
    XCTAssertFalse(after)
  }

  func testSynchronousFormRestoresTheRuntime() async {
    let depth = withSerialExecutor { 42 }
    XCTAssertEqual(depth, 42)
    let after = await Task.detached { Thread.isMainThread }.value
    XCTAssertFalse(after)
  }
}

import Dispatch
import FlakeLab
import FlakeLabTesting
import Testing
import XCTest

/// Whether the code calling this runs as part of the main queue: under the serial executor a
/// detached task's job is sent there, under the global executor it runs on the thread pool.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

private func runsOnTheMainQueue() async -> Bool {
  _ = mainQueueKey
  return await Task.detached { DispatchQueue.getSpecific(key: mainQueueKey) == true }.value
}

/// The Swift Testing trait, in a serialized suite as its documentation asks: the hook it sets is
/// process-wide.
@Suite(.serialized)
struct SerialExecutorTraitTests {
  @Test(.serialExecutor)
  func globalJobsGoToTheMainQueueUnderTheTrait() async {
    #expect(await runsOnTheMainQueue())
  }

  @Test
  func withoutTheTraitTheyRunOnThePool() async {
    #expect(await !runsOnTheMainQueue())
  }
}

/// The XCTest recipe: `invokeTest` wrapped in the synchronous `withSerialExecutor`.
final class InvokeTestRecipeTests: XCTestCase {
  override func invokeTest() {
    withSerialExecutor { super.invokeTest() }
  }

  func testGlobalJobsGoToTheMainQueueForTheWholeTest() async {
    let onMainQueue = await runsOnTheMainQueue()
    XCTAssertTrue(onMainQueue)
  }
}

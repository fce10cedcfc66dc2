import Foundation
import Greeting
import XCTest

final class GreetingTests: XCTestCase {
  func testGreets() {
    XCTAssertEqual(greeting(for: "Ada"), "Hello, Ada!")
  }

  func testSkipsOnLinux() throws {
    throw XCTSkip("not on Linux")
  }

  /// Stops the main run loop before it runs, as `XCTWaiter` does when a test's task fulfils its
  /// expectation just before the waiter's next turn. Run plainly, CoreFoundation drops the stop
  /// and the turn runs to its end (ten seconds here, at most 0.1 s in a waiter): the lab's
  /// harness has the turn return at once, and this test is run only in the lab.
  func testAStopBeforeTheMainRunLoopRunsEndsItsNextTurn() {
    RunLoop.main._stop()
    let start = ContinuousClock.now
    _ = RunLoop.main.run(mode: .default, before: Date() + 10)
    XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
  }

  /// Starts a child and leaves it running, as a test of a command-line tool might.
  func testLeavesAChildRunning() throws {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/sleep")
    child.arguments = ["3517"]
    try child.run()
  }

  /// Closes the pipes and files it finds among descriptors 3 to 63, as a test that tidies up
  /// after a subprocess might, and opens a file, which gets the lowest number: what it writes
  /// there must be all the file holds.
  func testClosesDescriptorsAndOpensAFile() throws {
    let path = NSTemporaryDirectory() + "greeting-\(getpid())-\(UUID().uuidString)"
    defer { unlink(path) }
    for descriptor in Int32(3)..<64 {
      var status = stat()
      guard fstat(descriptor, &status) == 0 else { continue }
      let kind = status.st_mode & S_IFMT
      if kind == S_IFIFO || kind == S_IFREG { close(descriptor) }
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    XCTAssertGreaterThanOrEqual(descriptor, 0)
    let text = Array("mine\n".utf8)
    XCTAssertEqual(write(descriptor, text, text.count), text.count)
    close(descriptor)
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "mine\n")
  }

  /// Waits for a task by blocking its thread, as tests of older callback code do: under a serial
  /// executor the task's job queues behind the wait, which never ends.
  func testWaitsForATaskByBlockingItsThread() {
    let done = DispatchSemaphore(value: 0)
    Task { done.signal() }
    done.wait()
  }

  /// Waits 20 ms for a task by blocking its thread: under a serial executor the task's job
  /// queues behind the wait, which runs out. A wait this short is told when it returns.
  func testWaitsBrieflyForATaskByBlockingItsThread() {
    let done = DispatchSemaphore(value: 0)
    Task { done.signal() }
    XCTAssertEqual(done.wait(timeout: .now() + .milliseconds(20)), .success)
  }
}

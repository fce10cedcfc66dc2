import Dispatch
import FlakeLab

/// Keeps XCTest's waits around a test from waiting out a stop that came too early.
///
/// swift-corelibs-xctest runs each test's async `setUp` and `tearDown` (and an async test's
/// body) in a task and waits for it with `XCTWaiter`, which runs the main run loop in turns of
/// at most 0.1 s until its expectation is fulfilled. The fulfilment, on the task's thread, stops
/// the run loop (`CFRunLoopStop`); a stop that comes after the waiter last looked at its
/// expectation and before the run loop is in a mode is dropped by CoreFoundation, and the turn
/// runs its 0.1 s out with nothing to do. The 62 XCTest tests of the bench's 250-test suite,
/// their binary run plainly, waited out at least one such turn in 45% of runs; in the lab's pass,
/// before this, in 65% (Speed.md).
///
/// In a process the lab configured for XCTest, a stop of the main run loop that finds it in no
/// mode also puts an empty block on the main queue, which the run loop serves: the turn the
/// waiter is about to start returns at once, and the waiter sees its expectation fulfilled. The
/// fulfilment stops the run loop while it holds the waiter's queue, which the waiter needs to
/// look at its expectation: a turn that was running when the stop looked cannot end and start
/// again unseen. Under the executors that run every job on the main queue the fulfilment runs
/// inside the turn, and nothing is added. The plain binary keeps its lost turns: the lab's pass
/// is the faster by them, and a test's body is timed as before.
enum DroppedStopRescue {
  private typealias CopyCurrentMode = @convention(c) (OpaquePointer?) -> OpaquePointer?
  private typealias GetMain = @convention(c) () -> OpaquePointer?
  private typealias Release = @convention(c) (OpaquePointer?) -> Void

  private static let copyCurrentMode = SystemCalls.symbol("CFRunLoopCopyCurrentMode", as: CopyCurrentMode.self)
  private static let getMain = SystemCalls.symbol("CFRunLoopGetMain", as: GetMain.self)
  private static let release = SystemCalls.symbol("CFRelease", as: Release.self)

  /// Set at the harness's start in a process configured to run XCTest tests.
  nonisolated(unsafe) private static var isOn = false

  /// Finds CoreFoundation's functions now (`CFRunLoopStop` itself is `RealCall`'s): found on
  /// first use, the lookups would fall inside the window this closes.
  static func start() {
    _ = (copyCurrentMode, getMain, release)
    isOn = true
  }

  /// Whether a stop of `runLoop` now would be dropped where a block on the main queue is not:
  /// the main run loop, in no mode.
  static func wouldDrop(_ runLoop: OpaquePointer?) -> Bool {
    guard isOn, let runLoop, let copyCurrentMode, let getMain, runLoop == getMain() else { return false }
    guard let mode = copyCurrentMode(runLoop) else { return true }
    release?(mode)
    return false
  }

  /// Wakes the main run loop's next turn, which returns after serving the main queue.
  static func wakeNextTurn() {
    DispatchQueue.main.async {}
  }
}

/// CoreFoundation's `CFRunLoopStop`, which `RunLoop._stop()` (`XCTWaiter`'s) calls through
/// Foundation's procedure linkage table: passed on, and a stop the run loop would drop followed
/// by a block on the main queue (``DroppedStopRescue``). Public: a release build exports a
/// `@_cdecl` function only if it is.
@_cdecl("CFRunLoopStop")
public func rescuedRunLoopStop(_ runLoop: OpaquePointer?) {
  let dropped = DroppedStopRescue.wouldDrop(runLoop)
  RealCall.runLoopStop?(runLoop)
  if dropped { DroppedStopRescue.wakeNextTurn() }
}

import Dispatch
import FlakeLab
import Foundation
import Synchronization

/// Sees a test block its one queue's thread, inside the test process, under the executors that
/// run every job on one queue: while the thread sleeps or waits on a semaphore, a group or a
/// condition, no job can run, and work the test waits for never comes, however short the wait.
///
/// The harness defines the blocking calls (below); each asks whether it is on the queue,
/// captures the stack's return addresses (about a microsecond: nothing is named here, see
/// `TestBinaryFrame`), runs the real call, and then tells the supervisor (`threadBlocked`),
/// which names the innermost function of the test binary: the test, or the helper that blocks
/// (a package's own `fulfillment(of:timeout:)` shim). It also sees a run loop with nothing to
/// run on the queue's thread (``sawIdleRunLoop()``). Told after the wait, so that the events of
/// the iteration's start are ahead of it in the stream, and at most every 5 ms for one place:
/// a helper polling with 1 ms sleeps for 300 ms says it sixty times, not three hundred, and an
/// iteration that blocks still says so once at least.
enum BlockWatch {
  /// Set when the process runs on one queue.
  nonisolated(unsafe) private static var isOn = false
  /// Set on a thread inside the watch, so that what the watch calls never watches itself.
  nonisolated(unsafe) private static var busyKey = pthread_key_t()
  /// The process's main thread, where the harness starts: told apart without Foundation, which a
  /// condition variable's wait deep in a library must not call into.
  nonisolated(unsafe) private static var mainThread = pthread_self()
  private static let lastTold = Mutex<(place: Int, at: ContinuousClock.Instant)?>(nil)

  static func start() {
    _ = HarnessMainExecutor.mainQueueKey
    guard pthread_key_create(&busyKey, nil) == 0 else { return }
    mainThread = pthread_self()
    TestBinaryFrame.start()
    isOn = true
  }

  /// Runs `block` (the real call), and tells where it blocked if it was on the one queue.
  static func watching<Result>(_ call: StaticString, _ block: () -> Result) -> Result {
    guard isOn, pthread_getspecific(busyKey) == nil else { return block() }
    pthread_setspecific(busyKey, UnsafeRawPointer(bitPattern: 1))
    defer { pthread_setspecific(busyKey, nil) }
    guard isOnQueueThread else { return block() }
    let name = "\(call)"
    let stack = isDue(call: name, place: TestBinaryFrame.key()) ? TestBinaryFrame.stack() : nil
    let result = block()
    if let stack { EventOutput.write(.threadBlocked(call: name, frame: nil, stack: stack)) }
    return result
  }

  /// A run loop asked to run on the queue's thread found nothing it may run: a job of the queue
  /// is already running on it, so the queue's own jobs wait for it. `XCTWaiter.wait(for:)` (a
  /// synchronous `fulfillment(of:timeout:)` shim in async code) then spins until its timeout,
  /// in no blocking call. The run loop XCTest spins around an async test serves the queue and is
  /// never idle there. Sampled at most every `spinSample`: the spin calls this millions of times.
  /// The frame is often unnamed: Swift's unwinder stops at Foundation's `RunLoop.run(mode:before:)`
  /// (glibc's `backtrace()` gets past it, with no names to read).
  static func sawIdleRunLoop() {
    guard isOn, pthread_getspecific(busyKey) == nil, isOnQueueThread else { return }
    let now = ContinuousClock.now
    let due = lastSpinSample.withLock { last in
      guard last.map({ now - $0 >= spinSample }) ?? true else { return false }
      last = now
      return true
    }
    guard due else { return }
    pthread_setspecific(busyKey, UnsafeRawPointer(bitPattern: 1))
    defer { pthread_setspecific(busyKey, nil) }
    EventOutput.write(.threadBlocked(call: ThreadBlocks.idleRunLoop, frame: nil, stack: TestBinaryFrame.stack()))
  }

  private static let spinSample = Duration.milliseconds(50)
  private static let lastSpinSample = Mutex<ContinuousClock.Instant?>(nil)

  /// Whether the calling thread runs the queue's jobs: the main thread, or one the main queue
  /// lent a job to.
  private static var isOnQueueThread: Bool {
    pthread_equal(pthread_self(), mainThread) != 0
      || DispatchQueue.getSpecific(key: HarnessMainExecutor.mainQueueKey) == true
  }

  /// Whether a block at `place` via `call` is to be told: a place not told in the last 5 ms.
  private static func isDue(call: String, place: Int) -> Bool {
    var hasher = Hasher()
    hasher.combine(call)
    hasher.combine(place)
    let key = hasher.finalize()
    let now = ContinuousClock.now
    return lastTold.withLock { last in
      guard last == nil || last!.place != key || now - last!.at >= .milliseconds(5) else { return false }
      last = (key, now)
      return true
    }
  }
}

// The blocking calls, each passed on to the real one. Public: a release build exports a
// `@_cdecl` function only if it is. A condition variable's wait goes to the version programs
// link today (GLIBC_2.3.2; `RealCall`): glibc keeps the 2002 one beside it, whose wait on a
// condition variable of today would lose wake-ups, and `dlsym` may find either.

@_cdecl("usleep")
public func watchedUsleep(_ microseconds: UInt32) -> Int32 {
  BlockWatch.watching("usleep") { RealCall.usleep(microseconds) }
}

@_cdecl("nanosleep")
public func watchedNanosleep(_ duration: UnsafeRawPointer?, _ remaining: UnsafeMutableRawPointer?) -> Int32 {
  BlockWatch.watching("nanosleep") { RealCall.nanosleep(duration, remaining) }
}

@_cdecl("clock_nanosleep")
public func watchedClockNanosleep(
  _ clock: Int32, _ flags: Int32, _ duration: UnsafeRawPointer?, _ remaining: UnsafeMutableRawPointer?
) -> Int32 {
  BlockWatch.watching("clock_nanosleep") { RealCall.clockNanosleep(clock, flags, duration, remaining) }
}

@_cdecl("dispatch_semaphore_wait")
public func watchedSemaphoreWait(_ semaphore: OpaquePointer?, _ timeout: UInt64) -> Int {
  BlockWatch.watching("DispatchSemaphore.wait") { RealCall.semaphoreWait(semaphore, timeout) }
}

/// Whether a run loop has nothing to run in a mode: asked by `RunLoop.run(mode:before:)` before
/// it runs, the first sign of a run loop spun inside a job of the queue it would serve.
@_cdecl("_CFRunLoopFinished")
public func watchedRunLoopFinished(_ runLoop: OpaquePointer?, _ mode: OpaquePointer?) -> UInt8 {
  let finished = RealCall.runLoopFinished(runLoop, mode)
  if finished != 0 { BlockWatch.sawIdleRunLoop() }
  return finished
}

@_cdecl("dispatch_group_wait")
public func watchedGroupWait(_ group: OpaquePointer?, _ timeout: UInt64) -> Int {
  BlockWatch.watching("DispatchGroup.wait") { RealCall.groupWait(group, timeout) }
}

@_cdecl("pthread_cond_wait")
public func watchedConditionWait(_ condition: OpaquePointer?, _ mutex: OpaquePointer?) -> Int32 {
  BlockWatch.watching("pthread_cond_wait") { RealCall.conditionWait(condition, mutex) }
}

/// `NSCondition.wait(until:)` waits here.
@_cdecl("pthread_cond_timedwait")
public func watchedConditionTimedWait(
  _ condition: OpaquePointer?, _ mutex: OpaquePointer?, _ deadline: UnsafeRawPointer?
) -> Int32 {
  BlockWatch.watching("pthread_cond_timedwait") { RealCall.conditionTimedWait(condition, mutex, deadline) }
}

@_cdecl("pthread_cond_clockwait")
public func watchedConditionClockWait(
  _ condition: OpaquePointer?, _ mutex: OpaquePointer?, _ clock: Int32, _ deadline: UnsafeRawPointer?
) -> Int32 {
  BlockWatch.watching("pthread_cond_clockwait") { RealCall.conditionClockWait(condition, mutex, clock, deadline) }
}

@_cdecl("sem_wait")
public func watchedPOSIXSemaphoreWait(_ semaphore: OpaquePointer?) -> Int32 {
  BlockWatch.watching("sem_wait") { RealCall.posixSemaphoreWait(semaphore) }
}

@_cdecl("sem_timedwait")
public func watchedPOSIXSemaphoreTimedWait(_ semaphore: OpaquePointer?, _ deadline: UnsafeRawPointer?) -> Int32 {
  BlockWatch.watching("sem_timedwait") { RealCall.posixSemaphoreTimedWait(semaphore, deadline) }
}

@_cdecl("sem_clockwait")
public func watchedPOSIXSemaphoreClockWait(
  _ semaphore: OpaquePointer?, _ clock: Int32, _ deadline: UnsafeRawPointer?
) -> Int32 {
  BlockWatch.watching("sem_clockwait") { RealCall.posixSemaphoreClockWait(semaphore, clock, deadline) }
}

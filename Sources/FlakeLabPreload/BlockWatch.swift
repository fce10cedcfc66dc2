import Dispatch
import FlakeLab
import Foundation
import Synchronization

/// Sees a test block its one queue's thread, inside the test process, under the executors that
/// run every job on one queue: while the thread sleeps or waits on a semaphore, a group or a
/// condition, no job can run, and work the test waits for never comes, however short the wait.
///
/// The harness defines the blocking calls (below); each asks whether it is on the queue,
/// captures the stack's return addresses (nothing is named here, see `TestBinaryFrame`), tells
/// the supervisor (`threadBlocked`), which names the innermost function of the test binary: the
/// test, or the helper that blocks (a package's own `fulfillment(of:timeout:)` shim), and then
/// runs the real call. It also sees a run loop with nothing to run on the queue's thread
/// (``sawIdleRunLoop()``). It tells an iteration's first block in each blocking function, then
/// that function's at most every 50 ms: each iteration that blocks says so, a wait that follows
/// a short sleep is told too, and a helper polling with 1 ms sleeps for 300 ms says it seven
/// times, not three hundred. A call in between costs two clock reads and a lock: keying each call
/// by its place, its innermost frames (an unwind of eight, about 2 µs), made a thousand zero
/// sleeps checked against a budget fail 53 times in 100 passes on one queue against 22 in plain
/// runs, and each block told costs a stack and an event, which wakes the supervisor.
///
/// A sleep, and a wait that may be long or never return, is told before it, so that what the
/// watch costs falls inside it, where the test's clock cannot see it: a sleep for a duration is
/// shortened by the time the watch took, and a wait that never returns is told too. Told after
/// it, a 5 ms sleep checked against a thin bound failed in every pass on one queue. A wait to a
/// deadline at most ``shortWait`` away is told when it returns: told before, the watch's work
/// at the start of the wait made a condition variable signalled by another thread after 2 ms
/// and waited for until 2.1 ms miss its deadline 51 times in 100 passes on one queue, against 16
/// in plain runs and 30 under global; told after, 27 (global 24, plain 12).
enum BlockWatch {
  /// Set when the process runs on one queue.
  nonisolated(unsafe) private static var isOn = false
  /// Set on a thread inside the watch, so that what the watch calls never watches itself.
  nonisolated(unsafe) private static var busyKey = pthread_key_t()
  /// The process's main thread, where the harness starts: told apart without Foundation, which a
  /// condition variable's wait deep in a library must not call into.
  nonisolated(unsafe) private static var mainThread = pthread_self()
  /// The function last told (its name's address: one literal a function) and when.
  private static let lastTold = Mutex<(call: UInt, at: ContinuousClock.Instant)?>(nil)

  static func start() {
    _ = HarnessMainExecutor.mainQueueKey
    guard pthread_key_create(&busyKey, nil) == 0 else { return }
    mainThread = pthread_self()
    TestBinaryFrame.start()
    warmUp()
    isOn = true
  }

  /// Goes once through what a watched call does, its event built and not written: a process
  /// pays for a path's first run (type metadata, conformance lookups, the first capture), and
  /// a test that times its first sleep must not.
  private static func warmUp() {
    let call: StaticString = "usleep"
    let name = "\(call)"
    _ = isDue(call, at: .now)
    _ = Array(TestEvent.threadBlocked(call: name, frame: nil, stack: TestBinaryFrame.stack()).line.utf8)
    lastTold.withLock { $0 = nil }
  }

  /// The longest wait to a deadline that is told when it returns, not before: a block told this
  /// much later still falls in its iteration, whose timeout is seconds.
  static let shortWait = Duration.milliseconds(50)

  /// Tells where the call blocks if it is on the one queue, then runs `block` (the real call),
  /// given the time the watch took, which a sleep for a duration takes off it. A wait whose
  /// deadline is `deadlineIn` away (read only on the queue's thread), at most ``shortWait``, is
  /// told after it instead.
  static func watching<Result>(
    _ call: StaticString, deadlineIn: @autoclosure () -> Duration? = nil, _ block: (_ watchTook: Duration) -> Result
  ) -> Result {
    guard isOn, pthread_getspecific(busyKey) == nil else { return block(.zero) }
    pthread_setspecific(busyKey, UnsafeRawPointer(bitPattern: 1))
    defer { pthread_setspecific(busyKey, nil) }
    guard isOnQueueThread else { return block(.zero) }
    let start = ContinuousClock.now
    if let deadline = deadlineIn(), deadline <= shortWait {
      let result = block(.zero)
      tell(call, at: start)
      return result
    }
    tell(call, at: start)
    return block(ContinuousClock.now - start)
  }

  private static func tell(_ call: StaticString, at start: ContinuousClock.Instant) {
    if isDue(call, at: start), let stack = TestBinaryFrame.stack() {
      EventOutput.write(.threadBlocked(call: "\(call)", frame: nil, stack: stack))
    }
  }

  /// How far `deadline`, a `timespec` on `clock`, is from now; nil without one.
  static func time(until deadline: UnsafeRawPointer?, on clock: clockid_t) -> Duration? {
    guard let deadline else { return nil }
    let end = deadline.load(as: timespec.self)
    var now = timespec()
    guard clock_gettime(clock, &now) == 0 else { return nil }
    return .seconds(end.tv_sec - now.tv_sec) + .nanoseconds(end.tv_nsec - now.tv_nsec)
  }

  /// How far a Dispatch timeout is from now, when it is one on the clock of `DispatchTime`
  /// (`CLOCK_MONOTONIC` in nanoseconds, the two top bits clear); nil for `.distantFuture` and
  /// for wall-clock timeouts, which are told before their wait as a wait that may be long.
  static func time(untilDispatchTimeout timeout: UInt64) -> Duration? {
    guard timeout >> 62 == 0 else { return nil }
    var now = timespec()
    guard clock_gettime(CLOCK_MONOTONIC, &now) == 0 else { return nil }
    return .nanoseconds(Int64(timeout)) - .seconds(now.tv_sec) - .nanoseconds(now.tv_nsec)
  }

  /// A run loop asked to run on the queue's thread found nothing it may run: a job of the queue
  /// is already running on it, so the queue's own jobs wait for it. `XCTWaiter.wait(for:)` (a
  /// synchronous `fulfillment(of:timeout:)` shim in async code) then spins until its timeout,
  /// in no blocking call. The run loop XCTest spins around an async test serves the queue and is
  /// never idle there. Sampled at most every `spinSample`: the spin calls this millions of times.
  /// The frame is often unnamed: Swift's unwinder stops at Foundation's `RunLoop.run(mode:before:)`
  /// (the unwinder the harness uses, glibc's, gets past it, with no names to read).
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

  /// A test's iteration begins (XCTest's run of a test, Swift Testing's start of one): its first
  /// block is told, however soon after the last iteration's.
  static func iterationBegins() {
    lastTold.withLock { $0 = nil }
  }

  /// Whether a block in `call` at `now` is to be told: the iteration's first, another function
  /// than the one told last, or none told in the last 50 ms.
  private static func isDue(_ call: StaticString, at now: ContinuousClock.Instant) -> Bool {
    let function = UInt(bitPattern: call.utf8Start)
    return lastTold.withLock { last in
      guard last.map({ $0.call != function || now - $0.at >= .milliseconds(50) }) ?? true else { return false }
      last = (function, now)
      return true
    }
  }
}

// The blocking calls, each passed on to the real one; a wait to a deadline as it was asked
// (Dispatch's, the condition variables' and semaphores' timed waits), a sleep for a duration
// less the time the watch took before it. Public: a release build exports a
// `@_cdecl` function only if it is. A condition variable's wait goes to the version programs
// link today (GLIBC_2.3.2; `RealCall`): glibc keeps the 2002 one beside it, whose wait on a
// condition variable of today would lose wake-ups, and `dlsym` may find either.

@_cdecl("usleep")
public func watchedUsleep(_ microseconds: UInt32) -> Int32 {
  BlockWatch.watching("usleep") { watchTook in
    let took = UInt32(
      clamping: watchTook.components.seconds * 1_000_000 + watchTook.components.attoseconds / 1_000_000_000_000)
    return RealCall.usleep(microseconds > took ? microseconds - took : 0)
  }
}

@_cdecl("nanosleep")
public func watchedNanosleep(_ duration: UnsafeRawPointer?, _ remaining: UnsafeMutableRawPointer?) -> Int32 {
  BlockWatch.watching("nanosleep") { watchTook in
    shortened(duration, by: watchTook) { RealCall.nanosleep($0, remaining) }
  }
}

@_cdecl("clock_nanosleep")
public func watchedClockNanosleep(
  _ clock: Int32, _ flags: Int32, _ duration: UnsafeRawPointer?, _ remaining: UnsafeMutableRawPointer?
) -> Int32 {
  BlockWatch.watching("clock_nanosleep") { watchTook in
    // A sleep to an absolute time (TIMER_ABSTIME) ends when it would have.
    shortened(duration, by: flags & TIMER_ABSTIME == 0 ? watchTook : .zero) {
      RealCall.clockNanosleep(clock, flags, $0, remaining)
    }
  }
}

/// Calls `sleep` with the `timespec` at `duration` less `watchTook`, or as it is when there is
/// nothing to take off or it is not a valid duration (the real call says so).
private func shortened(
  _ duration: UnsafeRawPointer?, by watchTook: Duration, _ sleep: (UnsafeRawPointer?) -> Int32
) -> Int32 {
  guard let duration, watchTook > .zero else { return sleep(duration) }
  let request = duration.load(as: timespec.self)
  guard request.tv_sec >= 0, (0..<1_000_000_000).contains(request.tv_nsec) else { return sleep(duration) }
  let left = max(.zero, .seconds(request.tv_sec) + .nanoseconds(request.tv_nsec) - watchTook)
  var shorter = timespec(
    tv_sec: Int(left.components.seconds), tv_nsec: Int(left.components.attoseconds / 1_000_000_000))
  return withUnsafePointer(to: &shorter) { sleep(UnsafeRawPointer($0)) }
}

@_cdecl("dispatch_semaphore_wait")
public func watchedSemaphoreWait(_ semaphore: OpaquePointer?, _ timeout: UInt64) -> Int {
  BlockWatch.watching("DispatchSemaphore.wait", deadlineIn: BlockWatch.time(untilDispatchTimeout: timeout)) { _ in
    RealCall.semaphoreWait(semaphore, timeout)
  }
}

/// Whether a run loop has nothing to run in a mode: asked by `RunLoop.run(mode:before:)` before
/// it runs, the first sign of a run loop spun inside a job of the queue it would serve.
@_cdecl("_CFRunLoopFinished")
public func watchedRunLoopFinished(_ runLoop: OpaquePointer?, _ mode: OpaquePointer?) -> UInt8 {
  guard let real = RealCall.runLoopFinished else { return 1 }
  let finished = real(runLoop, mode)
  if finished != 0 { BlockWatch.sawIdleRunLoop() }
  return finished
}

@_cdecl("dispatch_group_wait")
public func watchedGroupWait(_ group: OpaquePointer?, _ timeout: UInt64) -> Int {
  BlockWatch.watching("DispatchGroup.wait", deadlineIn: BlockWatch.time(untilDispatchTimeout: timeout)) { _ in
    RealCall.groupWait(group, timeout)
  }
}

@_cdecl("pthread_cond_wait")
public func watchedConditionWait(_ condition: OpaquePointer?, _ mutex: OpaquePointer?) -> Int32 {
  BlockWatch.watching("pthread_cond_wait") { _ in RealCall.conditionWait(condition, mutex) }
}

/// `NSCondition.wait(until:)` waits here. Its deadline is taken as on the wall clock, a condition
/// variable's own unless it was made with another (then the wait is told when it returns).
@_cdecl("pthread_cond_timedwait")
public func watchedConditionTimedWait(
  _ condition: OpaquePointer?, _ mutex: OpaquePointer?, _ deadline: UnsafeRawPointer?
) -> Int32 {
  BlockWatch.watching("pthread_cond_timedwait", deadlineIn: BlockWatch.time(until: deadline, on: CLOCK_REALTIME)) { _ in
    RealCall.conditionTimedWait(condition, mutex, deadline)
  }
}

@_cdecl("pthread_cond_clockwait")
public func watchedConditionClockWait(
  _ condition: OpaquePointer?, _ mutex: OpaquePointer?, _ clock: Int32, _ deadline: UnsafeRawPointer?
) -> Int32 {
  BlockWatch.watching("pthread_cond_clockwait", deadlineIn: BlockWatch.time(until: deadline, on: clock)) { _ in
    RealCall.conditionClockWait(condition, mutex, clock, deadline)
  }
}

@_cdecl("sem_wait")
public func watchedPOSIXSemaphoreWait(_ semaphore: OpaquePointer?) -> Int32 {
  BlockWatch.watching("sem_wait") { _ in RealCall.posixSemaphoreWait(semaphore) }
}

@_cdecl("sem_timedwait")
public func watchedPOSIXSemaphoreTimedWait(_ semaphore: OpaquePointer?, _ deadline: UnsafeRawPointer?) -> Int32 {
  BlockWatch.watching("sem_timedwait", deadlineIn: BlockWatch.time(until: deadline, on: CLOCK_REALTIME)) { _ in
    RealCall.posixSemaphoreTimedWait(semaphore, deadline)
  }
}

@_cdecl("sem_clockwait")
public func watchedPOSIXSemaphoreClockWait(
  _ semaphore: OpaquePointer?, _ clock: Int32, _ deadline: UnsafeRawPointer?
) -> Int32 {
  BlockWatch.watching("sem_clockwait", deadlineIn: BlockWatch.time(until: deadline, on: clock)) { _ in
    RealCall.posixSemaphoreClockWait(semaphore, clock, deadline)
  }
}

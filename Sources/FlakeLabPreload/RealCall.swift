import FlakeLab
import Foundation

/// The C library's and Dispatch's own blocking calls (sleeps, condition variable and semaphore
/// waits, Dispatch's semaphore and group waits), and Foundation's `_CFRunLoopFinished` and
/// `CFRunLoopStop`, which the harness's definitions pass on to: each found once, the next
/// definition after the harness's; of the version programs link today where glibc keeps an
/// older one beside it.
enum RealCall {
  private static func next<Function>(_ name: String, version: String? = nil, as type: Function.Type) -> Function {
    let found =
      version.flatMap { SystemCalls.symbol(name, version: $0, as: type) }
      ?? SystemCalls.symbol(name, as: type, next: true)
    guard let found else { fatalError("no \(name) to call") }
    return found
  }

  typealias Sleep = @convention(c) (UInt32) -> Int32
  typealias Nanosleep = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
  typealias ClockNanosleep =
    @convention(c) (Int32, Int32, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
  typealias DispatchWait = @convention(c) (OpaquePointer?, UInt64) -> Int
  typealias RunLoopFinished = @convention(c) (OpaquePointer?, OpaquePointer?) -> UInt8
  typealias RunLoopStop = @convention(c) (OpaquePointer?) -> Void

  typealias ConditionWait = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
  typealias ConditionTimedWait = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeRawPointer?) -> Int32
  typealias ConditionClockWait = @convention(c) (OpaquePointer?, OpaquePointer?, Int32, UnsafeRawPointer?) -> Int32
  typealias SemaphoreWait = @convention(c) (OpaquePointer?) -> Int32
  typealias SemaphoreTimedWait = @convention(c) (OpaquePointer?, UnsafeRawPointer?) -> Int32
  typealias SemaphoreClockWait = @convention(c) (OpaquePointer?, Int32, UnsafeRawPointer?) -> Int32

  static let usleep = next("usleep", as: Sleep.self)
  static let conditionWait = next("pthread_cond_wait", version: "GLIBC_2.3.2", as: ConditionWait.self)
  static let conditionTimedWait = next("pthread_cond_timedwait", version: "GLIBC_2.3.2", as: ConditionTimedWait.self)
  static let conditionClockWait = next("pthread_cond_clockwait", version: "GLIBC_2.30", as: ConditionClockWait.self)
  static let posixSemaphoreWait = next("sem_wait", as: SemaphoreWait.self)
  static let posixSemaphoreTimedWait = next("sem_timedwait", as: SemaphoreTimedWait.self)
  static let posixSemaphoreClockWait = next("sem_clockwait", version: "GLIBC_2.30", as: SemaphoreClockWait.self)
  static let nanosleep = next("nanosleep", as: Nanosleep.self)
  static let clockNanosleep = next("clock_nanosleep", as: ClockNanosleep.self)
  static let semaphoreWait = next("dispatch_semaphore_wait", as: DispatchWait.self)
  static let groupWait = next("dispatch_group_wait", as: DispatchWait.self)
  /// Foundation's own (CoreFoundation's SPI), found at the harness's start like glibc's: found
  /// on first use, its lookup fell inside `XCTWaiter`'s wait, between the waiter's check of its
  /// expectations and the run loop's start, where a fulfilment's stop is lost and the wait runs
  /// out its 0.1 s turn (XCTest waits so around every test's async `setUp` and `tearDown`). A
  /// 63-test XCTest binary with the harness loaded waited out 29 turns in 30 runs, against 19
  /// plain; with the lookup at the start, 24 in 50 runs against 26. Nil in a Foundation without
  /// it, which never calls it.
  static let runLoopFinished = SystemCalls.symbol("_CFRunLoopFinished", as: RunLoopFinished.self, next: true)
  /// CoreFoundation's `CFRunLoopStop`, which the harness's definition passes on to
  /// (``DroppedStopRescue``). Nil in a Foundation without it, which never calls it.
  static let runLoopStop = SystemCalls.symbol("CFRunLoopStop", as: RunLoopStop.self, next: true)

  /// Finds the calls every glibc has now, and Foundation's, at the harness's start. Found on
  /// first use, each lookup (`dlsym` through every library loaded, Foundation's ICU among them)
  /// fell inside a test's first sleep or wait, in the time it measures: a process's first 5 ms
  /// sleep took 57 µs longer at the median, and a test that bounds it at 5.15 ms failed half its
  /// first runs. The waits glibc added in 2.30 stay found on first use: found now, a glibc
  /// without them would end every process.
  static func findAtStart() {
    _ = (usleep, nanosleep, clockNanosleep, semaphoreWait, groupWait)
    _ = (conditionWait, conditionTimedWait, posixSemaphoreWait, posixSemaphoreTimedWait, runLoopFinished, runLoopStop)
    // And a sleep of nothing through the harness's own definition, its first run paid here.
    var nothing = timespec(tv_sec: 0, tv_nsec: 0)
    _ = withUnsafePointer(to: &nothing) { watchedNanosleep(UnsafeRawPointer($0), nil) }
  }
}

import FlakeLab
import Foundation

/// The C library's and Dispatch's own blocking calls (sleeps, semaphore and group waits), and
/// Foundation's `_CFRunLoopFinished`, which the harness's definitions pass on to: each found once, the next
/// definition after the harness's.
enum RealCall {
  private static func next<Function>(_ name: String, as type: Function.Type) -> Function {
    guard let function = SystemCalls.symbol(name, as: type, next: true) else { fatalError("no \(name) to call") }
    return function
  }

  typealias Sleep = @convention(c) (UInt32) -> Int32
  typealias Nanosleep = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
  typealias ClockNanosleep =
    @convention(c) (Int32, Int32, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
  typealias DispatchWait = @convention(c) (OpaquePointer?, UInt64) -> Int
  typealias RunLoopFinished = @convention(c) (OpaquePointer?, OpaquePointer?) -> UInt8

  static let usleep = next("usleep", as: Sleep.self)
  static let nanosleep = next("nanosleep", as: Nanosleep.self)
  static let clockNanosleep = next("clock_nanosleep", as: ClockNanosleep.self)
  static let semaphoreWait = next("dispatch_semaphore_wait", as: DispatchWait.self)
  static let groupWait = next("dispatch_group_wait", as: DispatchWait.self)
  /// Foundation's own (CoreFoundation's SPI), found the first time Foundation calls it.
  static let runLoopFinished = next("_CFRunLoopFinished", as: RunLoopFinished.self)
}

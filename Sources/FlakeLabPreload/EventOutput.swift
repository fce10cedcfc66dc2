import FlakeLab
import Foundation

/// Writes test events to the supervisor's pipe (see `TestEventFeed`), through a descriptor of
/// the harness's own.
///
/// The supervisor hands the pipe over at a descriptor it drew at random
/// (`HarnessConfiguration.channel`). The harness duplicates it first thing, before the test
/// runs, and checks before every write that its duplicate is still that pipe: a test that
/// closes descriptors and opens files of its own never gets the harness's events in them.
enum EventOutput {
  nonisolated(unsafe) private(set) static var descriptor: Int32 = -1
  nonisolated(unsafe) private static var pipe: (device: UInt64, inode: UInt64)?

  /// Takes over the supervisor's pipe at `channel`; with `closingChannel`, the number itself
  /// is freed (XCTest: only the harness writes events). Swift Testing opens `/dev/fd/<channel>`
  /// itself, so there the number stays.
  static func adopt(_ channel: Int32, closingChannel: Bool) {
    // Above the channel too: out of reach of a test that tidies up the low descriptors.
    descriptor = fcntl(channel, F_DUPFD_CLOEXEC, channel + 1)
    pipe = identity(of: descriptor)
    if closingChannel, descriptor >= 0 { close(channel) }
  }

  static func write(_ event: TestEvent) {
    writeAll(Array(event.line.utf8))
  }

  /// Writes `bytes` whole, unless the harness's descriptor is no longer the supervisor's pipe.
  static func writeAll(_ bytes: some Collection<UInt8>) {
    guard let pipe, identity(of: descriptor).map({ $0 == pipe }) == true else { return }
    SystemCalls.writeAll(bytes, to: descriptor)
  }

  private static func identity(of descriptor: Int32) -> (device: UInt64, inode: UInt64)? {
    var status = stat()
    guard descriptor >= 0, fstat(descriptor, &status) == 0 else { return nil }
    return (UInt64(status.st_dev), UInt64(status.st_ino))
  }
}

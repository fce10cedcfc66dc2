import FlakeLab
import Foundation

/// A descriptor of the harness's own onto a pipe of the supervisor's, written only while it is
/// still that pipe: a test that closes descriptors and opens files of its own never finds the
/// harness's events in them.
struct OwnedPipe {
  let descriptor: Int32
  private let pipe: (device: UInt64, inode: UInt64)?

  /// Duplicates `channel` above its own number, out of reach of a test that tidies up the low
  /// descriptors.
  init(duplicating channel: Int32) {
    descriptor = fcntl(channel, F_DUPFD_CLOEXEC, channel + 1)
    pipe = Self.identity(of: descriptor)
  }

  /// Writes `bytes` whole, unless the descriptor is no longer the pipe it was.
  func write(_ bytes: some Collection<UInt8>) {
    guard let pipe, Self.identity(of: descriptor).map({ $0 == pipe }) == true else { return }
    SystemCalls.writeAll(bytes, to: descriptor)
  }

  private static func identity(of descriptor: Int32) -> (device: UInt64, inode: UInt64)? {
    var status = stat()
    guard descriptor >= 0, fstat(descriptor, &status) == 0 else { return nil }
    return (UInt64(status.st_dev), UInt64(status.st_ino))
  }
}

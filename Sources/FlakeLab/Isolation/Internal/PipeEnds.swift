import Foundation

/// A pipe whose ends are closed on exec, so a worker spawned later never inherits another's.
/// (The supervisor spawns from one thread, so nothing can fork between `pipe` and `fcntl`.)
package struct PipeEnds {
  package let readEnd: Int32
  package let writeEnd: Int32

  /// Linux's `F_SETPIPE_SZ`, which Glibc's module does not export.
  private static let setPipeSize: Int32 = 1031

  package init(capacity: Int32? = nil) throws {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw SystemError("pipe") }
    (readEnd, writeEnd) = (ends[0], ends[1])
    _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
    _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
    if let capacity { _ = fcntl(readEnd, Self.setPipeSize, capacity) }
  }

  package func makeReadEndNonBlocking() {
    _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
  }
}

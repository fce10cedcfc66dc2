import Foundation
import Synchronization

/// A region of memory shared by the supervisor and one worker process: a file that is unlinked as
/// soon as it is open, mapped `MAP_SHARED` by both, handed to the worker as a file descriptor.
///
/// What the worker writes here survives the worker: when it traps or is killed, everything it
/// had published is still readable by the supervisor. That is what lets a crash cost one
/// iteration and never the results before it.
final class SharedRegion: @unchecked Sendable {
  let fileDescriptor: Int32
  let base: UnsafeMutableRawPointer
  let size: Int

  /// A new zero-filled region of `size` bytes.
  convenience init(size: Int) throws {
    var template = Array("\(NSTemporaryDirectory())/flakelab-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { throw SystemError("mkstemp") }
    unlink(template)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    guard ftruncate(descriptor, off_t(size)) == 0 else {
      close(descriptor)
      throw SystemError("ftruncate")
    }
    try self.init(owning: descriptor, size: size)
  }

  /// The region behind a descriptor someone else owns, such as the one a worker inherits. The
  /// region keeps a duplicate of its own, so each region closes only what it opened, even when
  /// both ends of a channel live in one process.
  convenience init(mapping descriptor: Int32, size: Int) throws {
    let duplicate = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
    guard duplicate >= 0 else { throw SystemError("dup") }
    try self.init(owning: duplicate, size: size)
  }

  private init(owning descriptor: Int32, size: Int) throws {
    guard let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
      pointer != MAP_FAILED
    else {
      close(descriptor)
      throw SystemError("mmap")
    }
    fileDescriptor = descriptor
    base = pointer
    self.size = size
  }

  deinit {
    munmap(base, size)
    close(fileDescriptor)
  }

  /// The atomic 64-bit word at `offset` (a multiple of 8).
  func word(at offset: Int) -> UnsafeMutablePointer<Atomic<Int>> {
    (base + offset).assumingMemoryBound(to: Atomic<Int>.self)
  }
}

/// A failed system call, with errno's text.
struct SystemError: Error, CustomStringConvertible {
  let description: String

  init(_ call: String) {
    description = "\(call) failed: \(String(cString: strerror(errno)))"
  }
}

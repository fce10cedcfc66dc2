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

  /// A new zero-filled region of `size` bytes, in memory (`memfd_create`) where the kernel has
  /// it, else in a file in the temporary directory that is unlinked at once. The bytes are
  /// reserved up front: a full file system is an error here, never a SIGBUS mid-run.
  convenience init(size: Int) throws {
    let descriptor = try Self.anonymousFile()
    let reserved = posix_fallocate(descriptor, 0, off_t(size))
    guard reserved == 0 else {
      close(descriptor)
      errno = reserved
      throw SystemError("reserving \(size / 1024) KiB of shared memory")
    }
    try self.init(owning: descriptor, size: size)
  }

  private static func anonymousFile() throws -> Int32 {
    try SystemCalls.anonymousFile(named: "flakelab-channel")
  }

  /// The region behind a descriptor someone else owns, such as the one a worker inherits. The
  /// region keeps a duplicate of its own, so each region closes only what it opened, even when
  /// both ends of a channel live in one process.
  convenience init(mapping descriptor: Int32, size: Int) throws {
    // Only a region of exactly this size is a channel: never write into whatever file the
    // descriptor happens to be.
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == size
    else {
      throw NotAnOutcomeChannel(descriptor: descriptor)
    }
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

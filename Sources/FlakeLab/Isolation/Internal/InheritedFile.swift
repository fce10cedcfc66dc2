import Foundation

/// Bytes a spawned process reads from a descriptor it inherits, `number`: what is too large for
/// its environment, whose every string Linux limits to 128 KiB (a suite's test IDs: 158 KB for
/// swift-atomics' 1,972 tests). An anonymous file, closed here when the launch is done with it:
/// nothing is left on disk whatever ends either process.
package final class InheritedFile {
  let descriptor: Int32
  /// The descriptor the process finds it at.
  package let number: Int32

  package init(_ bytes: some Collection<UInt8>, as number: Int32) throws {
    descriptor = try SystemCalls.anonymousFile(named: "flakelab-inherited")
    self.number = number
    guard SystemCalls.writeAll(bytes, to: descriptor) else {
      let error = SystemError("writing \(bytes.count) bytes for a worker")
      close(descriptor)
      throw error
    }
    // Read from its start by a reader that does not seek (`cat <&N`).
    lseek(descriptor, 0, SEEK_SET)
  }

  deinit {
    close(descriptor)
  }

  /// Everything in the file at `descriptor`, read from its start whatever its offset (several
  /// processes share an inherited one), then closed: the process's own children never see it.
  /// Also what reads the kernel's unbounded lists (``ProcessTree``).
  package static func readAll(_ descriptor: Int32) -> [UInt8]? {
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(bytes.count)) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { return nil }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
  }
}

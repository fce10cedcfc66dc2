import Foundation

/// Newline-terminated lines read from a descriptor as they arrive: an event stream read by the
/// supervisor, relayed by the harness, or left by a probe. A partial last line waits for its end.
///
/// The read buffer is kept between calls: the harness reads before every job it schedules.
package struct LineReader {
  package let descriptor: Int32
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)
  private var pending: [UInt8] = []

  package init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Reads until the descriptor has nothing more (now, if it is non-blocking; at end of file
  /// otherwise), hands each chunk read to `chunk` and each complete line to `line`.
  package mutating func read(
    chunk: (ArraySlice<UInt8>) -> Void = { _ in }, line: (ArraySlice<UInt8>) -> Void
  ) {
    while true {
      let count = Foundation.read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      chunk(buffer[..<count])
      pending += buffer[..<count]
    }
    var lineStart = pending.startIndex
    while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
      line(pending[lineStart..<newline])
      lineStart = newline + 1
    }
    pending.removeSubrange(..<lineStart)
  }

  /// Whether `line` contains `marker`, without decoding it.
  package static func line(_ line: ArraySlice<UInt8>, contains marker: [UInt8]) -> Bool {
    line.withContiguousStorageIfAvailable { $0.firstRange(of: marker) != nil } ?? false
  }
}

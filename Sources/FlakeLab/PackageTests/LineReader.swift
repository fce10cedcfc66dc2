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

  /// Whether `line` contains `marker`, without decoding it: `memmem`, which scans with the
  /// machine's vector instructions.
  package static func line(_ line: ArraySlice<UInt8>, contains marker: [UInt8]) -> Bool {
    line.withContiguousStorageIfAvailable { bytes in
      guard let base = bytes.baseAddress else { return false }
      return marker.withUnsafeBytes { SystemCalls.find($0, in: base, count: bytes.count) != nil }
    } ?? false
  }

  /// Whether a `"kind": "…"` member of `line` has one of `kinds` as its value, without decoding
  /// the line: one scan for the key, however many kinds are asked about. The bytes `"kind"`
  /// followed by a colon can only be a key: inside a JSON string a quote is escaped.
  package static func line(_ line: ArraySlice<UInt8>, hasKindAmong kinds: [[UInt8]]) -> Bool {
    line.withContiguousStorageIfAvailable { bytes in
      guard let base = bytes.baseAddress else { return false }
      var offset = 0
      while offset < bytes.count,
        let found = kindKey.withUnsafeBytes({ SystemCalls.find($0, in: base + offset, count: bytes.count - offset) })
      {
        var position = UnsafeRawPointer(base).distance(to: found) + kindKey.count
        func skipSpaces() {
          while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
        }
        skipSpaces()
        if position < bytes.count, bytes[position] == UInt8(ascii: ":") {
          position += 1
          skipSpaces()
          if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
            let start = position + 1
            if let end = memchr(base + start, Int32(UInt8(ascii: "\"")), bytes.count - start) {
              let value = UnsafeBufferPointer(
                start: base + start, count: base.distance(to: end.assumingMemoryBound(to: UInt8.self)) - start)
              if kinds.contains(where: { $0.elementsEqual(value) }) { return true }
            }
          }
        }
        offset = position
      }
      return false
    } ?? false
  }

  private static let kindKey = Array("\"kind\"".utf8)
}

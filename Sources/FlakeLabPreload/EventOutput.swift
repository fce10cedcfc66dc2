import FlakeLab
import Foundation

/// Writes test events to descriptor 3, the pipe the supervisor reads (see `TestEventFeed`).
enum EventOutput {
  static let descriptor: Int32 = 3

  static func write(_ event: TestEvent) {
    writeAll(Array(event.line.utf8), to: descriptor)
  }

  static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) {
    var bytes = Array(bytes)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      bytes = bytes.dropFirst(written)
    }
  }
}

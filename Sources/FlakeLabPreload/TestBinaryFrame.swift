import FlakeLab
import Foundation
import Runtime

/// Where on the calling thread's stack a watched call was made, captured as cheaply as a stack
/// can be: its return addresses alone, from glibc's `backtrace()`, which finds each library's
/// unwind table by a binary search (a few microseconds for a whole stack, the first time in a
/// process too). The supervisor names them (`StackSymbols`), outside the test's time: naming a
/// frame reads the binary's debug information, milliseconds the first time, which made a 5 ms
/// sleep take 117 ms on one queue.
enum TestBinaryFrame {
  /// Tells the supervisor the images the addresses lie in, with the test binary's name, and
  /// unwinds once, so that a test's first watched call does not pay what a first unwind costs
  /// (glibc loads `libgcc_s` for its first `backtrace()`).
  static func start() {
    returnAddresses(depth: stackDepth) { _ in }
    let images = ImageMap.capture()
    architecture = (try? Backtrace.capture(algorithm: .fast, limit: 1, images: images))?.architecture
    guard let encoded = try? JSONEncoder().encode(images),
      let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else { return }
    let name = URL(fileURLWithPath: program).lastPathComponent
    EventOutput.write(.stackImages(map: String(decoding: encoded, as: UTF8.self), program: name))
  }

  /// The calling thread's stack, encoded as a `Runtime.Backtrace` is (`Codable`: its compact
  /// format, version 0, 64-bit words, an absolute return address a frame), without images,
  /// which the supervisor has; nil before `start()` found the machine's architecture.
  static func stack() -> String? {
    guard let architecture else { return nil }
    var compact: [UInt8] = [0x02]
    returnAddresses(depth: stackDepth) { addresses in
      for address in addresses {
        compact.append(0x2F)
        withUnsafeBytes(of: UInt64(UInt(bitPattern: address)).bigEndian) { compact += $0 }
      }
    }
    compact.append(0x00)
    guard compact.count > 2 else { return nil }
    return #"{"architecture":""# + architecture + #"","backtrace":""# + Data(compact).base64EncodedString() + #""}"#
  }

  /// The machine's, as the Runtime module names it in a backtrace it captured (`x86_64`).
  nonisolated(unsafe) private static var architecture: String?

  private static let stackDepth = 64

  private static func returnAddresses(depth: Int, _ body: (UnsafeBufferPointer<UnsafeMutableRawPointer?>) -> Void) {
    guard let backtrace = glibcBacktrace else { return }
    withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: depth) { buffer in
      let count = Int(backtrace(buffer.baseAddress!, Int32(depth)))
      body(UnsafeBufferPointer(rebasing: buffer[..<max(0, count)]))
    }
  }

  private typealias Backtracer = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>, Int32) -> Int32
  private static let glibcBacktrace = SystemCalls.symbol("backtrace", as: Backtracer.self)
}

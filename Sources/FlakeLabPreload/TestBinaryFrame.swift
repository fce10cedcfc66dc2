import FlakeLab
import Foundation
import Runtime
import Synchronization

/// Where on the calling thread's stack a watched call was made, captured as cheaply as a stack
/// can be: its return addresses alone, from glibc's `backtrace()`, which finds each library's
/// unwind table by a binary search (a few microseconds for a whole stack, the first time in a
/// process too). The supervisor names them (`StackSymbols`), outside the test's time: naming a
/// frame reads the binary's debug information, milliseconds the first time, which made a 5 ms
/// sleep take 117 ms on one queue. Where the unwinder stops in a library function that has no
/// unwind table before it reaches the test binary, the return address into the test is read
/// off the stack just above that function's frame (``returnAddressPastTheUnwind()``).
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
    func text(of image: Backtrace.Image?) -> Range<UInt> {
      guard let image, let base = UInt(image.baseAddress), let end = UInt(image.endOfText), base < end else {
        return 0..<0
      }
      return base..<end
    }
    programText = text(of: images.first { $0.path == program })
    threadStartText = text(of: images.first { $0.path?.hasSuffix("/libc.so.6") == true })
    // The watch runs on this thread under XCTest: its stack's top is read here, not in a test.
    _ = stackTop()
    let name = URL(fileURLWithPath: program).lastPathComponent
    EventOutput.write(.stackImages(map: String(decoding: encoded, as: UTF8.self), program: name))
  }

  /// The calling thread's stack, encoded as a `Runtime.Backtrace` is (`Codable`: its compact
  /// format, version 0, 64-bit words, an absolute return address a frame), without images,
  /// which the supervisor has; nil before `start()` found the machine's architecture.
  static func stack() -> String? {
    guard let architecture else { return nil }
    var compact: [UInt8] = [0x02]
    func append(_ address: UInt) {
      compact.append(0x2F)
      withUnsafeBytes(of: UInt64(address).bigEndian) { compact += $0 }
    }
    returnAddresses(depth: stackDepth) { addresses in
      for address in addresses { append(UInt(bitPattern: address)) }
      if !addresses.contains(where: { programText.contains(UInt(bitPattern: $0)) }),
        let caller = returnAddressPastTheUnwind()
      {
        append(caller)
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

  /// The test binary's code: a return address in it is a frame of the test's.
  nonisolated(unsafe) private static var programText: Range<UInt> = 0..<0
  /// glibc's code, where every thread's stack begins (`clone3`, `__libc_start_call_main`): an
  /// unwind that ends there reached the thread's first frame, not a function it could not pass.
  nonisolated(unsafe) private static var threadStartText: Range<UInt> = 0..<0

  /// Where glibc's unwinder stops short of the test binary, at a library function with no unwind
  /// table (Swift 6.3's libswiftDispatch has none for `DispatchSemaphore.wait(timeout:)` and
  /// `DispatchGroup.wait(timeout:)`, each a push and a call), the first word above the frame it
  /// stopped at that is an address in the test binary's code: the return address into the test.
  /// Read only between that frame and the top of the thread's stack, a few words, and never when
  /// the unwind ended where the thread began: a stack with no frame of the test's names none.
  private static func returnAddressPastTheUnwind() -> UInt? {
    guard let unwind = unwindBacktrace, unwindFrameAddress != nil, unwindInstruction != nil, !programText.isEmpty,
      let top = stackTop()
    else { return nil }
    // Each frame overwrites these: the last frame the unwinder reached stays.
    var last: (frame: UInt, instruction: UInt) = (0, 0)
    _ = unwind(
      { context, last in
        last?.storeBytes(of: TestBinaryFrame.unwindFrameAddress?(context) ?? 0, as: UInt.self)
        last?.storeBytes(
          of: TestBinaryFrame.unwindInstruction?(context) ?? 0, toByteOffset: MemoryLayout<UInt>.stride, as: UInt.self)
        return 0
      }, &last)
    guard !threadStartText.contains(last.instruction) else { return nil }
    // A frame of this thread's stack, above this function's own, and aligned, or nothing is read.
    let lastFrame = last.frame
    let here = withUnsafePointer(to: &last) { UInt(bitPattern: $0) }
    guard here < lastFrame, lastFrame < top, lastFrame % UInt(MemoryLayout<UInt>.alignment) == 0,
      let words = UnsafePointer<UInt>(bitPattern: lastFrame)
    else { return nil }
    let count = min(scannedWords, Int((top - lastFrame) / UInt(MemoryLayout<UInt>.stride)))
    return UnsafeBufferPointer(start: words, count: count).first { programText.contains($0) }
  }

  private static let scannedWords = 16

  /// The top of the calling thread's stack, read once for the thread the watch runs on (the
  /// main thread's takes a read of /proc/self/maps).
  private static func stackTop() -> UInt? {
    let thread = pthread_self()
    if let known = knownStack.withLock({ $0 }), pthread_equal(known.thread, thread) != 0 { return known.top }
    var attributes = pthread_attr_t()
    guard let threadAttributes, threadAttributes(thread, &attributes) == 0 else { return nil }
    defer { pthread_attr_destroy(&attributes) }
    var base: UnsafeMutableRawPointer?
    var size = 0
    guard pthread_attr_getstack(&attributes, &base, &size) == 0, let base else { return nil }
    let top = UInt(bitPattern: base) + UInt(size)
    knownStack.withLock { $0 = (thread, top) }
    return top
  }

  private static let knownStack = Mutex<(thread: pthread_t, top: UInt)?>(nil)

  private typealias ThreadAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
  /// `pthread_getattr_np`, a GNU extension the Glibc module does not import.
  private static let threadAttributes = SystemCalls.symbol("pthread_getattr_np", as: ThreadAttributes.self)

  private typealias UnwindTrace = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
  private typealias UnwindBacktrace = @convention(c) (UnwindTrace, UnsafeMutableRawPointer?) -> Int32
  private typealias UnwindContextRead = @convention(c) (OpaquePointer?) -> UInt
  private static let unwindBacktrace = SystemCalls.symbol("_Unwind_Backtrace", as: UnwindBacktrace.self)
  /// `_Unwind_GetCFA`: in the frame the unwinder could not pass, the stack pointer where the
  /// function it called returned to.
  private static let unwindFrameAddress = SystemCalls.symbol("_Unwind_GetCFA", as: UnwindContextRead.self)
  /// `_Unwind_GetIP`: where that frame's function was, to tell a thread's first frame.
  private static let unwindInstruction = SystemCalls.symbol("_Unwind_GetIP", as: UnwindContextRead.self)
}

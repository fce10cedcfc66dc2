import FlakeLab
import Foundation
import Runtime
import Synchronization

/// Where on the calling thread's stack a watched call was made, captured as cheaply as a stack
/// can be: its return addresses alone, from the unwinder glibc's `backtrace()` calls, which finds
/// each library's unwind table by a binary search, as far as a few frames past the test's
/// (``Unwind``: 14–42 µs a block told, the median of twenty iterations on one queue, with code
/// and tables cold once a test has run). The supervisor names them (`StackSymbols`), outside the
/// test's time: naming a frame reads the binary's debug information, milliseconds the first
/// time, which made a 5 ms sleep take 117 ms on one queue. Where the unwinder stops in a library
/// function that has no unwind table before it reaches the test binary, the return address into
/// the test is read off the stack just above that function's frame (``returnAddressPast(_:)``).
enum TestBinaryFrame {
  /// Tells the supervisor the images the addresses lie in, with the test binary's name, and
  /// unwinds once, so that a test's first watched call does not pay what a first unwind costs.
  static func start() {
    _ = Unwind.capture()
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
    let unwind = Unwind.capture()
    for address in unwind.addresses { append(address) }
    if unwind.framesFromTheTest == 0, let caller = returnAddressPast(unwind) { append(caller) }
    compact.append(0x00)
    guard compact.count > 2 else { return nil }
    return #"{"architecture":""# + architecture + #"","backtrace":""# + Data(compact).base64EncodedString() + #""}"#
  }

  /// The machine's, as the Runtime module names it in a backtrace it captured (`x86_64`).
  nonisolated(unsafe) private static var architecture: String?

  /// The test binary's code: a return address in it is a frame of the test's.
  nonisolated(unsafe) private static var programText: Range<UInt> = 0..<0
  /// glibc's code, where every thread's stack begins (`clone3`, `__libc_start_call_main`): an
  /// unwind that ends there reached the thread's first frame, not a function it could not pass.
  nonisolated(unsafe) private static var threadStartText: Range<UInt> = 0..<0

  /// Where the unwinder stops short of the test binary, at a library function with no unwind
  /// table (Swift 6.3's libswiftDispatch has none for `DispatchSemaphore.wait(timeout:)` and
  /// `DispatchGroup.wait(timeout:)`, each a push and a call), the first word above the frame it
  /// stopped at that is an address in the test binary's code: the return address into the test.
  /// Read only between that frame and the top of the thread's stack, a few words, and never when
  /// the unwind ended where the thread began: a stack with no frame of the test's names none.
  private static func returnAddressPast(_ unwind: Unwind) -> UInt? {
    guard !programText.isEmpty, !threadStartText.contains(unwind.lastInstruction), let top = stackTop() else {
      return nil
    }
    // A frame of this thread's stack, above this function's own, and aligned, or nothing is read.
    let lastFrame = unwind.lastFrame
    var here = 0
    let below = withUnsafePointer(to: &here) { UInt(bitPattern: $0) }
    guard below < lastFrame, lastFrame < top, lastFrame % UInt(MemoryLayout<UInt>.alignment) == 0,
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

  /// The calling thread's return addresses, innermost first, from the unwinder (what glibc's
  /// `backtrace()` calls), stopped a few frames past the innermost frame of the test binary: the
  /// frames beyond, the test framework's and the thread's start, are about half of a stack and
  /// of its cost, paid on the test's thread, and name nothing (``StackSymbols`` takes the
  /// innermost frame a person wrote).
  private struct Unwind {
    var addresses: [UInt] = []
    /// Frames from the innermost in the test binary's code on, it included.
    var framesFromTheTest = 0
    /// Where the last frame reached was: its stack pointer (canonical frame address) and code.
    var lastFrame: UInt = 0
    var lastInstruction: UInt = 0

    /// At most this many frames in all.
    static let depth = 64
    /// Frames kept past the first in the test binary: thunks, then the test that called a
    /// helper, are among them.
    static let framesPastTheTest = 8

    static func capture() -> Unwind {
      var unwind = Unwind()
      unwind.addresses.reserveCapacity(depth)
      guard let backtrace = unwindBacktrace, unwindInstruction != nil, unwindFrameAddress != nil else { return unwind }
      withUnsafeMutablePointer(to: &unwind) { state in
        _ = backtrace(
          { context, state in
            guard let unwind = state?.assumingMemoryBound(to: Unwind.self),
              let instruction = TestBinaryFrame.unwindInstruction?(context), instruction != 0
            else { return Unwind.endOfStack }
            return unwind.pointee.add(instruction, frame: TestBinaryFrame.unwindFrameAddress?(context) ?? 0)
          }, state)
      }
      return unwind
    }

    /// Records a frame; the unwinder's reason to go on, or to stop here.
    private mutating func add(_ instruction: UInt, frame: UInt) -> Int32 {
      addresses.append(instruction)
      (lastInstruction, lastFrame) = (instruction, frame)
      if framesFromTheTest > 0 || programText.contains(instruction) { framesFromTheTest += 1 }
      return addresses.count < Self.depth && framesFromTheTest <= Self.framesPastTheTest ? 0 : Self.endOfStack
    }

    /// `_URC_END_OF_STACK`: a frame's callback returning it ends the unwind.
    private static let endOfStack: Int32 = 5
  }

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

import FlakeLab
import Foundation
import Runtime

/// The innermost function of the test binary on the calling thread's stack, by name and line:
/// where a test (or a helper of its package, a `fulfillment(of:timeout:)` shim) made the call
/// the harness is in. Swift's own backtracer walks the stack and reads the binary's debug
/// information. Code the compiler wrote is passed over for the code around it: an assertion's
/// autoclosure, a macro's expansion (`#expect`), the list of XCTest's tests. A stripped binary
/// has no lines: the function's name alone.
enum TestBinaryFrame {
  static func innermost() -> String? {
    guard let program, let backtrace = try? Backtrace.capture(algorithm: .precise, limit: 64),
      let symbolicated = backtrace.symbolicated()
    else { return nil }
    let frames = symbolicated.frames.compactMap(\.symbol).filter { $0.imageName == program }
    if let frame = frames.first(where: { !$0.isSwiftThunk && isWritten($0) }) {
      return frame.name + (frame.sourceLocation.map { " at \(relative($0.path)):\($0.line)" } ?? "")
    }
    // No line of its own (an assertion's autoclosure, called through a thunk): the function
    // that encloses it.
    return frames.lazy.map { enclosing($0.name) }.first { !$0.hasPrefix("$s") && !$0.contains("__allTests__") }
  }

  /// Whether the frame is in code a person wrote: a line of a source file, not a generated one.
  private static func isWritten(_ symbol: SymbolicatedBacktrace.Symbol) -> Bool {
    guard let location = symbol.sourceLocation, location.line > 0 else { return false }
    return !location.path.contains("swift-generated-sources") && !location.path.contains(".derived/")
  }

  /// `partial apply for implicit closure #1 in UploadTests.testUpload()` → `UploadTests.testUpload()`.
  private static func enclosing(_ name: String) -> String {
    var name = Substring(name)
    while true {
      if name.hasPrefix("partial apply for ") {
        name = name.dropFirst("partial apply for ".count)
      } else if let range = name.range(of: " in "), name.hasPrefix("closure #") || name.hasPrefix("implicit closure #") {
        name = name[range.upperBound...]
      } else {
        return String(name)
      }
    }
  }

  /// The main program's file name, as the backtracer names its image.
  private static let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    .map { URL(fileURLWithPath: $0).lastPathComponent }

  /// `path` from the package's directory, where the test process runs, when it is inside it.
  private static func relative(_ path: String) -> String {
    let directory = FileManager.default.currentDirectoryPath + "/"
    return path.hasPrefix(directory) ? String(path.dropFirst(directory.count)) : path
  }
}

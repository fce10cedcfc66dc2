import Foundation
import Runtime

/// Names where a test blocked its queue's thread, in the supervisor, from the return addresses
/// the harness captured in the test process: the innermost function of the test binary, with
/// its line, the test or the helper that blocks (a package's own `fulfillment(of:timeout:)`
/// shim).
///
/// The harness only captures the return addresses (`TestBinaryFrame`, before the wait it
/// watches, where the test's clock does not see it, or after a wait to a near deadline:
/// `BlockWatch`); reading the binary's debug information to
/// name a frame takes milliseconds, the first time a hundred: done on the blocked thread, it
/// made each watched call slower than the wait the test measured. Here it is done once the
/// test's process has ended (``TestEventFeed/blocks``), once per distinct stack.
final class StackSymbols {
  private let images: ImageMap?
  /// The test binary's file name, as the image map names it.
  private let program: String
  /// The package's directory, which the frames' paths are written from, as every answer writes
  /// a place.
  private let packagePath: String
  private var named: [String: String?] = [:]

  /// The symbols of the images `imageMap` (an encoded `ImageMap`) lists.
  init(imageMap: String, program: String, packagePath: String) {
    images = try? JSONDecoder().decode(ImageMap.self, from: Data(imageMap.utf8))
    self.program = program
    self.packagePath = packagePath
  }

  /// The innermost frame of the test binary in `stack` (an encoded `Backtrace`) that a person
  /// wrote: its function and line. Code the compiler wrote is passed over for the code around
  /// it: an assertion's autoclosure, a macro's expansion (`#expect`), the list of XCTest's
  /// tests. A stripped binary has no lines: the function's name alone.
  func frame(of stack: String) -> String? {
    if let known = named[stack] { return known }
    let frame = resolve(stack)
    named[stack] = frame
    return frame
  }

  private func resolve(_ stack: String) -> String? {
    guard let images, let backtrace = try? JSONDecoder().decode(Backtrace.self, from: Data(stack.utf8)),
      let symbolicated = backtrace.symbolicated(with: images)
    else { return nil }
    let frames = symbolicated.frames.compactMap(\.symbol).filter { $0.imageName == program }
    if let frame = frames.first(where: { !$0.isSwiftThunk && Self.isWritten($0) }) {
      return frame.name
        + (frame.sourceLocation.map {
          " at " + SourceLocation(path: $0.path, line: $0.line).place(relativeTo: packagePath)
        } ?? "")
    }
    // No line of its own (an assertion's autoclosure, called through a thunk): the function
    // that encloses it.
    return frames.lazy.map { Self.enclosing($0.name) }.first { !$0.hasPrefix("$s") && !$0.contains("__allTests__") }
  }

  /// Whether the frame is in code a person wrote: a line of a source file, not a generated one.
  private static func isWritten(_ symbol: SymbolicatedBacktrace.Symbol) -> Bool {
    guard let location = symbol.sourceLocation, location.line > 0 else { return false }
    return !location.path.contains("swift-generated-sources") && !location.path.contains(".derived/")
  }

  /// `partial apply for implicit closure #1 in UploadTests.testUpload()` → `UploadTests.testUpload()`.
  static func enclosing(_ name: String) -> String {
    var name = Substring(name)
    while true {
      if name.hasPrefix("partial apply for ") {
        name = name.dropFirst("partial apply for ".count)
      } else if let range = name.range(of: " in "), name.hasPrefix("closure #") || name.hasPrefix("implicit closure #")
      {
        name = name[range.upperBound...]
      } else {
        return String(name)
      }
    }
  }
}

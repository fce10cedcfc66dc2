import Foundation

/// The Swift runtime's demangler, as the toolchain's own tools call it.
@_silgen_name("swift_demangle")
private func swift_demangle(
  _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
  _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

enum SwiftDemangling {
  /// `$s5Races7CounterC4bumpyyF` → `Races.Counter.bump() -> ()`; a name that is not Swift's
  /// (`pthread_create`, a C++ function the sanitizer already demangled) as it is.
  static func demangled(_ symbol: String) -> String {
    guard symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") else { return symbol }
    return symbol.withCString { name in
      guard let result = swift_demangle(name, strlen(name), nil, nil, 0) else { return symbol }
      defer { free(result) }
      return String(cString: result)
    }
  }
}

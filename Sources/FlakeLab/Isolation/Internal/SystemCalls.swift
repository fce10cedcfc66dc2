import Foundation

/// The system calls Glibc's Swift module does not import, found once by name, in one place.
package enum SystemCalls {
  /// `prctl(option, argument, 0, 0, 0)`. glibc declares prctl variadic, which Swift does not
  /// import; every argument here is an integer, which the variadic and fixed calling
  /// conventions pass alike.
  @discardableResult
  package static func prctl(_ option: Int32, _ argument: UInt) -> Int32 {
    typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return -1 }
    return unsafeBitCast(symbol, to: Prctl.self)(option, argument, 0, 0, 0)
  }
}

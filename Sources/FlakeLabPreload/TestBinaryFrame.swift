import FlakeLab
import Foundation

/// The innermost function of the test binary on the calling thread's stack, by name: where a
/// test (or a helper of its package) made the call the harness is in.
///
/// The test binary is the process's main program: a return address inside its mappings is one
/// of its frames. Its name comes from the binary's symbol table (``ELFSymbols``), demangled by
/// the Swift runtime; a stripped binary has none, and nil says so.
enum TestBinaryFrame {
  static func innermost() -> String? {
    guard let backtrace, let program else { return nil }
    var addresses = [UnsafeMutableRawPointer?](repeating: nil, count: 64)
    let count = Int(backtrace(&addresses, Int32(addresses.count)))
    for address in addresses.prefix(count).compactMap({ $0 }).map({ UInt(bitPattern: $0) })
    where program.mappings.contains(where: { $0.contains(address) }) {
      // A return address is the instruction after the call: one back is inside the caller.
      return program.symbols.name(at: address - program.bias - 1).map(demangled)
    }
    return nil
  }

  private typealias Backtrace = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int32) -> Int32
  private static let backtrace = SystemCalls.symbol("backtrace", as: Backtrace.self)

  /// The main program: where it is mapped, the difference between its addresses in memory and
  /// in the file (a position-independent executable is loaded at a base of the kernel's
  /// choosing), and its symbols.
  private static let program: (mappings: [Range<UInt>], bias: UInt, symbols: ELFSymbols)? = {
    guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
      let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
      let symbols = ELFSymbols(path: path),
      let file = FileHandle(forReadingAtPath: path), let header = try? file.read(upToCount: 18), header.count == 18
    else { return nil }
    // `start-end perms offset dev inode path`, the path last.
    let mappings = maps.split(separator: "\n").compactMap { line -> Range<UInt>? in
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 6, fields[5...].joined(separator: " ") == path else { return nil }
      let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
      return bounds.count == 2 && bounds[0] < bounds[1] ? bounds[0]..<bounds[1] : nil
    }
    // ET_DYN (3): loaded at the lowest mapping; ET_EXEC: at the addresses the file gives.
    let isPositionIndependent = header[16] == 3
    return (mappings, isPositionIndependent ? mappings.map(\.lowerBound).min() ?? 0 : 0, symbols)
  }()

  /// A mangled Swift name as Swift writes it, without its return type; a name that is not
  /// Swift's as it is.
  private static func demangled(_ symbol: String) -> String {
    typealias Demangle = @convention(c) (
      UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
    ) -> UnsafeMutablePointer<CChar>?
    guard let demangle = SystemCalls.symbol("swift_demangle", as: Demangle.self),
      let text = symbol.withCString({ demangle($0, strlen($0), nil, nil, 0) })
    else { return symbol }
    defer { free(text) }
    let name = String(cString: text)
    return name.range(of: " -> ").map { String(name[..<$0.lowerBound]) } ?? name
  }
}

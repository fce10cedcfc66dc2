import Foundation

#if !os(Linux)
  #error("FlakeLab runs on Linux only today: its harness interposes glibc's calls and reads /proc")
#endif

/// The system calls the lab makes beyond what Glibc's Swift module imports and the one loop that
/// writes a buffer whole, in one place (a whole file is read by ``InputFile``) (as swift-nio's
/// `System.swift` keeps its own).
///
/// glibc declares `prctl` and `ioctl` variadic, which Swift does not import, and exports
/// `memfd_create`, `memmem`, `pidfd_open` and `posix_spawn_file_actions_addchdir_np` without a
/// Swift declaration: each is found by name. Every argument passed through them is an integer or a
/// pointer, which the variadic and fixed calling conventions pass alike.
package enum SystemCalls {
  /// `prctl(option, argument, 0, 0, 0)`, or -1 where the call cannot be had.
  @discardableResult
  package static func prctl(_ option: Int32, _ argument: UInt) -> Int32 {
    typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    guard let function = symbol("prctl", as: Prctl.self) else { return -1 }
    return function(option, argument, 0, 0, 0)
  }

  /// A descriptor that becomes readable once process `pid` (a child not yet reaped) has exited
  /// (`pidfd_open`, close-on-exec), or -1 without one: glibc before 2.36, Linux before 5.3.
  static func exitDescriptor(of pid: pid_t) -> Int32 {
    pidfdOpen?(pid, 0) ?? -1
  }

  private typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
  /// Looked up once: every worker process asks for one.
  private static let pidfdOpen = symbol("pidfd_open", as: PidfdOpen.self)

  /// Where `needle` first occurs in the `count` bytes at `haystack` (`memmem`, which scans with
  /// the machine's vector instructions), or nil.
  package static func find(
    _ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawPointer, count: Int
  ) -> UnsafeRawPointer? {
    memmem(haystack, count, needle.baseAddress, needle.count).map { UnsafeRawPointer($0) }
  }

  private typealias Memmem = @convention(c) (UnsafeRawPointer?, Int, UnsafeRawPointer?, Int) -> UnsafeMutableRawPointer?
  /// Looked up once: the event feeds call it for every line a test process writes.
  private static let memmem: Memmem =
    symbol("memmem", as: Memmem.self) ?? { haystack, count, needle, length in
      // Without glibc's, a plain scan.
      guard let haystack, let needle, length <= count else { return nil }
      let bytes = UnsafeRawBufferPointer(start: haystack, count: count)
      let pattern = UnsafeRawBufferPointer(start: needle, count: length)
      guard let range = bytes.firstRange(of: pattern) else { return nil }
      return UnsafeMutableRawPointer(mutating: haystack + range.lowerBound)
    }

  /// The columns of the terminal on `descriptor` (`ioctl(TIOCGWINSZ)`), or nil.
  package static func terminalColumns(of descriptor: Int32) -> Int? {
    typealias Ioctl = @convention(c) (Int32, UInt, UnsafeMutableRawPointer) -> Int32
    let getWindowSize: UInt = 0x5413  // TIOCGWINSZ
    guard let ioctl = symbol("ioctl", as: Ioctl.self) else { return nil }
    var size = winsize()
    let result = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, getWindowSize, $0) }
    return result == 0 ? Int(size.ws_col) : nil
  }

  /// A close-on-exec anonymous file in memory (`memfd_create`), or nil where the kernel has none.
  static func memoryFile(named name: String) -> Int32? {
    typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
    let memfdCloexec: UInt32 = 1
    guard let memfdCreate = symbol("memfd_create", as: MemfdCreate.self) else { return nil }
    let descriptor = memfdCreate(name, memfdCloexec)
    return descriptor >= 0 ? descriptor : nil
  }

  /// A close-on-exec file no name reaches: in memory where the kernel has `memfd_create`, else
  /// in `$TMPDIR` or `/tmp`, unlinked as soon as it is open. Nothing is left behind, whatever
  /// ends the process.
  static func anonymousFile(named name: String) throws -> Int32 {
    if let descriptor = memoryFile(named: name) { return descriptor }
    for directory in [NSTemporaryDirectory(), "/tmp"] {
      var template = Array("\(directory)/\(name)-XXXXXX".utf8CString)
      let descriptor = mkstemp(&template)
      guard descriptor >= 0 else { continue }
      unlink(template)
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      return descriptor
    }
    throw SystemError("creating an anonymous file (memfd_create, or mkstemp in $TMPDIR and /tmp)")
  }

  /// Makes a spawned process start in `path` (`posix_spawn_file_actions_addchdir_np`, glibc
  /// 2.29 and later).
  static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String) throws {
    typealias AddChdir =
      @convention(c) (
        UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
      ) -> Int32
    guard let addChdir = symbol("posix_spawn_file_actions_addchdir_np", as: AddChdir.self) else {
      throw SystemError("finding posix_spawn_file_actions_addchdir_np")
    }
    let status = addChdir(&actions, path)
    guard status == 0 else {
      errno = status
      throw SystemError("changing to \(path)")
    }
  }

  /// Writes `bytes` whole to `descriptor`, again after a signal interrupts a write; false when
  /// the descriptor takes no more (closed, full, a reader gone).
  @discardableResult
  package static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) -> Bool {
    var rest = Array(bytes)[...]
    while !rest.isEmpty {
      let written = rest.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return false }
      rest = rest.dropFirst(written)
    }
    return true
  }

  /// The address of `name`: its first definition in the process, or with `next` the one after
  /// the library this code is linked into (`RTLD_NEXT`), as an interposer finds what it replaces.
  package static func address(of name: String, next: Bool = false) -> UnsafeMutableRawPointer? {
    dlsym(UnsafeMutableRawPointer(bitPattern: next ? -1 : 0), name)
  }

  /// The function `name` of `version` after the library this code is linked into: glibc keeps
  /// an old `pthread_cond_wait` (GLIBC_2.2.5) beside the one programs link today (GLIBC_2.3.2),
  /// and `dlsym` may find either.
  package static func symbol<Function>(_ name: String, version: String, as type: Function.Type) -> Function? {
    typealias VersionedLookup =
      @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>, UnsafePointer<CChar>) -> UnsafeMutableRawPointer?
    guard let lookup = symbol("dlvsym", as: VersionedLookup.self),
      let address = lookup(UnsafeMutableRawPointer(bitPattern: -1), name, version)
    else { return nil }
    return unsafeBitCast(address, to: type)
  }

  /// The function `name`, as `type`.
  package static func symbol<Function>(
    _ name: String, as type: Function.Type, next: Bool = false
  ) -> Function? {
    address(of: name, next: next).map { unsafeBitCast($0, to: type) }
  }
}

import FlakeLab
import Foundation
import Synchronization

/// The test process's randomness, drawn from the lab's seed: what `SystemRandomNumberGenerator`
/// reads (`Int.random`, `Bool.random`, `shuffled()`) and the seed of Swift's hashing,
/// which orders every `Set` and `Dictionary`. A process with the same seed and first iteration
/// draws the same values and iterates its sets in the same order, so a replay reproduces a
/// failure that a random value or a hash order decided.
///
/// Values: Swift's runtime (`swift_stdlib_random`) reads the kernel's randomness through glibc's
/// `syscall(SYS_getrandom, …)`, other code through glibc's `getrandom` and `getentropy`, or
/// glibc's `arc4random` family, and Foundation's identifiers (`UUID()`, `NSUUID()`) through the
/// generators Foundation calls, which would read `/dev/urandom`; the harness defines each, and
/// they draw from one SplitMix64 stream seeded per process. Not covered: other reads of
/// `/dev/urandom` (defining `open` to serve it from the seed made swift-clocks' `TestClock`
/// tests fail 7 times in 10 under global, a failure the lab made, so the harness leaves `open`
/// alone), a `getrandom` system call made without glibc, the processor's own (`RDRAND`), the
/// kernel's address layout.
///
/// Hash order: Swift seeds its hashing when its runtime loads, and with that seed it also mixes
/// each table's address into its order, which no seed replays. The lab starts the process with
/// `SWIFT_DETERMINISTIC_HASHING=1` (no address in the order, a zero seed) and the harness, before
/// any table exists, writes a seed drawn from the lab's in place of the zero.
enum SeededRandomness {
  private static let stream = Atomic<UInt64>(0)
  /// Until the harness seeds it (a process the lab did not configure), the kernel's randomness.
  private static let isSeeded = Atomic<Bool>(false)

  /// Seeds values and hashing from the run's seed and first iteration in the environment (read
  /// as text: no hash table may exist before the seed is in place); in a process the lab did not
  /// configure, leaves both to the system.
  static func install() {
    let prefix = HarnessConfiguration.prefix
    guard let runSeed = getenv(prefix + "SEED").flatMap({ UInt64(String(cString: $0)) }),
      let firstIndex = getenv(prefix + "FIRST_INDEX").flatMap({ Int(String(cString: $0)) })
    else { return }
    let seed = HarnessConfiguration.randomnessSeed(runSeed: runSeed, firstIndex: firstIndex)
    stream.store(seed, ordering: .relaxed)
    isSeeded.store(true, ordering: .releasing)
    if let determinism = getenv(Self.deterministicHashing), strcmp(determinism, "1") == 0,
      let parameters = SystemCalls.address(of: "_swift_stdlib_Hashing_parameters")
    {
      // `{ seed0, seed1, deterministic }`: the runtime set the flag and zeros for us.
      var generator = SplitMix64(seed: SplitMix64.mix(seed))
      parameters.storeBytes(of: generator.next(), toByteOffset: 0, as: UInt64.self)
      parameters.storeBytes(of: generator.next(), toByteOffset: 8, as: UInt64.self)
    }
    unsetenv(Self.deterministicHashing)
  }

  static let deterministicHashing = "SWIFT_DETERMINISTIC_HASHING"

  /// Fills the 16 bytes at `identifier` with a random (version 4) UUID from the stream: its
  /// version and variant bits set as RFC 9562 has them. False before the harness seeded it.
  static func fillUUID(_ identifier: UnsafeMutableRawPointer?) -> Bool {
    guard fill(identifier, count: 16), let bytes = identifier?.assumingMemoryBound(to: UInt8.self) else { return false }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return true
  }

  /// Fills `count` bytes at `buffer` from the stream; false before the harness seeded it.
  static func fill(_ buffer: UnsafeMutableRawPointer?, count: Int) -> Bool {
    guard isSeeded.load(ordering: .acquiring), let buffer else { return false }
    var offset = 0
    while offset < count {
      // One atomic step per word: threads that draw at once each get words of their own.
      let word = SplitMix64.mix(stream.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue)
      withUnsafeBytes(of: word) { bytes in
        let length = min(8, count - offset)
        (buffer + offset).copyMemory(from: bytes.baseAddress!, byteCount: length)
        offset += length
      }
    }
    return true
  }
}

// The interposers are public: a release build exports a `@_cdecl` function only if it is (a
// debug build exports them all, so only `make install` and `make bench` showed it).

/// Foundation's `UUID()` (FoundationEssentials' `_foundation_uuid_generate_random`), seeded: a
/// version 4 identifier of 16 bytes from the stream. Foundation reads `/dev/urandom` for it
/// itself, which the harness does not serve (see ``SeededRandomness``).
@_cdecl("_foundation_uuid_generate_random")
public func seededFoundationUUID(_ identifier: UnsafeMutableRawPointer?) {
  seededUUID(identifier, else: "_foundation_uuid_generate_random")
}

/// `NSUUID()` (Foundation's copy of libuuid's `uuid_generate_random`, which a test linking
/// libuuid calls too), seeded.
@_cdecl("uuid_generate_random")
public func seededUUIDGenerateRandom(_ identifier: UnsafeMutableRawPointer?) {
  seededUUID(identifier, else: "uuid_generate_random")
}

/// A UUID from the seed at `identifier`, else (a process the lab did not seed) from the next
/// definition of `generator`.
private func seededUUID(_ identifier: UnsafeMutableRawPointer?, else generator: String) {
  if SeededRandomness.fillUUID(identifier) { return }
  typealias Generate = @convention(c) (UnsafeMutableRawPointer?) -> Void
  SystemCalls.symbol(generator, as: Generate.self, next: true)?(identifier)
}

/// glibc's `getrandom(buffer, count, flags)`, seeded.
@_cdecl("getrandom")
public func seededGetrandom(_ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: UInt32) -> Int {
  if SeededRandomness.fill(buffer, count: count) { return count }
  typealias Getrandom = @convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int
  return SystemCalls.symbol("getrandom", as: Getrandom.self, next: true)?(buffer, count, flags) ?? -1
}

/// glibc's `getentropy(buffer, count)`, seeded.
@_cdecl("getentropy")
public func seededGetentropy(_ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int32 {
  if count <= 256, SeededRandomness.fill(buffer, count: count) { return 0 }
  typealias Getentropy = @convention(c) (UnsafeMutableRawPointer?, Int) -> Int32
  return SystemCalls.symbol("getentropy", as: Getentropy.self, next: true)?(buffer, count) ?? -1
}

/// glibc's `syscall(number, …)`, through which Swift's runtime reads the kernel's randomness
/// (`SYS_getrandom`): that one is seeded, every other passes on. `syscall` is variadic; its
/// arguments are integers and pointers, which the variadic and fixed conventions pass alike,
/// and it takes six at most.
@_cdecl("syscall")
public func seededSyscall(_ number: Int, _ a1: Int, _ a2: Int, _ a3: Int, _ a4: Int, _ a5: Int, _ a6: Int) -> Int {
  if number == getrandomNumber, SeededRandomness.fill(UnsafeMutableRawPointer(bitPattern: a1), count: a2) {
    return a2
  }
  typealias Syscall = @convention(c) (Int, Int, Int, Int, Int, Int, Int) -> Int
  if realSyscall == nil { realSyscall = SystemCalls.address(of: "syscall", next: true) }
  return unsafeBitCast(realSyscall, to: Syscall.self)(number, a1, a2, a3, a4, a5, a6)
}

/// glibc's own, found on first use. A plain pointer with a constant initial value, set in
/// memory before any code runs: the runtime's lazy globals wait on a futex, through `syscall`.
/// Threads that find it unset at once all store the same address.
nonisolated(unsafe) private var realSyscall: UnsafeMutableRawPointer? = nil

/// `SYS_getrandom`, which Glibc's Swift module does not import.
#if arch(x86_64)
  private let getrandomNumber = 318
#elseif arch(arm64)
  private let getrandomNumber = 278
#endif

/// glibc's `arc4random()`, seeded.
@_cdecl("arc4random")
public func seededArc4random() -> UInt32 {
  var value: UInt32 = 0
  if SeededRandomness.fill(&value, count: 4) { return value }
  typealias Arc4random = @convention(c) () -> UInt32
  return SystemCalls.symbol("arc4random", as: Arc4random.self, next: true)?() ?? 0
}

/// glibc's `arc4random_buf(buffer, count)`, seeded.
@_cdecl("arc4random_buf")
public func seededArc4randomBuf(_ buffer: UnsafeMutableRawPointer?, _ count: Int) {
  if SeededRandomness.fill(buffer, count: count) { return }
  typealias Arc4randomBuf = @convention(c) (UnsafeMutableRawPointer?, Int) -> Void
  SystemCalls.symbol("arc4random_buf", as: Arc4randomBuf.self, next: true)?(buffer, count)
}

/// glibc's `arc4random_uniform(bound)`, seeded: a value below `bound`, by rejection, so that
/// every value is as likely.
@_cdecl("arc4random_uniform")
public func seededArc4randomUniform(_ bound: UInt32) -> UInt32 {
  guard bound > 1 else { return 0 }
  let floor = (0 &- bound) % bound
  while true {
    let value = seededArc4random()
    if value >= floor { return value % bound }
  }
}

import Foundation
import Synchronization
import Testing

// Swift Testing run in the test process without most of its event stream's cost. Each event the
// stream writes is encoded as JSON, with its messages, about 90 µs on a 2-core VM: a repetition of
// a fast test writes four (the test's start and end, its suite's), most of what it cost.
// This runs the tests as Swift Testing's entry point does, from the same command line, and
// splits the events: a test's start and end, which the lab reads only for the test's ID, are
// written by the harness as the lab's own short lines; a suite's are dropped (the lab reads none);
// the others the lab reads (the run's start, issues, skips) go to the stream as before, so every
// message is Swift Testing's own, and the rest are dropped.
//
// The configuration, the runner and the event are tools-integration SPI that Testing's
// interface leaves out, so they are reached by their mangled names, which spell out every type
// in their signatures: a Swift Testing whose SPI changed has other names, this library does not
// load (the harness opens it with every symbol bound at once), and the harness falls back to the
// entry point. The values are held as bytes in buffers larger than their types (checked against
// the types' metadata before anything runs) and never copied by anything but the library.

/// Bytes that hold a value of one of the SPI types, which this module cannot name.
struct OpaqueValue<Role>: OpaqueSelf {
  var bytes = InlineArray<256, UInt64>(repeating: 0)
  static var capacity: Int { MemoryLayout<Self>.size }
}
enum ConfigurationRole {}
enum RunnerRole {}

/// Bytes that hold an `Event.Kind` (a pointer to its payload's box, here).
struct OpaqueKind {
  var bytes = InlineArray<4, UInt64>(repeating: 0)
  static var capacity: Int { MemoryLayout<Self>.size }
}

/// Methods of a struct whose `self` is passed by address: a protocol extension's `self` is too.
protocol OpaqueSelf {}
extension OpaqueSelf {
  @_silgen_name("$s7Testing13ConfigurationV12eventHandleryyAA5EventV_AF7ContextVtYbcvg")
  func configurationEventHandler() -> @Sendable (UnsafeRawPointer, UnsafeRawPointer) -> Void
  @_silgen_name("$s7Testing13ConfigurationV12eventHandleryyAA5EventV_AF7ContextVtYbcvs")
  mutating func setConfigurationEventHandler(
    _ handler: __owned @escaping @Sendable (UnsafeRawPointer, UnsafeRawPointer) -> Void)
  @_silgen_name("$s7Testing13ConfigurationV9verbositySivs")
  mutating func setConfigurationVerbosity(_ verbosity: Int)
  @_silgen_name("$s7Testing6RunnerV3runyyYaF")
  func runnerRun() async
}

/// Methods of a value the library lends by address (an event): a class-bound protocol's `self`
/// is passed as that address, and an unmanaged, guaranteed reference is never retained.
protocol BorrowedSelf: AnyObject {}
extension BorrowedSelf {
  // Generic, so that the value comes back by address, as the real getter's does: a small struct
  // of this module's own would come back in registers.
  @_silgen_name("$s7Testing5EventV4kindAC4KindOvg")
  func eventKind<Kind>() -> Kind
  @_silgen_name("$s7Testing5EventV7ContextV4testAA4TestVSgvg")
  func contextTest() -> Test?
}
final class Borrowed: BorrowedSelf {}

@_silgen_name("$s7Testing26configurationForEntryPoint4fromAA13ConfigurationVAA25__CommandLineArguments_v0V_tKF")
func configurationForEntryPoint<Configuration>(from arguments: __CommandLineArguments_v0) throws -> Configuration

@_silgen_name("$s7Testing6RunnerV13configurationAcA13ConfigurationV_tYacfC")
func runner<Configuration, Runner>(configuration: __owned Configuration) async -> Runner

/// A type's value witnesses, from its metadata accessor: pointers into a type's metadata, which
/// never changes once made.
struct ValueWitnesses: @unchecked Sendable {
  let metadata: UnsafeRawPointer
  private let table: UnsafeRawPointer

  init?(accessor: String) {
    typealias Accessor = @convention(c) (Int) -> UnsafeRawPointer
    guard let symbol = dlsym(nil, accessor) else { return nil }
    metadata = unsafeBitCast(symbol, to: Accessor.self)(0)
    table = metadata.load(fromByteOffset: -MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
  }

  private func witness(_ index: Int) -> UnsafeRawPointer {
    table.load(fromByteOffset: index * MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
  }

  var size: Int { table.load(fromByteOffset: 8 * MemoryLayout<UnsafeRawPointer>.size, as: Int.self) }
  /// Whether a value may be moved by copying its bytes, as the buffers here are.
  var isBitwiseTakable: Bool {
    table.load(fromByteOffset: 10 * MemoryLayout<UnsafeRawPointer>.size, as: UInt32.self) & 0x0010_0000 == 0
  }

  func destroy(_ value: UnsafeMutableRawPointer) {
    typealias Destroy = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    unsafeBitCast(witness(1), to: Destroy.self)(value, metadata)
  }

  /// An enum's case index.
  func enumTag(_ value: UnsafeRawPointer) -> UInt32 {
    typealias GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
    return unsafeBitCast(witness(11), to: GetEnumTag.self)(value, metadata)
  }
}

/// The command line the lab gave the test binary, as Swift Testing's entry point reads it: the
/// lab passes only these options.
func commandLineArguments(_ arguments: [String]) -> __CommandLineArguments_v0? {
  var parsed = __CommandLineArguments_v0()
  var index = 1
  func value() -> String? {
    index += 1
    return index < arguments.count ? arguments[index] : nil
  }
  while index < arguments.count {
    switch arguments[index] {
    case "--testing-library": _ = value()
    case "--filter": parsed.filter = (parsed.filter ?? []) + [value() ?? ""]
    case "--skip": parsed.skip = (parsed.skip ?? []) + [value() ?? ""]
    case "--repetitions": parsed.repetitions = value().flatMap { Int($0) }
    case "--no-parallel": parsed.parallel = false
    case "--verbosity": parsed.verbosity = value().flatMap { Int($0) } ?? 0
    case "--event-stream-output-path": parsed.eventStreamOutputPath = value()
    case "--event-stream-version": parsed.eventStreamSchemaVersion = value()
    default: return nil
    }
    index += 1
  }
  return parsed
}

/// What this library needs of the Swift Testing in the process, found and checked before any
/// test runs: nil unless every piece is there and fits.
struct SwiftTestingSPI: Sendable {
  let kindType: ValueWitnesses
  /// `testStarted` and `testEnded`, by case index.
  let boundaries: [UInt32]
  /// `issueRecorded`'s case index.
  let issue: UInt32
  /// The other kinds the lab reads: the run's start, issues, skips.
  let streamed: Set<UInt32>

  init?() {
    #if compiler(>=6.3) && compiler(<6.4)
      let builtFor = "6.3."
    #else
      let builtFor = "?"
    #endif
    typealias Version = @convention(c) () -> UnsafePointer<CChar>?
    guard let versionSymbol = dlsym(nil, "swt_getTestingLibraryVersion"),
      let version = unsafeBitCast(versionSymbol, to: Version.self)().map({ String(cString: $0) }),
      version.hasPrefix(builtFor),
      let configurationType = ValueWitnesses(accessor: "$s7Testing13ConfigurationVMa"),
      let runnerType = ValueWitnesses(accessor: "$s7Testing6RunnerVMa"),
      let kindType = ValueWitnesses(accessor: "$s7Testing5EventV4KindOMa"),
      [configurationType, runnerType].allSatisfy({ $0.size <= OpaqueValue<RunnerRole>.capacity && $0.isBitwiseTakable }
      ),
      kindType.size <= OpaqueKind.capacity
    else { return nil }
    let tags = [
      "11testStartedyA2EmF", "9testEndedyA2EmF", "10runStartedyA2EmF", "13issueRecordedyAeA5IssueVcAEmF",
      "11testSkippedyAeA8SkipInfoVcAEmF",
    ].compactMap { name in
      dlsym(nil, "$s7Testing5EventV4KindO" + name + "WC").map { UInt32($0.load(as: Int32.self)) }
    }
    guard tags.count == 5 else { return nil }
    self.kindType = kindType
    boundaries = Array(tags[0..<2])
    issue = tags[3]
    streamed = Set(tags[2...])
  }

  /// The case index of an event's kind.
  func kind(of event: UnsafeRawPointer) -> UInt32 {
    var kind: OpaqueKind = Unmanaged<Borrowed>.fromOpaque(event)._withUnsafeGuaranteedRef { $0.eventKind() }
    return withUnsafeMutableBytes(of: &kind) { bytes in
      defer { kindType.destroy(bytes.baseAddress!) }
      return kindType.enumTag(bytes.baseAddress!)
    }
  }
}

/// Whether the Swift Testing in this process is one this library can run: for the harness's
/// start-up probe.
@_cdecl("flakelab_swiftTestingRunnerFits")
public func swiftTestingRunnerFits() -> Bool {
  SwiftTestingSPI() != nil
}

/// For the harness to write: a test's start (0) or end (1), with its ID and, at its end, how many
/// issues were recorded in its context; or the run's end (2), with how many events the run wrote
/// in decimal digits.
public typealias TestBoundary = @convention(c) (Int32, UnsafePointer<CChar>, Int) -> Void

/// Runs the tests the command line names and returns the exit status, or -1 when it cannot
/// (a Swift Testing it was not built for, a command line it does not know): the caller then runs
/// Swift Testing's own entry point. The harness calls it through its async function pointer.
@_silgen_name("flakelab_runSwiftTesting")
public func runSwiftTesting(_ boundary: TestBoundary) async -> Int32 {
  guard let spi = SwiftTestingSPI(),
    let arguments = commandLineArguments(CommandLine.arguments), arguments.eventStreamOutputPath != nil,
    var configuration: OpaqueValue<ConfigurationRole> = try? configurationForEntryPoint(from: arguments)
  else { return -1 }
  configuration.setConfigurationVerbosity(arguments.verbosity)
  let stream = configuration.configurationEventHandler()
  // Swift Testing writes a record and its newline in two writes, under its file's own lock: a
  // line the harness wrote between them, from a test on another thread, would join two events
  // into one line that reads as neither. One lock around both writers keeps every line whole,
  // and counts the events written, which the run's end declares, so that the supervisor can
  // tell an event lost from an event never sent; and each test's issues, which its end declares,
  // so that a test that cut the stream (closed its descriptor) is never taken to have passed.
  let writing = Mutex((written: 0, issues: [String: Int]()))
  configuration.setConfigurationEventHandler { event, context in
    let kind = spi.kind(of: event)
    if let boundaryKind = spi.boundaries.firstIndex(of: kind) {
      // A suite's own start and end name no test of the lab's.
      guard let test = Unmanaged<Borrowed>.fromOpaque(context)._withUnsafeGuaranteedRef({ $0.contextTest() }),
        !test.isSuite
      else { return }
      let id = String(describing: test.id)
      id.withCString { text in
        writing.withLock { state in
          boundary(Int32(boundaryKind), text, state.issues.removeValue(forKey: id) ?? 0)
          state.written += 1
        }
      }
    } else if spi.streamed.contains(kind) {
      let test =
        kind == spi.issue
        ? Unmanaged<Borrowed>.fromOpaque(context)._withUnsafeGuaranteedRef({ $0.contextTest() })
          .map { String(describing: $0.id) } : nil
      writing.withLock { state in
        stream(event, context)
        state.written += 1
        if let test { state.issues[test, default: 0] += 1 }
      }
    }
  }
  let runner: OpaqueValue<RunnerRole> = await runner(configuration: configuration)
  await runner.runnerRun()
  writing.withLock { state in String(state.written).withCString { boundary(2, $0, 0) } }
  // The lab reads each test's outcome from its events, never from this status.
  return EXIT_SUCCESS
}

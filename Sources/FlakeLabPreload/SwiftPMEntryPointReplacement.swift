import FlakeLab
import Foundation

/// Swift Testing's `__swiftPMEntryPoint(passing:) -> Never`, as SwiftPM's generated test runner
/// calls it, replaced: in a process the lab configured to run Swift Testing tests, the tests run
/// in `libFlakeLabSwiftTesting.so` (beside this library), which has the harness write each test's
/// start and end and hands Swift Testing's stream only the other events the lab reads. Wherever
/// that library does not load or declines (a Swift Testing it was not built for), and in every
/// other process, Swift Testing's own entry point runs.
///
/// The argument, an optional `__CommandLineArguments_v0`, is passed by address; it is handed on
/// as it came. Nothing here names a Swift Testing type, so this library loads beside any.
@_silgen_name("$s7Testing19__swiftPMEntryPoint7passings5NeverOAA25__CommandLineArguments_v0VSg_tYaF")
public func harnessSwiftPMEntryPoint(passing arguments: UnsafeRawPointer) async -> Never {
  if let configuration = Harness.configuration, configuration.framework == .swiftTesting, !configuration.isProbe,
    let run = InProcessSwiftTesting.entry()
  {
    InProcessSwiftTesting.adopt(configuration.channel)
    let status = await run { kind, text, issues in
      let text = String(cString: text)
      if kind == 0 {
        // Under one queue its tests run one at a time: a start is an iteration's.
        BlockWatch.iterationBegins()
        // Under serial, a Dispatch worker ready, as XCTest's set-up task leaves one under global
        // (not under the schedulers, whose arms it was not measured in).
        if Harness.configuration?.mechanism == .mainQueueRedirect { DispatchPoolWarmth.warm() }
      }
      let event: TestEvent =
        switch kind {
        case 0: .testStarted(testID: text, at: TestEvent.now)
        case 1: .testEnded(testID: text, at: TestEvent.now, issues: issues)
        default: .runEnded(eventsWritten: Int(text) ?? -1)
        }
      InProcessSwiftTesting.write(event)
    }
    if status >= 0 { exit(status) }
  }
  typealias EntryPoint = @convention(thin) (UnsafeRawPointer) async -> Never
  // An async function is called through its async function pointer, the `Tu` symbol.
  let symbol = "$s7Testing19__swiftPMEntryPoint7passings5NeverOAA25__CommandLineArguments_v0VSg_tYaFTu"
  guard let original = SystemCalls.symbol(symbol, as: EntryPoint.self, next: true) else {
    fatalError("flakelab harness: Swift Testing's __swiftPMEntryPoint was not found")
  }
  await original(arguments)
}

/// The in-process runner of Swift Testing, `libFlakeLabSwiftTesting.so`, opened beside this
/// library with every symbol bound at once, so that a mismatch shows as a failed open.
enum InProcessSwiftTesting {
  typealias Run = @convention(thin) (@convention(c) (Int32, UnsafePointer<CChar>, Int) -> Void) async -> Int32

  /// Where Swift Testing writes its stream (the channel, or the relay's pipe that took its
  /// number), duplicated before any test runs.
  nonisolated(unsafe) private static var stream: OwnedPipe?

  /// A test's start and end go where the stream's records go, after the same records (issues
  /// written as the test runs), so the supervisor and the harness's watches see them in order.
  static func adopt(_ channel: Int32) {
    stream = OwnedPipe(duplicating: channel)
  }

  static func write(_ event: TestEvent) {
    stream?.write(Array(event.line.utf8))
  }

  static func entry() -> Run? {
    symbol("flakelab_runSwiftTestingTu").map { unsafeBitCast($0, to: Run.self) }
  }

  /// Whether the library loads and takes the Swift Testing in this process.
  static func fits() -> Bool {
    typealias Fits = @convention(c) () -> Bool
    return symbol("flakelab_swiftTestingRunnerFits").map { unsafeBitCast($0, to: Fits.self)() } ?? false
  }

  private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
    guard let harness = Harness.libraryPath else { return nil }
    let library = URL(fileURLWithPath: harness).deletingLastPathComponent()
      .appendingPathComponent("libFlakeLabSwiftTesting.so").path
    return dlopen(library, RTLD_NOW | RTLD_LOCAL).flatMap { dlsym($0, name) }
  }
}

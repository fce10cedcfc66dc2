import FlakeLab
import Foundation

/// The harness `flakelab test` preloads (`LD_PRELOAD`) into a user's unmodified test binary: it
/// puts the process under the run's executor before the first task exists, and for XCTest
/// runs the run's tests in this process (one repeated, or a suite pass) and reports each run as
/// test events.
///
/// It does nothing in a process the lab did not configure, and removes itself from the
/// environment so that processes the tests start do not inherit it.
enum Harness {
  /// The run's configuration, read once by the constructor.
  nonisolated(unsafe) static var configuration: HarnessConfiguration?
  /// This library's path, as `LD_PRELOAD` named it before the harness removed it.
  nonisolated(unsafe) static var libraryPath: String?

  static func start() {
    // Before any hash table exists: the hash seed orders every one.
    SeededRandomness.install()
    // Every process the lab starts dies with it, a listing too: first thing, configured or not.
    SupervisorLifetime.bind()
    RealCall.findAtStart()
    let variables = HarnessConfiguration.variableNames.compactMap { name in
      getenv(name).map { (name, String(cString: $0)) }
    }
    guard let configuration = HarnessConfiguration(environment: Dictionary(uniqueKeysWithValues: variables))
    else {
      unsetenv(SupervisorLifetime.variable)
      return
    }
    libraryPath = getenv("LD_PRELOAD").map { String(cString: $0) }?
      .split(whereSeparator: { $0 == " " || $0 == ":" }).map(String.init)
      .first { $0.hasSuffix("/libFlakeLabPreload.so") }
    unsetenv("LD_PRELOAD")
    unsetenv(SupervisorLifetime.variable)
    HarnessConfiguration.variableNames.forEach { unsetenv($0) }
    EventOutput.adopt(
      configuration.channel,
      closingChannel: configuration.isProbe || configuration.framework == .xctest)
    self.configuration = configuration
    if configuration.framework == .xctest, !configuration.isProbe { DroppedStopRescue.start() }
    switch configuration.mechanism {
    case .untouched:
      break
    case .mainQueueRedirect:
      if !configuration.isProbe { BlockWatch.start() }
      GlobalEnqueueHook.current = configuration.isProbe ? Probe.countingRedirect : GlobalEnqueueHook.mainActorRedirect
      if configuration.framework == .swiftTesting, !configuration.isProbe {
        SerialHookWatch.start(channel: configuration.channel)
      }
    case .fifoScheduler, .seededScheduler:
      MainQueueScheduler.install(configuration)
      if !configuration.isProbe { BlockWatch.start() }
    }
    if configuration.isProbe { Probe.check(configuration.mechanism) }
    CPUNoise.start(threads: configuration.noiseThreads)
  }
}

/// Runs ``Harness/start()`` when the library is loaded, before the test binary's `main`.
@used @section(".init_array")
let harnessConstructor: @convention(c) () -> Void = { Harness.start() }

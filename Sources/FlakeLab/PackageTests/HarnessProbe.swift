import Foundation

/// Checks, before anything is measured, that the preloaded harness takes effect in this
/// toolchain: the global-enqueue hook (`serial`), the custom-executor SPI (`fifo`, `seeded`),
/// the `XCTMain` replacement that repeats an XCTest test in one process, and whether Swift
/// Testing can run in process without its full event stream.
///
/// Each relies on runtime details no public API promises. Where one did not take effect, the
/// lab says so and falls back, or refuses, rather than report a rate measured under the wrong
/// executor.
package struct HarnessProbe: Sendable {
  /// A mechanism the harness relies on, checked on its own.
  package enum Check: String, Sendable {
    /// The runtime's global-enqueue hook (``HarnessMechanism/mainQueueRedirect``).
    case enqueueHook
    /// The custom main and default executors (the harness's scheduler).
    case customExecutors
    /// The `XCTMain` replacement that repeats an XCTest test in one process.
    case xctMainReplacement
    /// The in-process Swift Testing runner (`libFlakeLabSwiftTesting.so`), which writes a
    /// test's start and end without Swift Testing's JSON encoding; without it, the whole stream.
    case swiftTestingRunner
  }

  /// The checks that took effect.
  package let tookEffect: Set<Check>

  package var repeatsXCTestInProcess: Bool { tookEffect.contains(.xctMainReplacement) }
  package var runsSwiftTestingInProcess: Bool { tookEffect.contains(.swiftTestingRunner) }

  /// The check a mechanism depends on, if any.
  package static func check(for mechanism: HarnessMechanism) -> Check? {
    switch mechanism {
    case .untouched: nil
    case .mainQueueRedirect: .enqueueHook
    case .fifoScheduler, .seededScheduler: .customExecutors
    }
  }

  package func supports(_ mechanism: HarnessMechanism) -> Bool {
    Self.check(for: mechanism).map(tookEffect.contains) ?? true
  }

  /// Runs one probe process of `binary` with `preload` per check the `mechanisms` depend on.
  package static func run(
    binary: String, preload: String, mechanisms: [HarnessMechanism]
  ) throws -> HarnessProbe {
    try InterruptSignal.watching { try probe(binary: binary, preload: preload, mechanisms: mechanisms) }
  }

  private static func probe(binary: String, preload: String, mechanisms: [HarnessMechanism]) throws -> HarnessProbe {
    // One process per check: the hook and the executors cannot be tried in the same process.
    // The first, untouched, checks the XCTMain replacement.
    var probed: [HarnessMechanism] = [.untouched]
    for mechanism in mechanisms where !probed.contains(where: { check(for: $0) == check(for: mechanism) }) {
      probed.append(mechanism)
    }
    var tookEffect = Set<Check>()
    for mechanism in probed {
      let configuration = HarnessConfiguration(
        mechanism: mechanism, tests: [PackageTest(id: "FlakeLabProbe/probe", framework: .xctest)],
        isProbe: true)
      let feed = try ProbeOutput()
      let spawned = try ProcessSpawner.spawn(
        executable: binary, arguments: ["--testing-library", "xctest", "FlakeLabProbe/probe"],
        environment: TestLaunch.environment(configuration, preload: preload),
        channel: feed.writeEnd, as: configuration.channel, inherited: [try configuration.testListFile()])
      feed.closeWriteEnd()
      defer { close(spawned.output) }
      guard try waitForExit(spawned.pid, within: Supervisor.startLimit) else {
        throw PackageError.probeTimedOut(binary: binary, limit: Supervisor.startLimit)
      }
      for case .probe(let check, true) in feed.events() { tookEffect.insert(check) }
    }
    return HarnessProbe(tookEffect: tookEffect)
  }

  /// Whether `pid` exited within `limit`; past it, or when the lab is interrupted, it is killed
  /// with its process group.
  private static func waitForExit(_ pid: pid_t, within limit: Duration) throws(LabInterrupted) -> Bool {
    let deadline = ContinuousClock.now + limit
    var status: Int32 = 0
    defer { kill(-pid, SIGKILL) }
    while ContinuousClock.now < deadline, !InterruptSignal.isRaised {
      if waitpid(pid, &status, WNOHANG) == pid { return true }
      usleep(Supervisor.pollInterval)
    }
    kill(-pid, SIGKILL)
    _ = waitpid(pid, &status, 0)
    if InterruptSignal.isRaised { throw LabInterrupted(stage: .probe) }
    return false
  }
}

/// The pipe a probe process writes its findings into.
private final class ProbeOutput {
  let readEnd: Int32
  let writeEnd: Int32
  private var isWriteEndOpen = true

  init() throws {
    let pipe = try PipeEnds()
    (readEnd, writeEnd) = (pipe.readEnd, pipe.writeEnd)
  }

  deinit {
    closeWriteEnd()
    close(readEnd)
  }

  func closeWriteEnd() {
    if isWriteEndOpen { close(writeEnd) }
    isWriteEndOpen = false
  }

  /// Every event written, once the writer has closed its end.
  func events() -> [TestEvent] {
    var reader = LineReader(descriptor: readEnd)
    var events: [TestEvent] = []
    reader.read { line in TestEvent.parse(line).map { events.append($0) } }
    return events
  }
}

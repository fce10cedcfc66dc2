import Foundation

/// How the lab starts a user's test binary as a worker: the arguments each framework needs to
/// run one test a number of times in a row, and the environment that preloads the harness.
package enum TestLaunch {
  /// A run of `test` under `executor`, in worker processes of the package's test binary, put
  /// under the executor by its ``IterationExecutor/harnessMechanism`` (which callers checked).
  ///
  /// - Parameters:
  ///   - freshProcess: one process per iteration instead of batches of repetitions.
  ///   - probe: what took effect; an XCTest test whose `XCTMain` replacement did not take effect
  ///     runs one process per iteration, judged by its exit status.
  package static func run(
    _ test: PackageTest, of package: TestPackage, executor: any IterationExecutor,
    indices: Range<Int>, seed: UInt64, freshProcess: Bool, probe: HarnessProbe, preload: String
  ) -> SupervisedRun {
    let steered = test.framework == .swiftTesting || probe.repeatsXCTestInProcess
    let reference = TestReference(
      test: test, packagePath: package.path,
      layout: freshProcess || !steered ? .fresh : .repetitions)
    let mechanism = executor.harnessMechanism ?? .untouched
    return SupervisedRun(
      scenario: test.suite, variant: test.function, executor: executor, indices: indices,
      seed: seed, test: reference, iterationsPerWorker: reference.layout == .fresh ? 1 : nil
    ) { batch in
      let configuration = HarnessConfiguration(
        mechanism: mechanism, test: test, firstIndex: batch.lowerBound, repetitions: batch.count,
        seed: seed)
      let feed: any OutcomeFeed =
        steered
        ? try TestEventFeed(testID: test.id, firstIndex: batch.lowerBound, iterations: batch.count)
        : try ExitStatusFeed(index: batch.lowerBound)
      return WorkerLaunch(
        executable: package.testBinary,
        arguments: arguments(
          test, repetitions: batch.count, channel: configuration.channel,
          eventStreamVersion: package.eventStreamVersion),
        environment: environment(configuration, preload: preload), feed: feed,
        channelDescriptor: configuration.channel)
    }
  }

  /// The test binary's arguments to run `test` alone, `repetitions` times, one at a time.
  static func arguments(
    _ test: PackageTest, repetitions: Int, channel: Int32, eventStreamVersion: String
  ) -> [String] {
    switch test.framework {
    case .swiftTesting:
      [
        "--testing-library", "swift-testing",
        // Anchored: the ID must not match a longer one (`yield()` and `yieldTwice()`).
        "--filter", "^" + NSRegularExpression.escapedPattern(for: test.id) + "(/|$)",
        "--repetitions", String(repetitions), "--no-parallel",
        // The console output would say again what the event stream says, at a cost per event;
        // `--quiet` still has the console recorder build every event's message, the lowest
        // verbosity does not. Crash messages come from the runtime, not from the console.
        "--verbosity", String(Int.min),
        "--event-stream-output-path", "/dev/fd/\(channel)",
        "--event-stream-version", eventStreamVersion,
      ]
    case .xctest:
      // XCTest has no repetition flag: the harness repeats the test (`repetitions` is in the
      // environment). The filter is exact.
      ["--testing-library", "xctest", test.id]
    }
  }

  /// The worker environment with the harness preloaded and configured.
  static func environment(_ configuration: HarnessConfiguration, preload: String) -> [String: String] {
    var environment = WorkerLaunch.baseEnvironment.merging(configuration.environment) { $1 }
    environment["LD_PRELOAD"] = [preload, environment["LD_PRELOAD"]].compactMap { $0 }
      .filter { !$0.isEmpty }.joined(separator: " ")
    return environment
  }

  /// The harness library, `libFlakeLabPreload.so`: next to the `flakelab` executable (a build
  /// tree) or in `../lib/flakelab/` (an install with `make install PREFIX=…`).
  package static func preloadLibrary(besides executable: String) throws(PackageError) -> String {
    let directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
    let candidates = [
      directory.appendingPathComponent("libFlakeLabPreload.so"),
      directory.appendingPathComponent("../lib/flakelab/libFlakeLabPreload.so").standardized,
    ].map(\.path)
    guard let path = candidates.first(where: FileManager.default.fileExists(atPath:)) else {
      throw .noHarnessLibrary(directory: directory.path)
    }
    return path
  }
}

import Foundation

/// How the lab starts a user's test binary as a worker: the arguments each framework needs to
/// run one test a number of times in a row, and the environment that preloads the harness.
package enum TestLaunch {
  /// A run of `test` alone under `executor`, in worker processes of the package's test binary,
  /// put under the executor by its ``IterationExecutor/harnessMechanism`` (which callers checked).
  ///
  /// - Parameters:
  ///   - layout: repetitions in warm processes, stressed ones (busy threads competing), or a
  ///     process per iteration (fresh, replay).
  ///   - probe: what took effect; an XCTest test whose `XCTMain` replacement did not take effect
  ///     runs one process per iteration, judged by its exit status.
  ///   - isConfirmation: the run is the diagnosis's second seed (``SecondSeed``).
  package static func run(
    _ test: PackageTest, of package: TestPackage, executor: any IterationExecutor,
    indices: Range<Int>, seed: UInt64, layout: TestReference.ProcessLayout, probe: HarnessProbe, preload: String,
    isConfirmation: Bool = false
  ) -> SupervisedRun {
    let steered = test.framework == .swiftTesting || probe.repeatsXCTestInProcess
    let onePerProcess = layout == .fresh || layout == .replay || !steered
    let reference = TestReference(
      test: test, packagePath: package.path, layout: !steered && layout == .repetitions ? .fresh : layout,
      isConfirmation: isConfirmation)
    let mechanism = executor.harnessMechanism ?? .untouched
    return SupervisedRun(
      RunKey(test: test, executor: executor.id), executor: executor, indices: indices,
      seed: seed, test: reference, iterationsPerWorker: onePerProcess ? 1 : nil
    ) { batch in
      // Warm means warm: each counted repetition follows a run of the test in its process. The
      // run before the first, at the index before it, is not counted.
      let warmUps = !onePerProcess ? 1 : 0
      let configuration = HarnessConfiguration(
        mechanism: mechanism, tests: [test], firstIndex: batch.lowerBound - warmUps, repetitions: batch.count + warmUps,
        seed: seed, noiseThreads: layout == .stressed ? CPUNoiseLevel.threads : 0)
      let feed: any OutcomeFeed =
        steered
        ? try TestEventFeed(
          testID: test.id, firstIndex: batch.lowerBound, iterations: batch.count, warmUps: warmUps,
          packagePath: package.path)
        : try ExitStatusFeed(index: batch.lowerBound)
      return WorkerLaunch(
        executable: package.testBinary,
        arguments: arguments(
          [test], repetitions: batch.count + warmUps, inParallel: false, channel: configuration.channel,
          eventStreamVersion: package.eventStreamVersion),
        environment: environment(configuration, preload: preload), feed: feed,
        channelDescriptor: configuration.channel, inherited: [try configuration.testListFile()])
    }
  }

  /// Suite passes over `tests` under `executor`: each framework's tests in a process of their
  /// own, XCTest's first, as `swift test` runs them. Swift Testing runs its tests in parallel
  /// under an executor that leaves the process as it is, and one at a time under one that puts
  /// every job on one queue, which cannot run tests side by side.
  ///
  /// In `.oneAtATime`, only the Swift Testing tests, one at a time under an executor that would
  /// run them in parallel (`swift test --no-parallel`, Xcode); XCTest runs them so already. In
  /// `.alone`, each test in a process of its own, `passes` of the screen's.
  package static func passes(
    of tests: [PackageTest], in package: TestPackage, executor: any IterationExecutor, seed: UInt64,
    layout: TestReference.ProcessLayout = .suite, passes: Int? = nil, preload: String
  ) -> PassSupervisor.Series {
    let mechanism = executor.harnessMechanism ?? .untouched
    let oneAtATime = layout == .oneAtATime
    let frameworks = oneAtATime ? [PackageTest.Framework.swiftTesting] : PackageTest.Framework.allCases
    let groups = frameworks.map { framework in tests.filter { $0.framework == framework } }.filter { !$0.isEmpty }
    return PassSupervisor.Series(executor: executor, groups: groups, layout: layout, passes: passes) { tests, pass in
      let configuration = HarnessConfiguration(
        mechanism: mechanism, tests: tests, firstIndex: pass, repetitions: 1, seed: seed)
      let feed = try SuiteEventFeed(testIDs: tests.map(\.id), bodies: package.bodies)
      let launch = WorkerLaunch(
        executable: package.testBinary,
        arguments: arguments(
          tests, of: package.swiftTestingTests, repetitions: 1,
          inParallel: mechanism.runsTestsInParallel && !oneAtATime,
          channel: configuration.channel, eventStreamVersion: package.eventStreamVersion),
        environment: environment(configuration, preload: preload), feed: feed,
        channelDescriptor: configuration.channel, inherited: [try configuration.testListFile()])
      return (launch, feed)
    }
  }

  /// The test binary's arguments to run `tests` (of one framework, among `all` of its Swift
  /// Testing tests when it is that), `repetitions` times.
  static func arguments(
    _ tests: [PackageTest], of all: Set<String> = [], repetitions: Int, inParallel: Bool, channel: Int32,
    eventStreamVersion: String
  ) -> [String] {
    switch tests.first?.framework ?? .xctest {
    case .swiftTesting:
      ["--testing-library", "swift-testing"] + selection(tests, of: all) + [
        "--repetitions", String(repetitions),
      ] + (inParallel ? [] : ["--no-parallel"]) + [
        // The console output would say again what the event stream says, at a cost per event;
        // `--quiet` still has the console recorder build every event's message, the lowest
        // verbosity does not. Crash messages come from the runtime, not from the console.
        "--verbosity", String(Int.min),
        "--event-stream-output-path", "/dev/fd/\(channel)",
        "--event-stream-version", eventStreamVersion,
      ]
    case .xctest:
      // XCTest has no repetition flag: the harness repeats the tests (`repetitions` is in the
      // environment) and hands XCTest only those; one test is named as well (its filter is
      // exact), several are not (XCTest's filter takes one).
      ["--testing-library", "xctest"] + (tests.count == 1 ? [tests[0].id] : [])
    }
  }

  /// The options that select `tests` among `all` the binary's Swift Testing tests, in the
  /// fewest words: none for the whole suite, as `swift test` runs it; else `--filter` of those
  /// to run or `--skip` of those not to, whichever names fewer. Swift Testing matches every
  /// test against every alternative, so naming 3,000 tests to run 3,000 cost a pass more than
  /// the tests did.
  ///
  /// Linux limits each argument to 128 KiB: the IDs are split among as many `--filter` (or
  /// `--skip`) options as it takes, which Swift Testing reads as one choice (any filter runs a
  /// test, any skip leaves it out).
  static func selection(_ tests: [PackageTest], of all: Set<String>) -> [String] {
    let chosen = Set(tests.map(\.id))
    let rest = all.subtracting(chosen)
    guard chosen.isSubset(of: all) else { return options("--filter", chosen) }
    if rest.isEmpty { return [] }
    return rest.count < chosen.count ? options("--skip", rest) : options("--filter", chosen)
  }

  /// The longest pattern one option carries: well under the kernel's 128 KiB a string.
  static let patternLimit = 96 * 1024

  /// `option` with anchored patterns that together match exactly `ids`: an ID must not match a
  /// longer one (`yield()` and `yieldTwice()`).
  private static func options(_ option: String, _ ids: Set<String>) -> [String] {
    var options: [String] = []
    var group: [String] = []
    var length = 0
    func flush() {
      guard !group.isEmpty else { return }
      options += [option, "^(" + group.joined(separator: "|") + ")(/|$)"]
      group = []
      length = 0
    }
    for id in ids.sorted() {
      let escaped = NSRegularExpression.escapedPattern(for: id)
      if length + escaped.utf8.count + 1 > patternLimit { flush() }
      group.append(escaped)
      length += escaped.utf8.count + 1
    }
    flush()
    return options
  }

  /// The worker environment with the harness preloaded and configured; with no configuration
  /// the harness only ties the process's life to this one's (a listing).
  static func environment(_ configuration: HarnessConfiguration?, preload: String) -> [String: String] {
    var environment = WorkerLaunch.baseEnvironment.merging(configuration?.environment ?? [:]) { $1 }
    // The harness replaces the zero seed this gives with one drawn from the lab's, so that hash
    // order depends on the seed alone, not on where each table was allocated.
    if configuration != nil { environment["SWIFT_DETERMINISTIC_HASHING"] = "1" }
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

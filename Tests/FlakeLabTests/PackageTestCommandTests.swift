import Foundation
import XCTest

@testable import FlakeLab

/// `flakelab test` against the NumberFacts fixture, a package of the user's kind, through the
/// real executable. The fixture is built once per test run; every test then runs its tests with
/// `--skip-build`.
final class PackageTestCommandTests: XCTestCase {
  override func setUp() async throws {
    let listing = try Fixtures.numberFactsBuild.get()
    XCTAssertEqual(listing.status, 0, listing.stderr)
  }

  private func test(_ arguments: [String]) throws -> (status: Int32, runs: [String: RunResult], stderr: String) {
    let result = try Flakelab.run(
      ["test", "--package-path", Fixtures.numberFacts, "--sanitize", "none", "--skip-build", "--format", "json"]
        // These check one test repeated per worker; the suite layout has TestDiagnosisTests.
        + (arguments.contains("--layout") ? [] : ["--layout", "repetitions"]) + arguments)
    XCTAssertFalse(result.stdout.isEmpty, result.stderr)
    let report = try ReportJSON.read(Array(result.stdout.utf8), name: "stdout")
    // Keyed by the run's test ID and executor: `NumberFactsTests.IsLoadingTests/yield() serial`.
    let keyed = Dictionary(
      uniqueKeysWithValues: report.runs.map { ("\($0.test?.test.id ?? "?") \($0.executor)", $0) })
    return (result.status, keyed, result.stderr)
  }

  private let xctest = "NumberFactsTests.IsLoadingXCTests/"
  private let swiftTesting = "NumberFactsTests.IsLoadingTests/"

  func testListsEveryTestWithItsFramework() throws {
    let lines = try Fixtures.numberFactsBuild.get().stdout.split(separator: "\n").map {
      $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    }
    XCTAssertEqual(lines.count, 10)
    XCTAssertTrue(lines.contains(["xctest", xctest + "testEndpointYield"]))
    XCTAssertTrue(lines.contains(["swift-testing", swiftTesting + "endpointYield()"]))
  }

  func testSerialMakesTheFixDeterministicAndTheYieldFailEveryTimeInBothFrameworks() throws {
    let (status, runs, stderr) = try test([
      "--executor", "serial", "--iterations", "200", "--filter", "ndpointYield|[yY]ield\\b",
    ])
    XCTAssertEqual(status, 0, stderr)
    XCTAssertEqual(runs.count, 4)
    for fix in [xctest + "testEndpointYield", swiftTesting + "endpointYield()"] {
      XCTAssertEqual(
        Flakelab.counts(runs[fix + " serial"]),
        ["iterations": 200, "passed": 200, "failed": 0, "crashed": 0, "timedOut": 0], fix)
    }
    for yield in [xctest + "testYield", swiftTesting + "yield()"] {
      XCTAssertEqual(
        Flakelab.counts(runs[yield + " serial"]),
        ["iterations": 200, "passed": 0, "failed": 200, "crashed": 0, "timedOut": 0], yield)
    }
    let run = try XCTUnwrap(runs[swiftTesting + "yield() serial"])
    XCTAssertEqual(run.test?.test.framework, .swiftTesting)
    XCTAssertEqual(run.scenario, "NumberFactsTests.IsLoadingTests")
    XCTAssertEqual(run.variant, "yield()")
    XCTAssertEqual(run.test?.layout, .repetitions)
    XCTAssertEqual(
      run.tally.histogram.map(\.outcome),
      [.failed(observation: "Expectation failed: (model → NumberFacts.NumberFactModel).isLoading → false")])
    XCTAssertEqual(runs[xctest + "testYield serial"]?.test?.test.framework, .xctest)
  }

  /// Swift Testing runs in the test process through the harness's runner where the probe says it
  /// fits, as this toolchain's does: a test's start and end come as the lab's own lines (through
  /// the serial executor's relay here), a suite's are not written, and the issue is Swift
  /// Testing's own record, in order between them.
  func testSwiftTestingRunsInProcessAndWritesOnlyWhatTheLabReads() throws {
    let package = try TestPackage.build(at: Fixtures.numberFacts, skippingBuild: true)
    let preload = try TestLaunch.preloadLibrary(besides: Flakelab.executable.path)
    let probe = try HarnessProbe.run(binary: package.testBinary, preload: preload, mechanisms: [.untouched])
    XCTAssertTrue(probe.runsSwiftTestingInProcess)
    let test = PackageTest(id: swiftTesting + "yield()", framework: .swiftTesting)
    let configuration = HarnessConfiguration(mechanism: .mainQueueRedirect, tests: [test], repetitions: 2)
    let channel = try PipeEnds()
    let spawned = try ProcessSpawner.spawn(
      executable: package.testBinary,
      arguments: TestLaunch.arguments(
        [test], repetitions: 2, inParallel: false, channel: configuration.channel,
        eventStreamVersion: package.eventStreamVersion),
      environment: TestLaunch.environment(configuration, preload: preload), channel: channel.writeEnd,
      as: configuration.channel, inherited: [try configuration.testListFile()])
    close(channel.writeEnd)
    defer { close(spawned.output) }
    var status: Int32 = 0
    XCTAssertEqual(waitpid(spawned.pid, &status, 0), spawned.pid)
    var reader = LineReader(descriptor: channel.readEnd)
    var events: [String] = []
    // Each start and end says when, by the process's clock: the test's time, however late it is read.
    var instants: [Double?] = []
    reader.read { line in
      switch TestEvent.parse(line) {
      case .runStarted: events.append("runStarted")
      case .testStarted(let id, let at):
        events.append("started \(id)")
        instants.append(at)
      case .issueRecorded(_, let message, let isFailure, _): events.append("issue \(message) \(isFailure)")
      case .testEnded(let id, let at, let issues):
        events.append("ended \(id)" + (issues.map { " \($0) issues" } ?? ""))
        instants.append(at)
      case .runEnded(let written): events.append("runEnded \(written)")
      // The images the watch's stacks lie in, said once before any test: not a test's event.
      case .stackImages: events.append("stackImages")
      default: events.append(String(decoding: line, as: UTF8.self))
      }
    }
    close(channel.readEnd)
    let id = "NumberFactsTests.IsLoadingTests/yield()/IsLoadingTests.swift:17:4"
    let issue = "issue Expectation failed: (model → NumberFacts.NumberFactModel).isLoading → false true"
    // The run's end counts every event before it: the supervisor checks that none was lost.
    XCTAssertEqual(
      events,
      ["stackImages", "runStarted"]
        + Array(repeating: ["started \(id)", issue, "ended \(id) 1 issues"], count: 2).joined()
        + ["runEnded 7"])
    let said = instants.compactMap { $0 }
    XCTAssertEqual(said.count, 4)
    XCTAssertEqual(said, said.sorted())
  }

  func testCrashesAndHangsAreCountedExactlyAndTheRunResumes() throws {
    // One replicate: the fixture counts runs per process, and a replicate is a process.
    let crashes = try test([
      "--executor", "global", "--iterations", "300", "--replicates", "1", "--filter", "rashesOnceInAHundred",
    ])
    XCTAssertEqual(crashes.status, 0, crashes.stderr)
    for id in [xctest + "testCrashesOnceInAHundred", swiftTesting + "crashesOnceInAHundred()"] {
      let run = crashes.runs[id + " global"]
      XCTAssertEqual(
        Flakelab.counts(run), ["iterations": 300, "passed": 297, "failed": 0, "crashed": 3, "timedOut": 0], id)
      XCTAssertEqual(
        run?.tally.histogram.map(\.outcome),
        [.passed, .crashed(Crash(how: "signal 4 (SIGILL): Fatal error: run 100 of this process crashed on purpose"))],
        id)
    }
    let hangs = try test([
      "--executor", "global", "--iterations", "100", "--replicates", "1", "--timeout", "200ms",
      "--filter", "angsOnceInFifty",
    ])
    XCTAssertEqual(hangs.status, 0, hangs.stderr)
    for id in [xctest + "testHangsOnceInFifty", swiftTesting + "hangsOnceInFifty()"] {
      XCTAssertEqual(
        Flakelab.counts(hangs.runs[id + " global"]),
        ["iterations": 100, "passed": 98, "failed": 0, "crashed": 0, "timedOut": 2], id)
    }
  }

  func testSeededIterationsReplayAloneWithTheirOutcome() throws {
    for id in [xctest + "testEndpointYield", swiftTesting + "endpointYield()"] {
      let filter = "^" + NSRegularExpression.escapedPattern(for: id) + "$"
      let (status, runs, stderr) = try test([
        "--executor", "seeded", "--seed", "7", "--iterations", "30", "--jobs", "2", "--filter", filter,
      ])
      XCTAssertEqual(status, 0, stderr)
      let run = try XCTUnwrap(runs[id + " seeded"])
      let failing = try XCTUnwrap(run.schedule?.failingIterations)
      let failingIndices = Set(failing.map(\.index))
      // The seeded order makes the fix fail in some iterations and pass in others.
      XCTAssertFalse(failingIndices.isEmpty, id)
      let passingIndex = try XCTUnwrap((0..<20).first { !failingIndices.contains($0) }, id)
      let replayed = ScheduleText.replayCommand(run, try XCTUnwrap(failing.first), program: "flakelab")
      XCTAssertTrue(replayed.hasPrefix("flakelab test --package-path "), replayed)
      for index in failingIndices.sorted().prefix(3) + [passingIndex] {
        let replay = try test(["--executor", "seeded", "--seed", "7", "--index", String(index), "--filter", filter])
        XCTAssertEqual(
          replay.runs[id + " seeded"]?.tally.failed, failingIndices.contains(index) ? 1 : 0,
          "\(id) iteration \(index)")
      }
    }
  }

  func testFreshProcessesStartEveryIterationAnew() throws {
    // The crash test traps on the 100th run of a process: with a process per iteration, never.
    let (status, runs, stderr) = try test([
      "--executor", "serial", "--iterations", "120", "--layout", "fresh", "--filter", "testCrashes|testYield",
    ])
    XCTAssertEqual(status, 0, stderr)
    XCTAssertEqual(Flakelab.counts(runs[xctest + "testCrashesOnceInAHundred serial"])["passed"], 120)
    XCTAssertEqual(Flakelab.counts(runs[xctest + "testYield serial"])["failed"], 120)
    XCTAssertEqual(runs[xctest + "testYield serial"]?.test?.layout, .fresh)
  }

  func testCtrlCGivesAPartialReportAnd130AndLeavesNoTestProcess() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-test-interrupted-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let process = try Flakelab.launch([
      "test", "--package-path", Fixtures.numberFacts, "--skip-build", "--layout", "repetitions", "--filter",
      "IsLoadingTests/hangsOnceInFifty",
      "--executor", "global", "--iterations", "100000", "--timeout", "5s", "--output", path,
    ])
    Thread.sleep(forTimeInterval: 2)
    process.interrupt()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 130)
    let report = try ReportJSON.read(try XCTUnwrap(FileManager.default.contents(atPath: path)), name: path)
    XCTAssertTrue(report.interrupted)
    // The test hangs on its 50th run in a process, and 2 s are less than the 5 s limit: what
    // ran is up to 49 passes per process, nothing else.
    let run = try XCTUnwrap(report.runs.first)
    XCTAssertGreaterThan(run.tally.passed, 0)
    for replicate in run.replicates {
      XCTAssertEqual([replicate.failed, replicate.crashed, replicate.timedOut], [0, 0, 0])
      XCTAssertLessThanOrEqual(replicate.passed, 49)
      XCTAssertEqual(replicate.iterations, replicate.passed)
    }
    XCTAssertEqual(report.runs.first?.test?.test.id, swiftTesting + "hangsOnceInFifty()")
    XCTAssertEqual(OwnProcesses.left("NumberFactsPackageTests.xctest"), [], "test processes left running")
  }

  func testKillingTheSupervisorKillsItsTestProcesses() throws {
    for (arguments, worker) in [
      (["run", "toggleRace", "--iterations", "1000000"], "flakelab-worker worker"),
      (
        [
          "test", "--package-path", Fixtures.numberFacts, "--skip-build", "--layout", "repetitions", "--filter",
          "hangsOnceInFifty",
          "--executor", "serial", "--iterations", "1000000",
        ], "NumberFactsPackageTests.xctest"
      ),
    ] {
      let process = try Flakelab.launch(arguments)
      Thread.sleep(forTimeInterval: 2)
      XCTAssertNotEqual(OwnProcesses.living(worker), [], "no \(worker) ran")
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      XCTAssertEqual(OwnProcesses.left(worker), [], "\(worker) outlived its supervisor")
    }
  }

  func testBadInputIsOneLineAndExitTwo() throws {
    let empty = FileManager.default.temporaryDirectory.path
    let cases: [([String], String)] = [
      (["test", "--package-path", empty], "has no Package.swift"),
      (["test", "--package-path", "/no/such/dir"], "no directory at '/no/such/dir'"),
      (
        ["test", "--package-path", Fixtures.numberFacts, "--skip-build", "--filter", "nothing"],
        "no test matches 'nothing'; 10 tests exist"
      ),
      (["test", "--executors", "global,serail"], "did you mean 'serial'?"),
      (["test", "--filter", "("], "is not one"),
      (["test", "--iterations", "3", "--iterations", "4"], "--iterations is given more than once"),
      (["test", "NumberFactsTests"], "test takes no positional arguments"),
    ]
    for (arguments, expected) in cases {
      let result = try Flakelab.run(arguments)
      XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
      XCTAssertEqual(result.stdout, "", arguments.joined(separator: " "))
      let lines = result.stderr.split(separator: "\n")
      XCTAssertEqual(lines.count, 1, result.stderr)
      XCTAssertTrue(result.stderr.contains(expected), result.stderr)
    }
  }

  func testAPackageThatDoesNotBuildShowsItsCompilerErrors() throws {
    let broken = Fixtures.directory.appendingPathComponent("DoesNotBuild").path
    let result = try Flakelab.run(["test", "--package-path", broken])
    XCTAssertEqual(result.status, 2)
    let lines = result.stderr.split(separator: "\n")
    XCTAssertTrue(lines.dropLast().allSatisfy { $0.contains("error:") }, result.stderr)
    XCTAssertTrue(lines.contains { $0.contains("cannot convert value of type 'String' to specified type 'Int'") })
    XCTAssertEqual(
      lines.last.map(String.init),
      "flakelab: the package at '\(broken)' does not build (swift build --build-tests exited 1)")
  }

  /// --fail-on-flaky holds in every layout, with --index, and in a merge of
  /// shards; a merge with no package test in it refuses the flag.
  func testFailOnFlakyFailsTheCommandInEveryLayoutAndInAMerge() throws {
    // yield() fails under serial every time and under global nearly always: failing or flaky,
    // as the iterations fall; either fails the command.
    let failing = "not met: \(swiftTesting)yield() is "
    let chosen = [
      "test", "--package-path", Fixtures.numberFacts, "--sanitize", "none", "--skip-build", "--no-progress", "--filter",
      "IsLoadingTests/(yield|endpointYield)",
    ]
    for extra in [["--layout", "repetitions"], ["--layout", "fresh"], ["--index", "2"]] {
      let result = try Flakelab.run(chosen + extra + ["--iterations", "3", "--fail-on-flaky"])
      XCTAssertEqual(result.status, 1, "\(extra): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains(failing), "\(extra): \(result.stderr)")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flakelab-shards-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let shards = try (0..<2).map { index in
      let path = directory.appendingPathComponent("shard\(index).json").path
      let result = try Flakelab.run(chosen + ["--iterations", "4", "--shard", "\(index)/2", "--output", path])
      XCTAssertEqual(result.status, 0, result.stderr)
      return path
    }
    let merged = try Flakelab.run(["merge"] + shards + ["--fail-on-flaky"])
    XCTAssertEqual(merged.status, 1, merged.stderr)
    XCTAssertTrue(merged.stderr.contains(failing), merged.stderr)
    XCTAssertEqual(try Flakelab.run(["merge"] + shards).status, 0)
    let scenario = directory.appendingPathComponent("scenario.json").path
    XCTAssertEqual(try Flakelab.run(["run", "lab.crash", "--iterations", "100", "--output", scenario]).status, 0)
    let refused = try Flakelab.run(["merge", scenario, "--fail-on-flaky"])
    XCTAssertEqual(refused.status, 2)
    XCTAssertEqual(
      refused.stderr,
      "flakelab: --fail-on-flaky judges a package's tests, and these reports hold no flakelab test run\n")
  }

  /// --filter and --skip match what `swift test --filter` matches, which for
  /// Swift Testing is the ID with the source file, line and column appended.
  func testFilterMatchesTheSourceFileAsSwiftTestDoes() throws {
    let listed = try Flakelab.run(
      ["test", "--package-path", Fixtures.numberFacts, "--skip-build", "--list", "--filter", "IsLoadingTests\\.swift"])
    XCTAssertEqual(listed.status, 0, listed.stderr)
    let ids = listed.stdout.split(separator: "\n").map { $0.split(separator: " ").last.map(String.init) ?? "" }
    XCTAssertEqual(
      ids,
      ["crashesOnceInAHundred()", "endpointYield()", "hangsOnceInFifty()", "naive()", "yield()"].map {
        swiftTesting + $0
      })
    let oneLine = try Flakelab.run(
      [
        "test", "--package-path", Fixtures.numberFacts, "--skip-build", "--list", "--filter",
        "IsLoadingTests\\.swift:17:",
      ])
    XCTAssertEqual(oneLine.stdout, "swift-testing  \(swiftTesting)yield()\n", oneLine.stderr)
    let skipped = try Flakelab.run(
      ["test", "--package-path", Fixtures.numberFacts, "--skip-build", "--list", "--skip", "\\.swift:"])
    XCTAssertFalse(skipped.stdout.contains("swift-testing"), skipped.stdout)
    XCTAssertTrue(skipped.stdout.contains(xctest + "testYield"), skipped.stdout)
  }

  /// XCTest joins an assertion and its message with " - ", also when the test
  /// gave none; the outcome is the assertion alone.
  func testAnXCTestFailureWithoutAMessageEndsWithTheAssertion() throws {
    let (status, runs, stderr) = try test([
      "--executor", "global", "--iterations", "2", "--filter", "XCTests/testNaive",
    ])
    XCTAssertEqual(status, 0, stderr)
    let naive = try XCTUnwrap(runs[xctest + "testNaive global"])
    XCTAssertEqual(naive.tally.outcomesByFrequency.map(\.outcome), [.failed(observation: "XCTAssertTrue failed")])
  }
}

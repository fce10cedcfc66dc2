import Foundation
import XCTest

@testable import FlakeLab

/// `flakelab test` tells the truth on packages of the kinds people have: an XCTest-only
/// package, and Swift Testing tests that skip, fail for reasons, trap before they start, are
/// slow now and then, leave children behind, turn the serial executor off, or wait on another
/// thread within a timeout. Each fixture is built once per test run, by its first listing.
final class RealPackageTruthTests: XCTestCase {
  /// One run of every Awkward test under global, serial and seeded, read back as a report.
  static let awkwardRun = Result { () throws -> (status: Int32, report: Report, stderr: String) in
    _ = try Fixtures.awkwardBuild.get()
    let result = try Flakelab.run([
      "test", "--package-path", Fixtures.awkward, "--skip-build", "--layout", "repetitions", "--iterations", "40",
      "--executors", "global,serial,seeded",
      "--format", "json",
    ])
    return (result.status, try ReportJSON.read(Data(result.stdout.utf8), name: "stdout"), result.stderr)
  }

  private func run(_ report: Report, _ function: String, _ executor: String) throws -> RunResult {
    try XCTUnwrap(
      report.runs.first { $0.test?.test.function == function && $0.executor.name == executor },
      "\(function) \(executor)")
  }

  // Points 1 and 3: a package with XCTest tests only, and the binary of its name as it is now.

  func testAnXCTestOnlyPackageIsListedAndMeasured() throws {
    let listing = try Fixtures.xctestOnlyBuild.get()
    XCTAssertEqual(listing.status, 0, listing.stderr)
    XCTAssertEqual(
      listing.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) },
      [
        "testAStopBeforeTheMainRunLoopRunsEndsItsNextTurn", "testClosesDescriptorsAndOpensAFile", "testGreets",
        "testLeavesAChildRunning", "testSkipsOnLinux",
        "testWaitsBrieflyForATaskByBlockingItsThread", "testWaitsForATaskByBlockingItsThread",
      ].map { ["xctest", "GreetingTests.GreetingTests/" + $0] })
    let result = try Flakelab.run([
      "test", "--package-path", Fixtures.xctestOnly, "--skip-build", "--layout", "repetitions", "--iterations", "20",
      "--executors", "global,serial",
      "--skip", "Blocking", "--format", "json",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let report = try ReportJSON.read(Data(result.stdout.utf8), name: "stdout")
    XCTAssertEqual(report.runs.count, 10)
    // XCTest's waits see a stop that came before the run loop ran (`DroppedStopRescue`).
    let stopBeforeRun = "testAStopBeforeTheMainRunLoopRunsEndsItsNextTurn"
    for executor in ["global", "serial"] {
      for test in ["testGreets", "testLeavesAChildRunning", "testClosesDescriptorsAndOpensAFile", stopBeforeRun] {
        let tally = try run(report, test, executor).tally
        XCTAssertEqual([tally.iterations, tally.passed], [20, 20], "\(test) \(executor): \(tally.histogram)")
      }
    }
    // Point 7: the child each iteration left ended with its worker.
    XCTAssertEqual(OwnProcesses.left("sleep 3517"), [])
  }

  func testABinaryLeftByAnOldNameOfThePackageIsNeverRun() throws {
    XCTAssertEqual(try Fixtures.xctestOnlyBuild.get().status, 0)
    let binPath = try Flakelab.runTool(
      "/usr/bin/env", ["swift", "build", "--package-path", Fixtures.xctestOnly, "--show-bin-path"]
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)
    // First in alphabetical order, as the binary of a package renamed since would be.
    let stale = binPath + "/AAAOldNamePackageTests.xctest"
    try "#!/bin/sh\necho 'Old.Stale/testOld'\n".write(toFile: stale, atomically: true, encoding: .utf8)
    chmod(stale, 0o755)
    defer { unlink(stale) }
    let listing = try Flakelab.run(["test", "--package-path", Fixtures.xctestOnly, "--skip-build", "--list"])
    XCTAssertEqual(listing.status, 0, listing.stderr)
    XCTAssertFalse(listing.stdout.contains("testOld"), listing.stdout)
    XCTAssertTrue(listing.stdout.contains("GreetingTests.GreetingTests/testGreets"), listing.stdout)
  }

  // Point 4: skipped is neither failed nor passed, in every format.

  func testSkippedIterationsAreOutsideTheRateInEveryFormat() throws {
    let arguments = [
      "test", "--package-path", Fixtures.xctestOnly, "--skip-build", "--layout", "repetitions", "--iterations", "20",
      "--executor", "serial",
      "--filter", "testSkipsOnLinux", "--max-failure-rate", "1%",
    ]
    let json = try Flakelab.run(arguments + ["--format", "json"])
    XCTAssertEqual(json.status, 0, "a run that only skipped passes every gate: \(json.stderr)")
    let run = try XCTUnwrap(JSONParser.parse(Array(json.stdout.utf8))?["runs"]?.array?.first)
    XCTAssertEqual([run["skipped"], run["passed"], run["failed"]], [.int(20), .int(0), .int(0)])
    XCTAssertEqual(run["failureRate"], .null, "no rate, not 0% and not 100%")
    XCTAssertEqual(run["outcomes"]?.array?.first?["outcome"], .string("skipped"))
    let junit = try Flakelab.run(arguments + ["--format", "junit"])
    XCTAssertTrue(junit.stdout.contains("<skipped message=\"skipped: XCTSkip\"/>"), junit.stdout)
    XCTAssertFalse(junit.stdout.contains("<failure"), junit.stdout)
    let csv = try Flakelab.run(arguments + ["--format", "csv"])
    let rows = csv.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let skipped = try XCTUnwrap(rows.first?.firstIndex(of: "skipped"))
    XCTAssertEqual(rows.last?[skipped], "20")
    XCTAssertEqual(rows.last?[8], "", "failureRate")
  }

  func testADisabledSwiftTestingTestIsSkippedWithItsReasonAndNoReplay() throws {
    let (status, report, stderr) = try Self.awkwardRun.get()
    XCTAssertEqual(status, 0, stderr)
    for executor in ["global", "serial", "seeded"] {
      let disabled = try run(report, "disabled()", executor)
      XCTAssertEqual(disabled.tally.histogram.map(\.outcome), [.skipped(reason: "waiting on a fix")])
      XCTAssertFalse(disabled.estimate.hasRate)
      XCTAssertEqual(disabled.schedule?.failingIterations ?? [], [])
    }
  }

  // Point 2: tests at file scope.

  func testSwiftTestingTestsAtFileScopeAreListedAndMeasured() throws {
    let listing = try Fixtures.awkwardBuild.get()
    XCTAssertEqual(listing.status, 0, listing.stderr)
    XCTAssertTrue(listing.stdout.contains("swift-testing  AwkwardTests.passesAtFileScope()"), listing.stdout)
    XCTAssertEqual(listing.stdout.split(separator: "\n").count, 11)
    let passes = try run(try Self.awkwardRun.get().report, "passesAtFileScope()", "global")
    XCTAssertEqual(passes.scenario, "AwkwardTests")
    XCTAssertEqual([passes.tally.iterations, passes.tally.passed], [40, 40])
  }

  // Point 5: what the test said, whole and grouped.

  func testFailuresKeepWhatTheTestSaidAndEqualFailuresGroup() throws {
    let report = try Self.awkwardRun.get().report
    for executor in ["global", "serial"] {
      XCTAssertEqual(
        Set(try run(report, "failsForTwoReasons()", executor).tally.nonPassing.keys),
        [
          .failed(observation: "Issue recorded — the cache was cold"),
          .failed(observation: "Issue recorded — the cache was stale"),
        ])
      XCTAssertEqual(
        Array(try run(report, "recordsTwoIssuesInEitherOrder()", executor).tally.nonPassing.keys),
        [.failed(observation: "Issue recorded — the date is missing; Issue recorded — the name is empty")])
      let changing = try run(report, "failsWithAChangingValue()", executor).tally
      let outcome = Outcome.failed(
        observation: #"Expectation failed: (token → "<uuid>") == "expected" — the session token"#)
      XCTAssertEqual(Array(changing.nonPassing.keys), [outcome])
      let example = try XCTUnwrap(changing.examples[outcome])
      XCTAssertNotNil(example.firstMatch(of: #/→ "[0-9A-F]{8}-[0-9A-F]{4}-/#), example)
    }
  }

  // Point 6: a test that dies before its first event is the test's outcome, never the lab's.

  func testATestWhoseArgumentsTrapIsCountedAsCrashedAndTheRestIsKept() throws {
    let (status, report, stderr) = try Self.awkwardRun.get()
    XCTAssertEqual(status, 0, stderr)
    for executor in ["global", "serial", "seeded"] {
      let traps = try run(report, "trapsInItsArguments(number:)", executor)
      XCTAssertEqual(traps.tally.crashed, RunSettling.startFailureLimit, executor)
      XCTAssertEqual(traps.tally.iterations + traps.notRun, 40)
      let crash = try XCTUnwrap(traps.tally.nonPassing.keys.first)
      XCTAssertEqual(
        crash,
        .crashed(
          Crash(how: "signal 4 (SIGILL): Fatal error: the argument list could not be built", beforeTheTestStarted: true)
        ))
    }
    XCTAssertEqual(report.runs.count, 33, "every other test measured too")
  }

  // Found on swift-property-based: the event stream must not change what the test sees.

  func testWarningsReachTheTestsOwnIssueHandlersAsUnderSwiftTest() throws {
    let report = try Self.awkwardRun.get().report
    for executor in ["global", "serial", "seeded"] {
      let counts = try run(report, "countsItsOwnWarnings()", executor).tally
      XCTAssertEqual([counts.iterations, counts.passed], [40, 40], "\(executor): \(counts.histogram)")
    }
  }

  // Point 8: a slow iteration is no hang.

  func testASlowIterationIsNeverATimeout() throws {
    let report = try Self.awkwardRun.get().report
    for executor in ["global", "serial", "seeded"] {
      let slow = try run(report, "slowEveryTwentiethRun()", executor).tally
      XCTAssertEqual([slow.iterations, slow.passed, slow.timedOut], [40, 40, 0], executor)
    }
    XCTAssertEqual(report.timeout, .seconds(60))
  }

  // Point 7: children that leave the worker's process group end too.

  func testAChildInASessionOfItsOwnEndsWithTheRun() throws {
    let report = try Self.awkwardRun.get().report
    XCTAssertEqual(try run(report, "leavesAChildInASessionOfItsOwn()", "global").tally.passed, 40)
    XCTAssertEqual(OwnProcesses.left("sleep 3518"), [])
  }

  // Point 9: no figure under an executor that was not in force.

  func testATestThatTurnsTheSerialExecutorOffHasNoSerialRate() throws {
    let report = try Self.awkwardRun.get().report
    let serial = try run(report, "turnsTheSerialExecutorOff()", "serial")
    XCTAssertEqual(serial.tally.executorChanged, 40)
    XCTAssertFalse(serial.estimate.hasRate)
    XCTAssertEqual(try run(report, "turnsTheSerialExecutorOff()", "global").tally.passed, 40)
  }

  /// The answer says what each verdict rests on under each executor, names
  /// a test never measured under one, and a gate is never met on its iterations there.
  func testAnExecutorATestTurnedOffIsNamedAndPassesNoGate() throws {
    _ = try Fixtures.awkwardBuild.get()
    let arguments = [
      "test", "--package-path", Fixtures.awkward, "--sanitize", "none", "--skip-build", "--iterations", "3",
      "--no-progress",
      "--filter", "turnsTheSerialExecutorOff|passesAtFileScope",
    ]
    let answer = try Flakelab.run(arguments)
    XCTAssertEqual(answer.status, 0, answer.stderr)
    // Under serial a test that runs after it in the same process finds the executor off too, in
    // the passes where it comes later: 0 to 3 serial passes measured, as the order falls. When
    // it came later in all three (about one run in eight), it was never measured either.
    let stable = try XCTUnwrap(
      answer.stdout.firstMatch(of: /\n2 tests stable over 3 passes under global and 0(–[1-3])? under serial\.\n/),
      answer.stdout)
    let neverMeasured =
      stable.1 == nil
      ? "\n2 tests never measured under serial (the executor was off when each iteration ended: the test, or one before it in its process, turned it off): "
        + "AwkwardTests.passesAtFileScope() and AwkwardTests.turnsTheSerialExecutorOff().\n"
      : "\n1 test never measured under serial (the executor was off when each iteration ended: the test, or one before it in its process, turned it off): "
        + "AwkwardTests.turnsTheSerialExecutorOff().\n"
    XCTAssertTrue(answer.stdout.contains(neverMeasured), answer.stdout)
    let gated = try Flakelab.run(arguments + ["--max-failure-rate", "99%"])
    XCTAssertEqual(gated.status, 1, gated.stderr)
    XCTAssertTrue(
      gated.stderr.contains(
        "not met: AwkwardTests.turnsTheSerialExecutorOff() under serial: no iteration was measured "
          + "(the executor was off when each of its 3 iterations ended), so no gate is shown to hold"), gated.stderr)
  }

  /// Under serial alone, a test that left the executor off ran; it is never measured
  /// there, not "never started" (swift-async-algorithms: 95 tests said so).
  func testATestThatTurnedTheOnlyExecutorOffRanAndWasNotMeasured() throws {
    _ = try Fixtures.awkwardBuild.get()
    let answer = try Flakelab.run([
      "test", "--package-path", Fixtures.awkward, "--sanitize", "none", "--skip-build", "--iterations", "1",
      "--no-progress", "--executors",
      "serial",
      "--budget", "none", "--filter", "turnsTheSerialExecutorOff",
    ])
    XCTAssertEqual(answer.status, 0, answer.stderr)
    XCTAssertFalse(answer.stdout.contains("never started"), answer.stdout)
    XCTAssertTrue(
      answer.stdout.contains(
        "1 test never measured under serial (the executor was off when each iteration ended: the test, or one before it "
          + "in its process, turned it off): AwkwardTests.turnsTheSerialExecutorOff()."), answer.stdout)
  }

  // Point 10: no failure the seeded executor's clock invents.

  func testSeededNeverRunsATimeoutAheadOfWorkOnAnotherThread() throws {
    let report = try Self.awkwardRun.get().report
    for executor in ["global", "serial", "seeded"] {
      let answers = try run(report, "answersFromAnotherThreadWithinItsTimeout()", executor)
      XCTAssertEqual(
        [answers.tally.iterations, answers.tally.passed], [40, 40], "\(executor): \(answers.tally.histogram)")
    }
    XCTAssertEqual(
      try run(report, "answersFromAnotherThreadWithinItsTimeout()", "seeded").schedule?.isControlled, false)
    XCTAssertEqual(try run(report, "passesAtFileScope()", "seeded").schedule?.isControlled, true)
  }

  // Point 12: an interrupt at every stage before the measurement.

  func testAnInterruptDuringTheBuildIsOneLineAnd130AndLeavesNothing() throws {
    let copy = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-interrupted-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: copy) }
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
    for item in ["Package.swift", "Sources", "Tests"] {
      try FileManager.default.copyItem(
        at: URL(fileURLWithPath: Fixtures.xctestOnly).appendingPathComponent(item),
        to: copy.appendingPathComponent(item))
    }
    let report = copy.appendingPathComponent("report.json").path
    // Interrupted while the package's own module compiles: SwiftPM starts its compilers in
    // process groups of their own (the manifest's compiler is in the build's).
    let (status, stderr, lab) = try interrupt(
      ["test", "--package-path", copy.path, "--output", report], with: SIGTERM, once: "-module-name Greeting")
    XCTAssertEqual(status, 130)
    XCTAssertEqual(stderr, "flakelab: interrupted while building the package; nothing was measured\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: report))
    // Ended with the lab, not after it: the compilers, in process groups of their own, went on
    // compiling once it had exited, into the temporary directory it had removed.
    XCTAssertEqual(OwnProcesses.living(copy.path), [], "the build's processes, as the lab exited")
    let scratch = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
      .filter { $0.hasPrefix("flakelab-build-\(lab)-") }
    XCTAssertEqual(scratch, [], "the build's temporary directory")
  }

  func testAnInterruptDuringTheListingStopsTheTestBinary() throws {
    let package = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-listing-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: package) }
    try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
    try """
    // swift-tools-version: 6.2
    import PackageDescription
    let package = Package(name: "Hangs", targets: [.testTarget(name: "HangsTests")])
    """.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    let binPath = try Flakelab.runTool(
      "/usr/bin/env", ["swift", "build", "--package-path", package.path, "--show-bin-path"]
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)
    try FileManager.default.createDirectory(atPath: binPath, withIntermediateDirectories: true)
    let binary = binPath + "/HangsPackageTests.xctest"
    try "#!/bin/sh\nexec sleep 3519\n".write(toFile: binary, atomically: true, encoding: .utf8)
    chmod(binary, 0o755)
    let (status, stderr, _) = try interrupt(
      ["test", "--package-path", package.path, "--skip-build", "--layout", "repetitions"], with: SIGINT,
      once: "sleep 3519")
    XCTAssertEqual(status, 130)
    XCTAssertEqual(stderr, "flakelab: interrupted while listing the tests; nothing was measured\n")
    XCTAssertEqual(OwnProcesses.left("sleep 3519"), [])
    // Killed outright, flakelab can stop nothing; the harness, preloaded into
    // the lister too, has the kernel end it with flakelab.
    let (killed, _, _) = try interrupt(
      ["test", "--package-path", package.path, "--skip-build", "--layout", "repetitions"], with: SIGKILL,
      once: "sleep 3519")
    XCTAssertEqual(killed, SIGKILL)
    XCTAssertEqual(OwnProcesses.left("sleep 3519"), [])
  }

  /// Starts flakelab with `arguments`, sends it `signal` once a descendant whose command line
  /// contains `text` runs, and returns its exit status and what it printed on stderr.
  private func interrupt(
    _ arguments: [String], with signal: Int32, once text: String
  ) throws -> (status: Int32, stderr: String, pid: pid_t) {
    let errors = Pipe()
    let process = try Flakelab.launch(arguments, errors: errors)
    let deadline = Date(timeIntervalSinceNow: 60)
    // What was seen is kept: a short-lived process (the manifest's compiler) may be gone when
    // asked again, and it ran all the same.
    var seen = OwnProcesses.living(text)
    while seen.isEmpty, Date() < deadline {
      Thread.sleep(forTimeInterval: 0.05)
      seen = OwnProcesses.living(text)
    }
    XCTAssertNotEqual(seen, [], "no \(text) ran")
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
      process.processIdentifier
    )
  }

  // A settled answer: a test that never finishes under an executor stops after three timeouts.

  func testATestThatNeverFinishesUnderSerialStopsAfterThreeTimeoutsAndSaysSo() throws {
    XCTAssertEqual(try Fixtures.xctestOnlyBuild.get().status, 0)
    let arguments = [
      "test", "--package-path", Fixtures.xctestOnly, "--skip-build", "--layout", "repetitions", "--filter", "Blocking",
      "--iterations", "20",
      "--timeout", "300ms", "--executors", "global,serial", "--no-progress",
    ]
    let json = try Flakelab.run(arguments + ["--format", "json"])
    XCTAssertEqual(json.status, 0, json.stderr)
    let report = try ReportJSON.read(Data(json.stdout.utf8), name: "stdout")
    let global = try run(report, "testWaitsForATaskByBlockingItsThread", "global")
    XCTAssertEqual([global.tally.iterations, global.tally.passed, global.notRun], [20, 20, 0])
    XCTAssertNil(global.stop)
    let serial = try run(report, "testWaitsForATaskByBlockingItsThread", "serial")
    XCTAssertEqual([serial.tally.iterations, serial.tally.timedOut, serial.notRun], [3, 3, 17])
    XCTAssertEqual(serial.stop, .everyIterationTimedOut)
    // A wait to a deadline 20 ms away is told when it returns, not before; each of its
    // failing iterations on one queue is still told, at the test's frame, which glibc's unwinder
    // does not reach (libswiftDispatch's wait has no unwind table): read off the stack above it.
    let briefly = "testWaitsBrieflyForATaskByBlockingItsThread"
    XCTAssertEqual(try run(report, briefly, "global").blockedIterations, 0, "no queue to block under global")
    let brief = try run(report, briefly, "serial")
    XCTAssertGreaterThan(brief.tally.failed, 0)
    XCTAssertEqual(brief.blockedIterations, brief.tally.failed)
    XCTAssertEqual(brief.blockedAt, "GreetingTests.\(briefly)(), in DispatchSemaphore.wait")
    let text = try Flakelab.run(arguments)
    XCTAssertTrue(
      text.stdout.contains(
        "    stopped: its first 3 iterations all timed out, so every further one would cost the whole timeout "
          + "to say so again; 17 iterations not run\n"),
      text.stdout)
  }

  // Point 15: a build leaves no temporary folders behind.

  func testABuildLeavesNothingInTheTemporaryDirectory() throws {
    XCTAssertEqual(try Fixtures.xctestOnlyBuild.get().status, 0)
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-tmp-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: temporary) }
    let result = try Flakelab.run(
      ["test", "--package-path", Fixtures.xctestOnly, "--list"], environment: ["TMPDIR": temporary.path])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [])
  }
}

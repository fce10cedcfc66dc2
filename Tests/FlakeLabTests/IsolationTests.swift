import Foundation
import XCTest

@testable import FlakeLab

/// Crash and hang isolation, sharding and report files, through the real executable.
final class IsolationTests: XCTestCase {
  private func runJSON(_ arguments: [String]) throws -> (status: Int32, runs: [[String: Any]]) {
    let result = try Flakelab.run(arguments + ["--format", "json"])
    let document = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
      result.stderr)
    return (result.status, try XCTUnwrap(document["runs"] as? [[String: Any]]))
  }

  private func counts(_ run: [String: Any]) -> [String: Int] {
    ["iterations", "passed", "failed", "crashed", "timedOut"].reduce(into: [:]) {
      $0[$1] = run[$1] as? Int
    }
  }

  func testCrashesAreCountedExactlyAndTheRunCompletes() throws {
    for jobs in ["1", "2"] {
      let (status, runs) = try runJSON(["run", "lab.crash", "--iterations", "1000", "--jobs", jobs])
      XCTAssertEqual(status, 0)
      XCTAssertEqual(
        counts(runs[0]),
        ["iterations": 1000, "passed": 990, "failed": 0, "crashed": 10, "timedOut": 0], "jobs \(jobs)")
      let outcomes = try XCTUnwrap(runs[0]["outcomes"] as? [[String: Any]])
      let crash = try XCTUnwrap(outcomes.first { $0["outcome"] as? String == "crashed" })
      XCTAssertEqual(
        crash["observation"] as? String, "signal 4 (SIGILL): Fatal error: lab.crash traps on purpose")
    }
  }

  func testHangsAreTimedOutExactly() throws {
    for jobs in ["1", "2"] {
      let (status, runs) = try runJSON([
        "run", "lab.hang", "--iterations", "200", "--timeout", "200ms", "--jobs", jobs,
      ])
      XCTAssertEqual(status, 0)
      XCTAssertEqual(
        counts(runs[0]),
        ["iterations": 200, "passed": 196, "failed": 0, "crashed": 0, "timedOut": 4], "jobs \(jobs)")
    }
  }

  func testAWorkerWhoseEveryIterationFailsIsNotTakenForHung() throws {
    // Every iteration fails, so every step of progress arrives as a failure record; the run
    // lasts many times the timeout, and not one iteration may count as timed out.
    let (status, runs) = try runJSON([
      "run", "isLoading.naive", "--executor", "serial", "--iterations", "200000", "--timeout", "100ms",
    ])
    XCTAssertEqual(status, 0)
    XCTAssertEqual(
      counts(runs[0]),
      ["iterations": 200_000, "passed": 0, "failed": 200_000, "crashed": 0, "timedOut": 0])
  }

  func testGlobalRunsAreMeasuredAsReplicatesAndIndependentOnesNeedNone() throws {
    func replicates(_ run: [String: Any]) -> [[String: Int]] {
      (run["replicates"] as? [[String: Any]] ?? []).map { replicate in
        replicate.compactMapValues { $0 as? Int }
      }
    }
    // Global: ten replicates by default, each a block of its own, adding up to the run.
    let (status, global) = try runJSON(["run", "lab.crash", "--iterations", "1000"])
    XCTAssertEqual(status, 0)
    XCTAssertEqual(
      replicates(global[0]),
      Array(repeating: ["iterations": 100, "passed": 99, "failed": 0, "crashed": 1, "timedOut": 0, "deadlocked": 0, "skipped": 0, "executorChanged": 0], count: 10))
    XCTAssertEqual((global[0]["confidence"] as? [String: Any])?["method"] as? String, "quasi-binomial-wilson")
    XCTAssertEqual(global[0]["dispersion"] as? Double, 1)
    // Serial: one per job, and the binomial interval.
    let (_, serial) = try runJSON(["run", "isLoading.naive", "--executor", "serial", "--iterations", "30", "--jobs", "2"])
    XCTAssertEqual(replicates(serial[0]).map { $0["iterations"] }, [15, 15])
    XCTAssertEqual((serial[0]["confidence"] as? [String: Any])?["method"] as? String, "wilson")
    XCTAssertTrue(serial[0]["dispersion"] is NSNull)
    // --replicates for every run of a command; more than the iterations gives one each.
    let (_, compared) = try runJSON([
      "compare", "isLoading.naive", "--executors", "global,serial", "--iterations", "3", "--replicates", "5",
    ])
    XCTAssertEqual(compared.map { replicates($0).count }, [3, 3])
    for bad in ["0", "10001", "x"] {
      let result = try Flakelab.run(["run", "isLoading.naive", "--replicates", bad])
      XCTAssertEqual(result.status, 2, bad)
      XCTAssertTrue(result.stderr.hasPrefix("flakelab: --replicates takes"), result.stderr)
    }
  }

  func testMergedShardsEqualTheUnshardedRun() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-shards-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let selectors = ["lab.crash", "isLoading.naive", "isLoading.endpointYield"]
    var paths: [String] = []
    for shard in 0..<3 {
      let path = directory.appendingPathComponent("shard\(shard).json").path
      let result = try Flakelab.run(
        ["run"] + selectors + [
          "--executor", "serial", "--iterations", "1000", "--shard", "\(shard)/3", "--output", path,
        ])
      XCTAssertEqual(result.status, 0, result.stderr)
      paths.append(path)
    }
    let merged = try Flakelab.run(["merge"] + paths + ["--format", "json"])
    XCTAssertEqual(merged.status, 0, merged.stderr)
    let mergedRuns = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: Data(merged.stdout.utf8)) as? [String: Any])?["runs"]
        as? [[String: Any]])
    let (_, whole) = try runJSON(
      ["run"] + selectors + ["--executor", "serial", "--iterations", "1000"])
    XCTAssertEqual(mergedRuns.map(counts), whole.map(counts))
    XCTAssertEqual(counts(mergedRuns[0])["crashed"], 10)
  }

  func testMergeRefusesWhatIsNotOneMeasurement() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-bad-merges-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func report(_ name: String, _ arguments: [String]) throws -> String {
      let path = directory.appendingPathComponent(name).path
      let result = try Flakelab.run(["run", "isLoading.naive", "--iterations", "40", "--output", path] + arguments)
      XCTAssertEqual(result.status, 0, result.stderr)
      return path
    }
    let shard0 = try report("0.json", ["--shard", "0/2"])
    let shard1 = try report("1.json", ["--shard", "1/2"])
    let whole = try report("whole.json", [])
    let seeded0 = try report("s0.json", ["--shard", "0/2", "--executor", "seeded", "--seed", "1"])
    let seeded1 = try report("s1.json", ["--shard", "1/2", "--executor", "seeded", "--seed", "2"])
    let quarter = try report("q.json", ["--shard", "1/4"])
    let negative = directory.appendingPathComponent("negative.json").path
    var document = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: shard1))) as? [String: Any])
    var runs = try XCTUnwrap(document["runs"] as? [[String: Any]])
    var outcomes = try XCTUnwrap(runs[0]["outcomes"] as? [[String: Any]])
    outcomes[0]["count"] = -20
    runs[0]["outcomes"] = outcomes
    document["runs"] = runs
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: negative))
    let interrupted = directory.appendingPathComponent("interrupted.json").path
    try String(contentsOfFile: shard1, encoding: .utf8)
      .replacingOccurrences(of: "\"interrupted\": false", with: "\"interrupted\": true")
      .write(toFile: interrupted, atomically: true, encoding: .utf8)
    let cases: [([String], String)] = [
      ([shard0, shard0], "shard 0/2 appears twice"),
      ([shard0], "shard 1 of 2 is missing"),
      ([whole, shard1], "is not a shard's report"),
      ([whole, whole], "is not a shard's report"),
      ([seeded0, seeded1], "different seeds"),
      ([shard0, quarter], "shards of different counts"),
      ([shard0, negative], "is malformed"),
      ([shard0, interrupted], "was interrupted"),
    ]
    for (paths, expected) in cases {
      let result = try Flakelab.run(["merge"] + paths)
      XCTAssertEqual(result.status, 2, expected)
      XCTAssertEqual(result.stdout, "", expected)
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
      XCTAssertTrue(result.stderr.contains(expected), "\(expected): \(result.stderr)")
    }
    XCTAssertEqual(try Flakelab.run(["merge", shard0, shard1]).status, 0)
    XCTAssertEqual(try Flakelab.run(["merge", whole]).status, 0)
  }

  func testBazelShardVariablesSelectAShare() throws {
    let result = try Flakelab.run(
      ["run", "lab.crash", "--iterations", "1000", "--format", "json"],
      environment: ["TEST_SHARD_INDEX": "2", "TEST_TOTAL_SHARDS": "4"])
    let document = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let shard = try XCTUnwrap(document["shard"] as? [String: Any])
    XCTAssertEqual(shard["index"] as? Int, 2)
    let run = try XCTUnwrap((document["runs"] as? [[String: Any]])?.first)
    // Indices 500..<750 hold 599, 699 (crash) and 747 more passes.
    XCTAssertEqual(counts(run)["iterations"], 250)
    XCTAssertEqual(counts(run)["crashed"], 2)
  }

  func testAnUnwritableOutputIsRefusedBeforeAnythingRuns() throws {
    let result = try Flakelab.run(["run", "lab.crash", "--iterations", "1000", "--output", "/no/such/dir/r.json"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(result.stderr, "flakelab: cannot write /no/such/dir/r.json: No such file or directory (/no/such/dir)\n")
  }

  func testOutputGoesThroughASymbolicLink() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flakelab-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let link = directory.appendingPathComponent("latest.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "report.json")
    let result = try Flakelab.run(["run", "isLoading.naive", "--iterations", "10", "--output", link])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "report.json")
    let report = try ReportFile.read(directory.appendingPathComponent("report.json").path)
    XCTAssertEqual(report.runs.first?.tally.iterations, 10)
  }

  func testClosedStandardDescriptorsNeitherBreakWorkersNorLoseTheReport() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-closed-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let flakelab = Flakelab.executable.path
    for (redirection, status) in [("<&-", 0), ("2>&-", 0), (">&-", 2), ("<&- >&- 2>&-", 2)] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        "-c", "exec '\(flakelab)' run lab.crash --iterations 200 --output '\(path)' \(redirection)",
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      // A closed stdout cannot show the report: exit 2, and the file still has it.
      XCTAssertEqual(process.terminationStatus, Int32(status), redirection)
      XCTAssertEqual(try ReportFile.read(path).runs.first?.tally.crashed, 2, redirection)
      try FileManager.default.removeItem(atPath: path)
    }
  }

  /// The state letter of a process, from `/proc/PID/stat`: `T` when stopped.
  private func state(of pid: Int32) throws -> String {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    return String(stat.split(separator: ")").last?.split(separator: " ").first ?? "")
  }

  func testCtrlZStopsTheWorkersTooAndTheStopCostsNoIteration() throws {
    let output = Pipe()
    let process = try Flakelab.launch(
      ["run", "lab.hang", "--iterations", "2000", "--timeout", "300ms", "--format", "json"], output: output)
    Thread.sleep(forTimeInterval: 1.5)
    kill(process.processIdentifier, SIGTSTP)
    Thread.sleep(forTimeInterval: 0.5)
    XCTAssertEqual(try state(of: process.processIdentifier), "T")
    let workers = OwnProcesses.living("flakelab worker")
    XCTAssertFalse(workers.isEmpty)
    for worker in workers { XCTAssertEqual(try state(of: worker), "T") }
    Thread.sleep(forTimeInterval: 1)  // longer than the timeout: a stopped run must not time out
    kill(process.processIdentifier, SIGCONT)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0)
    let run = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["runs"] as? [[String: Any]]).first
    XCTAssertEqual(counts(try XCTUnwrap(run)), ["iterations": 2000, "passed": 1960, "failed": 0, "crashed": 0, "timedOut": 40])
  }

  func testAnInheritedIgnoredSIGCHLDChangesNothing() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "trap '' CHLD; exec '\(Flakelab.executable.path)' run lab.crash --iterations 300 --format json"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0)
    let run = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["runs"] as? [[String: Any]]).first
    XCTAssertEqual(counts(try XCTUnwrap(run))["crashed"], 3)
  }

  func testSignalsAtAnyMomentGive130AndCountsThatAddUp() throws {
    for (moment, signalNumber) in [(0.2, SIGTERM), (0.4, SIGINT), (0.8, SIGTERM), (1.2, SIGINT)] {
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("flakelab-signal-\(UUID().uuidString).json").path
      defer { try? FileManager.default.removeItem(atPath: path) }
      let process = try Flakelab.launch([
        "run", "lab.crash", "lab.hang", "--iterations", "100000", "--timeout", "200ms", "--jobs", "2",
        "--output", path,
      ])
      Thread.sleep(forTimeInterval: moment)
      kill(process.processIdentifier, signalNumber)
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 130, "signal \(signalNumber) after \(moment) s")
      let report = try ReportFile.read(path)
      XCTAssertTrue(report.interrupted)
      for run in report.runs {
        let tally = run.tally
        XCTAssertEqual(tally.iterations, tally.passed + tally.failed + tally.crashed + tally.timedOut)
      }
      XCTAssertEqual(OwnProcesses.left("flakelab worker"), [])
    }
  }

  func testAMissingTemporaryDirectoryStillRuns() throws {
    let result = try Flakelab.run(["run", "lab.crash", "--iterations", "200"], environment: ["TMPDIR": "/no/such/tmp"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("crashed: signal 4"), result.stdout)
  }

  func testAnInterruptedRunLeavesAValidReport() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-interrupted-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let process = try Flakelab.launch(
      ["run", "lab.hang", "--iterations", "100000", "--timeout", "5s", "--output", path])
    Thread.sleep(forTimeInterval: 1.5)
    process.interrupt()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 130)
    let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
    let report = try JSONReportReader.read(data, name: path)
    XCTAssertTrue(report.interrupted)
    let tally = try XCTUnwrap(report.runs.first?.tally)
    XCTAssertGreaterThan(tally.passed, 0)
    XCTAssertEqual(tally.iterations, tally.passed + tally.failed + tally.crashed + tally.timedOut)
  }
}

/// The pieces of isolation that need no process.
final class IsolationUnitTests: XCTestCase {
  func testCrashSummaryKeepsTheMessageAndDropsTheTrace() {
    let output = """
      some output the scenario printed
      /build/Scenarios/LabCrash.swift:15: Fatal error: lab.crash traps on purpose
      Current stack trace:
      0    libswiftCore.so                    0x00007f2c6055f130 swift_reportError + 33
      4    flakelab                           0x0000560055834b9b <unavailable> + 351131
      """
    XCTAssertEqual(
      CrashSummary.summarize(output),
      "some output the scenario printed / Fatal error: lab.crash traps on purpose")
    XCTAssertEqual(CrashSummary.summarize(""), "")
  }

  func testBatchesCoverTheRangeInOrder() {
    XCTAssertEqual(Supervisor.batches(of: 0..<10, count: 3), [0..<3, 3..<6, 6..<10])
    XCTAssertEqual(Supervisor.batches(of: 5..<7, count: 4), [5..<6, 6..<7])
    XCTAssertEqual(Supervisor.batches(of: 0..<1000, count: 1), [0..<1000])
  }

  func testReplicatesOfEveryRunAreInterleaved() {
    // Two runs: the first of three replicates, the second of two, one cut into two batches.
    let order = Supervisor.interleave([[[0..<2], [2..<4], [4..<6]], [[0..<3], [3..<4, 4..<5]]])
    XCTAssertEqual(
      order.map { "\($0.run).\($0.replicate):\($0.indices.lowerBound)" },
      ["0.0:0", "1.0:0", "0.1:2", "1.1:3", "1.1:4", "0.2:4"])
  }

  func testShardsPartitionTheIterations() throws {
    for count in 1...7 {
      let blocks = try (0..<count).map { try Shard(index: $0, count: count).indices(of: 1000) }
      XCTAssertEqual(blocks.flatMap { Array($0) }, Array(0..<1000), "count \(count)")
    }
    XCTAssertThrowsError(try Shard(index: 3, count: 3))
    XCTAssertThrowsError(try Shard(index: 0, count: 0))
  }

  func testStatusDescriptions() {
    XCTAssertEqual(Supervisor.describe(status: 4), "signal 4 (SIGILL)")
    XCTAssertEqual(Supervisor.describe(status: 3 << 8), "exited with status 3")
  }

  func testChannelCarriesFailuresInOrderAcrossTheRingsEnd() throws {
    let reader = try OutcomeChannelReader()
    var writer = try OutcomeChannelWriter(descriptor: reader.descriptor)
    var received: [(index: Int, observation: String)] = []
    func drain() -> [(index: Int, observation: String)] {
      reader.drain().map { record in
        guard case .failed(let observation) = record.outcome else { return (record.index, "") }
        return (record.index, observation)
      }
    }
    // Enough records to wrap the 1 MiB ring several times, drained as the supervisor would.
    let observation = String(repeating: "x", count: 3000)
    for index in 0..<1500 {
      writer.record(
        index % 3 == 0 ? .passed : .failed(observation: "\(index) \(observation)"), at: index,
        schedule: nil)
      if index % 100 == 0 { received += drain() }
    }
    received += drain()
    XCTAssertEqual(reader.completed, 1500)
    XCTAssertEqual(received.map(\.index), (0..<1500).filter { $0 % 3 != 0 })
    XCTAssertTrue(received.allSatisfy { $0.observation == "\($0.index) \(observation)" })
  }

  func testReportFileReplacesAtomicallyAndLeavesNoTemporaryFile() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-file-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("report.json").path
    try ReportFile.write("first\n", to: path)
    try ReportFile.write("second\n", to: path)
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "second\n")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["report.json"])
    XCTAssertThrowsError(try ReportFile.write("x", to: directory.path + "/missing/report.json"))
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "second\n")
  }

  func testJSONReportReadsBackToTheSameCounts() throws {
    var tally = Tally()
    tally.record(.passed, count: 7)
    tally.record(.failed(observation: "a \"quoted\"\nline"), count: 2)
    tally.record(.crashed(observation: "signal 11 (SIGSEGV)"), count: 1)
    tally.record(.timedOut, count: 1)
    let report = Report(
      runs: [RunResult(scenario: "s", variant: "v", executor: "serial", tally: tally, seconds: 0.5)],
      shard: try Shard(index: 1, count: 2))
    let read = try JSONReportReader.read(Data(JSONReport.render(report).utf8), name: "test")
    XCTAssertEqual(read.runs.first?.tally, tally)
    XCTAssertEqual(read.shard, report.shard)
  }
}

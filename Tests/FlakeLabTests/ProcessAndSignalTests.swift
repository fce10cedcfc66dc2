import Foundation
import Synchronization
import XCTest

@testable import FlakeLab

/// What a process can be handed or sent: closed descriptors, Ctrl-Z, an ignored SIGCHLD,
/// SIGINT and SIGTERM at any moment, a missing temporary directory.
final class ProcessAndSignalTests: XCTestCase {
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

  /// A worker that exits while a process it started holds its output open: the wait wakes at
  /// the exit, not after its interval (ten seconds here).
  func testAWorkersExitWakesTheWaitWhileItsChildHoldsItsOutput() throws {
    let launch = WorkerLaunch(
      executable: "/bin/sh", arguments: ["-c", "sleep 30 & exit 3"], environment: WorkerLaunch.baseEnvironment,
      feed: try OutcomeChannelReader())
    let worker = try WorkerProcess(launch, indices: 0..<1)
    // Reaping ends its process group, the sleep with it; a wait that never woke ends it here.
    defer {
      worker.kill()
      _ = worker.reap(waiting: true)
    }
    let started = ContinuousClock.now
    var status: Int32?
    while status == nil, ContinuousClock.now - started < .seconds(10) {
      WorkerProcess.wait(forAnEndOf: [worker], upTo: 10_000_000)
      status = worker.reap()
    }
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
    XCTAssertEqual(status.map { ($0 >> 8) & 0xFF }, 3)
  }

  /// The supervisor's look for orphans after each worker reads the kernel's lists of this
  /// process's children: a child started on another thread and an orphan handed back to this
  /// process (a subreaper, as the supervisor is) are both on them.
  func testTheChildrenListHoldsEveryThreadsChildrenAndAdoptedOrphans() throws {
    OwnProcesses.takeCharge
    // Started and reaped here, as the lab starts its processes: Foundation's Process watches its
    // children itself.
    @Sendable func spawn(_ arguments: [String], output: Int32? = nil) throws -> pid_t {
      try ProcessSpawner.launch(arguments[0], Array(arguments.dropFirst()), environment: [:]) { actions in
        if let output { posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO) }
      }
    }
    func end(_ pid: pid_t) {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }

    let fromAnotherThread = Mutex<pid_t?>(nil)
    Thread.detachNewThread { fromAnotherThread.withLock { $0 = (try? spawn(["/bin/sleep", "3521"])) ?? -1 } }
    while fromAnotherThread.withLock({ $0 }) == nil { usleep(1000) }
    let child = try XCTUnwrap(fromAnotherThread.withLock { $0 })
    XCTAssertGreaterThan(child, 0)
    defer { end(child) }

    // The shell prints its background child's pid and exits: the child is an orphan.
    var ends: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&ends), 0)
    let shell = try spawn(["/bin/sh", "-c", "/bin/sleep 3522 </dev/null >/dev/null 2>&1 & echo $!"], output: ends[1])
    close(ends[1])
    var status: Int32 = 0
    waitpid(shell, &status, 0)
    var text: [UInt8] = Array(repeating: 0, count: 64)
    let count = read(ends[0], &text, text.count)
    close(ends[0])
    let orphan = try XCTUnwrap(pid_t(String(decoding: text.prefix(max(count, 0)), as: UTF8.self).filter(\.isNumber)))
    defer { end(orphan) }

    let children = ProcessTree.children()
    XCTAssertTrue(children.contains(child), "\(children) lacks \(child)")
    XCTAssertTrue(children.contains(orphan), "\(children) lacks the orphan \(orphan)")
    XCTAssertFalse(children.contains(shell), "the reaped shell is still listed")
  }

  func testCtrlZStopsTheWorkersTooAndTheStopCostsNoIteration() throws {
    let output = Pipe()
    // Ten of the 500 iterations hang until the 300-ms timeout: the run lasts 3 s on any machine,
    // most of it waiting on a hang, and the stop at 1.5 s lands inside it.
    let process = try Flakelab.launch(
      ["run", "lab.hang", "--iterations", "500", "--timeout", "300ms", "--format", "json"], output: output)
    Thread.sleep(forTimeInterval: 1.5)
    kill(process.processIdentifier, SIGTSTP)
    Thread.sleep(forTimeInterval: 0.5)
    XCTAssertEqual(try state(of: process.processIdentifier), "T")
    let workers = OwnProcesses.living("flakelab-worker worker")
    XCTAssertFalse(workers.isEmpty)
    for worker in workers {
      XCTAssertEqual(try state(of: worker), "T")
      // flakelab's workers are its lab without the history: SQLite is never loaded into one.
      let maps = try String(contentsOfFile: "/proc/\(worker)/maps", encoding: .utf8)
      XCTAssertFalse(maps.contains("libsqlite3"), "a worker loaded SQLite")
    }
    Thread.sleep(forTimeInterval: 1)  // longer than the timeout: a stopped run must not time out
    kill(process.processIdentifier, SIGCONT)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0)
    let run = try ReportJSON.read(data, name: "stdout").runs.first
    XCTAssertEqual(Flakelab.counts(run), ["iterations": 500, "passed": 490, "failed": 0, "crashed": 0, "timedOut": 10])
  }

  func testAnInheritedIgnoredSIGCHLDChangesNothing() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", "trap '' CHLD; exec '\(Flakelab.executable.path)' run lab.crash --iterations 300 --format json",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0)
    let run = try ReportJSON.read(data, name: "stdout").runs.first
    XCTAssertEqual(Flakelab.counts(run), ["iterations": 300, "passed": 297, "failed": 0, "crashed": 3, "timedOut": 0])
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
      for run in report.runs { Self.assertEachReplicateCountsWhatRan(run) }
      XCTAssertEqual(OwnProcesses.left("flakelab-worker worker"), [])
    }
  }

  func testAMissingTemporaryDirectoryStillRuns() throws {
    let result = try Flakelab.run(["run", "lab.crash", "--iterations", "200"], environment: ["TMPDIR": "/no/such/tmp"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("crashed: signal 4"), result.stdout)
  }

  func testAnInterruptedRunLeavesAValidReport() throws {
    let (status, report, _) = try Flakelab.interruptedReport(
      ["run", "lab.hang", "--iterations", "100000", "--timeout", "5s"], after: 1.5)
    XCTAssertEqual(status, 130)
    XCTAssertTrue(report.interrupted)
    let run = try XCTUnwrap(report.runs.first)
    XCTAssertGreaterThan(run.tally.passed, 0)
    Self.assertEachReplicateCountsWhatRan(run)
  }

  /// A replicate runs a block of indices from a multiple of 100, in order, so whatever it got to
  /// before the interrupt, it ran exactly one crash of `lab.crash` per 100 iterations and one hang
  /// of `lab.hang` per 50 (iterations at index % 100 == 99 and % 50 == 49), and passed the rest:
  /// an iteration the interrupt cut short is counted under no outcome.
  static func assertEachReplicateCountsWhatRan(
    _ run: RunResult, file: StaticString = #filePath, line: UInt = #line
  ) {
    for replicate in run.replicates {
      let crashes = run.scenario == "lab.crash" ? replicate.iterations / 100 : 0
      let hangs = run.scenario == "lab.hang" ? replicate.iterations / 50 : 0
      XCTAssertEqual(
        [replicate.crashed, replicate.timedOut, replicate.failed, replicate.passed],
        [crashes, hangs, 0, replicate.iterations - crashes - hangs], "\(run.selector)", file: file, line: line)
    }
  }
}

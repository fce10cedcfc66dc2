import Foundation
import XCTest

@testable import FlakeLab

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

  /// A worker hangs when, ready, nothing it does moves for the timeout; start-up counts only
  /// against the start limit. A pass's process hangs by a test in flight too long, or by nothing
  /// in flight too long once ready.
  func testTheHangRuleCountsNoStartUpAgainstTheTimeout() {
    let timeout = Duration.seconds(1)
    let long = Duration.seconds(2)
    let brief = Duration.milliseconds(10)
    XCTAssertTrue(HangRule.hasHung(isReady: true, sinceProgress: long, sinceStart: long, timeout: timeout))
    XCTAssertFalse(HangRule.hasHung(isReady: true, sinceProgress: brief, sinceStart: long, timeout: timeout))
    XCTAssertFalse(HangRule.hasHung(isReady: false, sinceProgress: long, sinceStart: long, timeout: timeout))
    XCTAssertTrue(
      HangRule.hasHung(isReady: false, sinceProgress: brief, sinceStart: Supervisor.startLimit * 2, timeout: timeout))
    func pass(ready: Bool = true, inFlight: Duration? = nil, idle: Duration? = nil, sinceStart: Duration = long) -> Bool
    {
      HangRule.passHasHung(
        isReady: ready, longestInFlight: inFlight, idle: idle, sinceStart: sinceStart, timeout: timeout)
    }
    XCTAssertTrue(pass(inFlight: long))
    XCTAssertFalse(pass(inFlight: brief))
    XCTAssertTrue(pass(idle: long))
    XCTAssertFalse(pass(idle: brief))
    XCTAssertFalse(pass(ready: false, idle: long))
    XCTAssertTrue(pass(ready: false, sinceStart: Supervisor.startLimit * 2))
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

  /// The supervisor reads a quiet ring as seldom as a test's events, and often once it fills.
  func testTheRingIsReadOftenOnlyWhileItFills() throws {
    let reader = try OutcomeChannelReader()
    var writer = try OutcomeChannelWriter(descriptor: reader.descriptor)
    XCTAssertEqual(reader.readInterval, Supervisor.eventReadInterval)
    let observation = String(repeating: "x", count: 1000)
    let underAnEighth = OutcomeChannel.ringCapacity / 8 / (OutcomeChannel.recordHeaderSize + 1000)
    for index in 0..<underAnEighth {
      writer.record(.failed(observation: observation), at: index, schedule: nil)
    }
    _ = reader.drain()
    XCTAssertEqual(reader.readInterval, Supervisor.eventReadInterval, "an eighth of the ring is not yet filling")
    for index in 0...underAnEighth {
      writer.record(.failed(observation: observation), at: index, schedule: nil)
    }
    _ = reader.drain()
    XCTAssertEqual(reader.readInterval, Supervisor.pollInterval)
    writer.record(.failed(observation: observation), at: 0, schedule: nil)
    _ = reader.drain()
    XCTAssertEqual(reader.readInterval, Supervisor.eventReadInterval)
  }

  /// The next worker gets an ended worker's region, with nothing of what it published; the
  /// region of a worker that may still live is never handed on. A writer in this process stands
  /// for the worker: what it writes after its channel was dropped shows where the region went.
  func testAChannelsRegionGoesToTheNextWorkerOnlyOnceItsWorkerEnded() throws {
    var liveWriter: OutcomeChannelWriter
    do {
      let reader = try OutcomeChannelReader()
      liveWriter = try OutcomeChannelWriter(descriptor: reader.descriptor)
      liveWriter.record(.failed(observation: "still running"), at: 0, schedule: nil)
    }
    let afterALiveWorker = try OutcomeChannelReader()
    liveWriter.record(.passed, at: 1, schedule: nil)
    XCTAssertEqual(afterALiveWorker.completed, 0, "a live worker's region was handed on")

    var endedWriter: OutcomeChannelWriter
    do {
      let reader = try OutcomeChannelReader()
      endedWriter = try OutcomeChannelWriter(descriptor: reader.descriptor)
      endedWriter.announceReady()
      endedWriter.record(.failed(observation: "published"), at: 0, schedule: nil)
      XCTAssertEqual(reader.poll().records.count, 1)
      endedWriter.record(.failed(observation: "never drained"), at: 1, schedule: nil)
      reader.workerEnded(status: 0, output: "")
    }
    let next = try OutcomeChannelReader()
    XCTAssertEqual([next.completed, next.drain().count], [0, 0])
    XCTAssertFalse(next.workerIsReady)
    endedWriter.record(.passed, at: 2, schedule: nil)
    XCTAssertEqual(next.completed, 1, "the ended worker's region was not reused")
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
    tally.record(.crashed(Crash(how: "signal 11 (SIGSEGV)")), count: 1)
    tally.record(.timedOut, count: 1)
    let report = Report(
      runs: [
        RunResult(
          RunKey(scenario: "s", variant: "v", executor: .serial), tally: tally, seconds: 0.5,
          iterationsAreIndependent: true)
      ],
      shard: try Shard(index: 1, count: 2))
    let read = try ReportJSON.read(Data(ReportJSON.render(report).utf8), name: "test")
    XCTAssertEqual(read.runs.first?.tally, tally)
    XCTAssertEqual(read.shard, report.shard)
  }
}

import Foundation
import XCTest

@testable import FlakeLab

/// The deterministic scheduler, through the real executable: it installs process-wide before
/// the first task, which a test process cannot do for itself.
final class SchedulerTests: XCTestCase {
  private func report(_ arguments: [String]) throws -> Report {
    let (status, report) = try Flakelab.runReport(arguments)
    XCTAssertEqual(status, 0)
    return report
  }

  private func runs(_ arguments: [String]) throws -> [RunResult] {
    try report(arguments).runs
  }

  /// Each outcome with its count.
  private func histogram(_ run: RunResult) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: run.tally.histogram.map { (OutcomeText.describe($0.outcome), $0.count) })
  }

  private let seeded = [
    "run", "isLoading.endpointYield", "--executor", "seeded", "--seed", "42", "--iterations", "1000",
  ]

  func testTheSameSeedGivesTheSameSchedulesAndOutcomes() throws {
    let first = try runs(seeded)[0]
    let second = try runs(seeded)[0]
    let split = try runs(seeded + ["--jobs", "2"])[0]
    let schedule = try XCTUnwrap(first.schedule)
    XCTAssertEqual(schedule.seed, 42)
    for other in [second, split] {
      XCTAssertEqual(histogram(other), histogram(first))
      XCTAssertEqual(other.schedule?.fingerprint, schedule.fingerprint)
    }
    // Both outcomes occur, so the fingerprint covers more than one schedule.
    XCTAssertGreaterThan(first.tally.passed, 0)
    XCTAssertGreaterThan(first.tally.failed, 0)
    let otherSeed = try runs(
      ["run", "isLoading.endpointYield", "--executor", "seeded", "--seed", "43", "--iterations", "1000"])[0]
    XCTAssertNotEqual(otherSeed.schedule?.fingerprint, schedule.fingerprint)
  }

  func testMergedShardsOfASeededRunEqualTheWholeRun() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("flakelab-seeded-shards-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let paths = try (0..<2).map { shard in
      let path = directory.appendingPathComponent("\(shard).json").path
      let result = try Flakelab.run(seeded + ["--shard", "\(shard)/2", "--output", path])
      XCTAssertEqual(result.status, 0, result.stderr)
      return path
    }
    let merged = try report(["merge"] + paths)
    XCTAssertEqual(merged.seed, 42)
    let mergedRun = try XCTUnwrap(merged.runs.first)
    let whole = try runs(seeded)[0]
    XCTAssertEqual(histogram(mergedRun), histogram(whole))
    XCTAssertEqual(mergedRun.schedule?.fingerprint, whole.schedule?.fingerprint)
    XCTAssertEqual(mergedRun.schedule?.failingIterations, whole.schedule?.failingIterations)
  }

  func testReplayReproducesFailingIterationsExactly() throws {
    let run = try runs(seeded)[0]
    let failing = try XCTUnwrap(run.schedule?.failingIterations)
    XCTAssertEqual(failing.count, RunSchedule.failingLimit)
    for iteration in failing.prefix(5) {
      let replay = try Flakelab.run([
        "replay", "isLoading.endpointYield", "--seed", "\(iteration.seed)", "--index", "\(iteration.index)",
        "--trace",
      ])
      XCTAssertEqual(replay.status, 0, replay.stderr)
      let lines = replay.stdout.split(separator: "\n").map(String.init)
      XCTAssertEqual(lines[1], "outcome: \(OutcomeText.describe(iteration.outcome))")
      XCTAssertTrue(lines[2].contains("fingerprint \(ScheduleText.hex(iteration.fingerprint))"), lines[2])
      XCTAssertTrue(lines.contains { $0.hasPrefix("step 1: task 1 (main actor job)") }, replay.stdout)
    }
  }

  func testFIFOReproducesTheSerialExecutorForEveryScenario() throws {
    let list = try Flakelab.run(["list"])
    let variants = list.stdout.split(separator: "\n").filter { $0.hasPrefix("  .") }
    XCTAssertGreaterThan(variants.count, 10)
    let quick = ["isLoading", "backToBack.serialForm", "cancel", "screenshots", "toggleRace", "runtimeOrder"]
    let compared = try runs(["compare"] + quick + ["--executors", "serial,fifo", "--iterations", "50"])
    // Variants that sleep cost real time under serial (countdown's five seconds): the shared
    // run's few iterations of those say whether their outcome is FIFO's too.
    let slow = try SlowVariantsUnderSerial.runs.get()
    let slowUnderFIFO = try runs(
      ["run"] + SlowVariantsUnderSerial.selectors
        + ["--executor", "fifo", "--iterations", String(SlowVariantsUnderSerial.iterations)])
    XCTAssertEqual(slowUnderFIFO.count, SlowVariantsUnderSerial.selectors.count)
    let serial = compared.filter { $0.executor == .serial } + slowUnderFIFO.compactMap { slow[$0.selector] }
    let fifo = compared.filter { $0.executor == .fifo } + slowUnderFIFO
    XCTAssertEqual(serial.count, fifo.count)
    for (one, other) in zip(serial, fifo) {
      XCTAssertEqual(one.selector, other.selector)
      XCTAssertEqual(histogram(one), histogram(other), "\(one.selector) differs between serial and fifo")
    }
  }

  func testExploreFindsAPassingAndAFailingScheduleOfEndpointYield() throws {
    let explored = try Flakelab.run(["explore", "isLoading.endpointYield"])
    XCTAssertEqual(explored.status, 0, explored.stderr)
    XCTAssertTrue(explored.stdout.contains("distinct schedules, all explored"), explored.stdout)
    let lines = explored.stdout.split(separator: "\n").map(String.init)
    let failing = try XCTUnwrap(lines.first { $0.hasPrefix("first failing schedule: ") })
    let passing = try XCTUnwrap(lines.first { $0.hasPrefix("first passing schedule: ") })
    func path(_ line: String) throws -> String {
      let words = line.split(separator: " ")
      return String(words[try XCTUnwrap(words.firstIndex(of: "--schedule")) + 1])
    }
    let failed = try Flakelab.run(["replay", "isLoading.endpointYield", "--schedule", try path(failing)])
    XCTAssertTrue(failed.stdout.contains("outcome: isLoading was false right after the tap"), failed.stdout)
    let passed = try Flakelab.run(["replay", "isLoading.endpointYield", "--schedule", try path(passing)])
    XCTAssertTrue(passed.stdout.contains("outcome: passed"), passed.stdout)
  }

  func testTheCountdownPassesInVirtualTime() throws {
    let run = try runs(["run", "countdown", "--executor", "seeded", "--iterations", "200"])[0]
    XCTAssertEqual(run.tally.passed, 200)
    let replay = try Flakelab.run(["replay", "countdown.timeoutTask", "--seed", "1", "--trace"])
    XCTAssertTrue(replay.stdout.contains("a sleeper woken at 5.000 s"), replay.stdout)
  }

  func testAForgottenContinuationIsADeadlockAtOnce() throws {
    for executor in ["seeded", "fifo"] {
      let run = try runs(["run", "lab.deadlock", "--executor", executor, "--iterations", "100"])[0]
      XCTAssertEqual([run.tally.passed, run.tally.deadlocked, run.tally.timedOut], [90, 10, 0])
      let deadlock = try XCTUnwrap(run.tally.histogram.first { $0.outcome != .passed })
      XCTAssertTrue(OutcomeText.describe(deadlock.outcome).contains("a continuation that is never resumed"))
    }
  }

  func testToggleRaceCannotShowUnderTheScheduler() throws {
    let run = try runs(["run", "toggleRace", "--executor", "seeded", "--iterations", "100"])[0]
    XCTAssertEqual(run.tally.passed, 100)
  }
}

final class SchedulerUnitTests: XCTestCase {
  func testSplitMix64MatchesItsReferenceOutput() {
    var generator = SplitMix64(seed: 0)
    XCTAssertEqual(generator.next(), 0xE220_A839_7B1D_CDAF)
    XCTAssertEqual(generator.next(), 0x6E78_9E6A_A1B9_65F4)
  }

  func testChoicesHaveAPathThatParsesBack() {
    var choices = ScheduleChoices()
    XCTAssertEqual(choices.path, "-")
    choices.append(pick: 1, of: 2)
    choices.append(pick: 0, of: 3)
    XCTAssertEqual(choices.path, "1.0")
    XCTAssertEqual(ScheduleChoices.picks(fromPath: "1.0"), [1, 0])
    XCTAssertEqual(ScheduleChoices.picks(fromPath: "-"), [])
    XCTAssertNil(ScheduleChoices.picks(fromPath: "1.x"))
    var other = ScheduleChoices()
    other.append(pick: 0, of: 2)
    other.append(pick: 1, of: 3)
    XCTAssertNotEqual(choices.fingerprint, other.fingerprint)
  }

  func testDepthFirstOrderOfPaths() {
    var choices = ScheduleChoices()
    choices.append(pick: 0, of: 2)
    choices.append(pick: 2, of: 3)
    choices.append(pick: 0, of: 1)
    // The deepest choice with an untried option is the first: its next option, nothing after.
    XCTAssertEqual(ScheduleExplorer.nextPath(after: choices), [1])
    var last = ScheduleChoices()
    last.append(pick: 1, of: 2)
    XCTAssertNil(ScheduleExplorer.nextPath(after: last))
  }
}

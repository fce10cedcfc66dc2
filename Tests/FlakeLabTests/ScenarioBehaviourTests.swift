import FlakeLab
import Foundation
import Scenarios
import XCTest

/// What the serial executor promises for each scenario: the same outcome on every iteration.
final class ScenarioBehaviourTests: XCTestCase {
  @MainActor
  private func tally(_ selector: String, iterations: Int, on executor: any IterationExecutor) async throws -> Tally {
    let pairs = try ScenarioCatalog.standard.resolve(selector)
    XCTAssertEqual(pairs.count, 1)
    let run = RunPlan.Run(
      scenario: pairs[0].0, variant: pairs[0].1, executor: executor, indices: 0..<iterations)
    return await InProcessRunner.run(run).tally
  }

  /// Every variant under serial, 200 iterations each, in the lab's own workers: once, for the
  /// checks that read it. In this test process XCTest's run loop drains the main queue, where a
  /// task group's thousand children cost 5.8 s over 200 iterations against 0.2 s in a worker.
  /// Variants that sleep on the wall clock come from the shared run of their few iterations.
  private static let underSerial = Result {
    let quick = ScenarioCatalog.standard.listed(includingDiagnostics: false).flatMap { scenario in
      scenario.variants.filter { $0.realTimeWait == nil }.map { "\(scenario.name).\($0.name)" }
    }
    let (status, report) = try Flakelab.runReport(["run"] + quick + ["--executor", "serial", "--iterations", "200"])
    XCTAssertEqual(status, 0)
    let runs = Dictionary(uniqueKeysWithValues: report.runs.map { ($0.selector, $0) })
    return runs.merging(try SlowVariantsUnderSerial.runs.get()) { quick, _ in quick }
  }

  func testEveryVariantGivesOneOutcomeUnderSerial() throws {
    let runs = try Self.underSerial.get()
    for scenario in ScenarioCatalog.standard.listed(includingDiagnostics: false) {
      for variant in scenario.variants {
        let selector = "\(scenario.name).\(variant.name)"
        let tally = try XCTUnwrap(runs[selector], selector).tally
        let distinct = (tally.passed > 0 ? 1 : 0) + tally.nonPassing.count
        XCTAssertEqual(distinct, 1, "\(selector) under serial: \(tally.outcomesByFrequency)")
        XCTAssertEqual(tally.iterations, variant.realTimeWait == nil ? 200 : SlowVariantsUnderSerial.iterations)
      }
    }
  }

  @MainActor
  func testEndpointYieldPassesEveryIterationUnderSerial() async throws {
    let tally = try await tally("isLoading.endpointYield", iterations: 1000, on: .serial)
    XCTAssertEqual(tally.passed, 1000)
  }

  @MainActor
  func testNaiveFailsEveryIterationUnderSerial() async throws {
    let tally = try await tally("isLoading.naive", iterations: 1000, on: .serial)
    XCTAssertEqual(tally.passed, 0)
    XCTAssertEqual(
      tally.nonPassing, [.failed(observation: "isLoading was false right after the tap"): 1000])
  }

  func testToggleRaceAlwaysPassesUnderSerial() throws {
    XCTAssertEqual(try Self.underSerial.get()["toggleRace.taskGroup"]?.tally.passed, 200)
  }

  @MainActor
  func testSingleYieldScreenshotsIsOneTurnLateUnderSerial() async throws {
    let tally = try await tally("screenshots.singleYield", iterations: 100, on: .serial)
    XCTAssertEqual(
      tally.nonPassing,
      [.failed(observation: "count was 1 after screenshot 2, expected 2"): 100])
  }

  @MainActor
  func testIterationsSeeTheirGlobalIndex() async {
    let seen = LockedIndices()
    let scenario = Scenario(
      name: "probe", summary: "", source: "",
      variants: [Variant(name: "index", summary: "") { seen.append($0.index) }])
    var tally = Tally()
    await runIterations(
      of: scenario.variants[0], on: .global, indices: 40..<45, into: &tally)
    XCTAssertEqual(seen.values, [40, 41, 42, 43, 44])
    XCTAssertEqual(tally.passed, 5)
  }

  @MainActor
  func testFailedChecksAreRecordedAndTheTestGoesOnAsUnderXCTest() async {
    let reachedTheEnd = LockedIndices()
    let variant = Variant(name: "twoChecks", summary: "") { iteration in
      iteration.expect(false, "first check")
      iteration.expect(true, "never recorded")
      iteration.expect(1 + 1 == 3, "second check")
      reachedTheEnd.append(iteration.index)
    }
    var tally = Tally()
    await runIterations(of: variant, on: .global, indices: 0..<2, into: &tally)
    XCTAssertEqual(tally.nonPassing, [.failed(observation: "first check; second check"): 2])
    XCTAssertEqual(reachedTheEnd.values, [0, 1])
  }

  @MainActor
  func testAThrownErrorIsAFailureWithItsDescription() async {
    struct Refused: Error, CustomStringConvertible { var description: String { "Refused" } }
    let variant = Variant(name: "throws", summary: "") { _ in throw Refused() }
    var tally = Tally()
    await runIterations(of: variant, on: .serial, indices: 0..<3, into: &tally)
    XCTAssertEqual(tally.nonPassing, [.failed(observation: "the test threw Refused"): 3])
  }
}

/// Indices recorded from iterations, which may run on any thread.
private final class LockedIndices: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [Int] = []
  func append(_ index: Int) { lock.withLock { recorded.append(index) } }
  var values: [Int] { lock.withLock { recorded } }
}

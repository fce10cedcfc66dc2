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

  @MainActor
  func testEveryVariantGivesOneOutcomeUnderSerial() async throws {
    for scenario in ScenarioCatalog.standard.listed(includingDiagnostics: false) {
      for variant in scenario.variants {
        // Variants that sleep on the wall clock get fewer iterations; the claim is the same.
        let iterations = variant.realTimeWait == nil ? 200 : 2
        let tally = try await tally(
          "\(scenario.name).\(variant.name)", iterations: iterations, on: .serial)
        let distinct = (tally.passed > 0 ? 1 : 0) + tally.nonPassing.count
        XCTAssertEqual(
          distinct, 1, "\(scenario.name).\(variant.name) under serial: \(tally.outcomesByFrequency)")
        XCTAssertEqual(tally.iterations, iterations)
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

  @MainActor
  func testToggleRaceAlwaysPassesUnderSerial() async throws {
    let tally = try await tally("toggleRace", iterations: 100, on: .serial)
    XCTAssertEqual(tally.passed, 100)
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

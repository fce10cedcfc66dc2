import Foundation
import XCTest

@testable import FlakeLab

/// Replicates, dispersion and the interval that allows for it, against values computed
/// independently: Student's t from printed tables, the rest by hand (a few lines of Python,
/// quoted beside each figure).
final class DispersionTests: XCTestCase {
  /// Ten replicates of 1,000 iterations whose rates spread from 12% to 35%.
  private let spread = [150, 180, 200, 220, 250, 300, 350, 120, 160, 270].map {
    ReplicateCounts(iterations: 1000, passed: 1000 - $0, failed: $0)
  }

  private func result(_ replicates: [ReplicateCounts], executor: String = "global") -> RunResult {
    var tally = Tally()
    for replicate in replicates {
      tally.record(.passed, count: replicate.passed)
      tally.record(.failed(observation: "x"), count: replicate.notPassed)
    }
    return RunResult(
      RunKey(scenario: "s", variant: "v", executor: ExecutorID(executor)), tally: tally, seconds: 1,
      iterationsAreIndependent: executor == ExecutorID.serial.name, replicates: replicates)
  }

  func testStudentTCriticalValuesMatchTables() {
    XCTAssertEqual(StudentT.twoSidedCritical(confidence: 0.95, degreesOfFreedom: 9), 2.262157163, accuracy: 1e-8)
    XCTAssertEqual(StudentT.twoSidedCritical(confidence: 0.95, degreesOfFreedom: 1), 12.70620474, accuracy: 1e-6)
    XCTAssertEqual(StudentT.twoSidedCritical(confidence: 0.99, degreesOfFreedom: 4), 4.604094871, accuracy: 1e-8)
    XCTAssertEqual(StudentT.twoSidedCritical(confidence: 0.95, degreesOfFreedom: 30), 2.042272456, accuracy: 1e-8)
    XCTAssertEqual(
      StudentT.twoSidedCritical(confidence: 0.95, degreesOfFreedom: 1_000_000),
      Normal.twoSidedZ(confidence: 0.95), accuracy: 1e-9)
  }

  func testPearsonDispersion() throws {
    // p = 2200/10000; χ² = Σ (xᵢ − 1000p)² / (1000p(1−p)) = 275.0583; / 9.
    XCTAssertEqual(try XCTUnwrap(Dispersion.pearson(spread)), 30.56203056203056, accuracy: 1e-9)
    // Replicates that agree exactly spread less than binomial noise: floored at 1.
    let agreeing = [(10, 1000), (12, 1200), (9, 900)].map {
      ReplicateCounts(iterations: $0.1, passed: $0.1 - $0.0, failed: $0.0)
    }
    XCTAssertEqual(Dispersion.pearson(agreeing), 1)
    // No failure anywhere: no spread to see.
    XCTAssertEqual(Dispersion.pearson([.init(iterations: 50, passed: 50), .init(iterations: 50, passed: 50)]), 1)
    // One replicate cannot show a spread; empty ones do not count.
    XCTAssertNil(Dispersion.pearson([spread[0], .init(iterations: 0, passed: 0)]))
  }

  func testQuasiBinomialIntervalUnderTheGlobalExecutor() throws {
    let estimate = FailureRateEstimate(replicates: spread, iterationsAreIndependent: false, confidence: 0.95)
    XCTAssertEqual(estimate.method, .quasiBinomialWilson)
    XCTAssertEqual(estimate.rate, 0.22, accuracy: 1e-12)
    // Wilson on n/φ = 10000/30.562 with t(0.975, 9) = 2.262157163 in place of z.
    XCTAssertEqual(estimate.low, 0.17272648404836824, accuracy: 1e-8)
    XCTAssertEqual(estimate.high, 0.27589686812323555, accuracy: 1e-8)
    XCTAssertEqual(estimate.replicateRates, 0.12...0.35)
    XCTAssertTrue(estimate.dispersionIsMaterial)
    // It agrees with a t interval on the ten replicate rates, [16.82%, 27.18%], as it should when
    // replicates are of equal size, and unlike that one it does not collapse at no failures.
    let none = FailureRateEstimate(
      replicates: Array(repeating: .init(iterations: 100, passed: 100), count: 10),
      iterationsAreIndependent: false, confidence: 0.95)
    XCTAssertEqual(none.low, 0)
    XCTAssertGreaterThan(none.high, 0)
  }

  func testIndependentIterationsKeepTheBinomialInterval() {
    let estimate = FailureRateEstimate(replicates: spread, iterationsAreIndependent: true, confidence: 0.95)
    let binomial = WilsonInterval(failures: 2200, iterations: 10_000, confidence: 0.95)
    XCTAssertEqual(estimate.method, .wilson)
    XCTAssertNil(estimate.dispersion)
    XCTAssertEqual(estimate.low, binomial.low)
    XCTAssertEqual(estimate.high, binomial.high)
    // serial, fifo and seeded say so of themselves; global does not.
    XCTAssertEqual(
      ExecutorCatalog.standard.filter(\.iterationsAreIndependent).map(\.id), [.serial, .seeded, .fifo])
  }

  func testAGateInsideTheReplicatesRangeIsNotShownRatherThanMet() throws {
    let gate = FailureRateGate(.atMost(0.25))
    // The binomial interval of the pooled counts, [21.2%, 22.8%], would pass it, and the next
    // run, whose processes happened to land higher, would not.
    let pooled = RunResult(
      RunKey(scenario: "s", variant: "v", executor: .global), tally: result(spread).tally, seconds: 1,
      iterationsAreIndependent: false)
    XCTAssertNil(gate.violation(by: pooled))
    let message = try XCTUnwrap(gate.violation(by: result(spread)).map(ProblemText.describe))
    XCTAssertTrue(message.contains("is not shown to be at most 25.00%"), message)
    XCTAssertTrue(message.contains("runs varied 12.00%–35.00% (10 replicates of 1,000, dispersion 31)"), message)
  }

  func testTheBaselineTestAllowsForDispersion() {
    let binomial = TwoProportionTest(
      baselineFailures: 2000, baselineIterations: 10_000, failures: 2200, iterations: 10_000)
    XCTAssertTrue(binomial.roseSignificantly(confidence: 0.95))
    let dispersed = TwoProportionTest(
      baselineFailures: 2000, baselineIterations: 10_000, failures: 2200, iterations: 10_000,
      baselineDispersion: 30, dispersion: 30)
    // z = 0.02 / √(0.21 · 0.79 · (30 + 30)/10000) = 0.6339.
    XCTAssertEqual(dispersed.z, 0.6339, accuracy: 1e-3)
    XCTAssertFalse(dispersed.roseSignificantly(confidence: 0.95))
  }

  func testAGateNeedsDispersionTimesTheIterations() throws {
    let plain = try XCTUnwrap(
      IterationPlanner.iterationsForInterval(
        toBring: .high, within: 0.3, observedRate: 0.22, confidence: 0.95))
    let dispersed = try XCTUnwrap(
      IterationPlanner.iterationsForInterval(
        toBring: .high, within: 0.3, observedRate: 0.22, confidence: 0.95, dispersion: 30,
        critical: Normal.twoSidedZ(confidence: 0.95)))
    XCTAssertEqual(dispersed, plain * 30)
  }

  func testReplicatesSurviveJSONAndMerge() throws {
    var shard = Report(runs: [result(spread)], shard: try Shard(index: 0, count: 2))
    let text = ReportJSON.render(shard)
    let document = try XCTUnwrap(JSONParser.parse(Array(text.utf8)))
    let run = try XCTUnwrap(document["runs"]?.array?.first)
    XCTAssertEqual(run["confidence"]?["method"]?.string, "quasi-binomial-wilson")
    XCTAssertEqual(try XCTUnwrap(run["dispersion"]?.number), 30.562031, accuracy: 1e-9)
    XCTAssertEqual(run["replicates"]?.array?.count, 10)
    let read = try ReportJSON.read(Data(text.utf8), name: "a.json")
    XCTAssertEqual(read.runs[0].replicates, spread)
    shard.shard = try Shard(index: 1, count: 2)
    let other = try ReportJSON.read(Data(ReportJSON.render(shard).utf8), name: "b.json")
    let merged = try ReportMerger.merge([("a.json", read), ("b.json", other)])
    XCTAssertEqual(merged.runs[0].replicates, spread + spread)
    // A report says whether a run's iterations were independent, also for an executor the lab
    // does not know; one from before it said so tells by how its interval was computed: wilson
    // over several replicates was independent, quasi-binomial was not.
    let independent = RunResult(
      RunKey(scenario: "s", variant: "v", executor: ExecutorID("tracing")), tally: result(spread).tally, seconds: 1,
      iterationsAreIndependent: true, replicates: spread)
    let written = ReportJSON.render(Report(runs: [independent, result(spread, executor: "tracing")]))
    let older = written.replacingOccurrences(of: "\"iterationsIndependent\": true, ", with: "")
      .replacingOccurrences(of: "\"iterationsIndependent\": false, ", with: "")
    XCTAssertNotEqual(older, written)
    for text in [written, older] {
      let readBack = try ReportJSON.read(Data(text.utf8), name: "d.json")
      XCTAssertEqual(readBack.runs.map(\.iterationsAreIndependent), [true, false])
      XCTAssertEqual(readBack.runs.map(\.estimate.method), [.wilson, .quasiBinomialWilson])
    }
    // Replicates that do not add up to the run's counts, and a count of iterations other than
    // the outcomes', are refused.
    let broken = text.replacingOccurrences(of: "\"passed\": 850", with: "\"passed\": 851")
    let miscounted = text.replacingOccurrences(
      of: "\"iterations\": 10000, \"passed\"", with: "\"iterations\": 10001, \"passed\"")
    XCTAssertNotEqual(miscounted, text)
    let errors: [(String, ReportFileError.Malformation)] = [
      (broken, .replicate(run: "s.v")), (miscounted, .countsDoNotAddUp(run: "s.v")),
    ]
    for (text, malformation) in errors {
      XCTAssertThrowsError(try ReportJSON.read(Data(text.utf8), name: "c.json")) {
        XCTAssertEqual($0 as? ReportFileError, .malformed(path: "c.json", malformation))
      }
    }
  }
}

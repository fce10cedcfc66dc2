import FlakeLab
import Foundation

/// Issue 44: whether tests that measure time fail more often in the lab than in plain runs of
/// their binary, per executor. Each round runs the WatchedCalls fixture's `TimingTests` (XCTest)
/// and `TimingSuite` (Swift Testing) plainly, as `swift test` runs them, then a lab suite pass under global
/// (the watch off) and one on one queue (the watch on), so that drift in load hits all alike.
/// For each test: its failures on each side, and Fisher's exact test of each lab arm against
/// the plain runs. The fixture is built by the interposer figure, or here.
func timingFidelityFigures(worker: String) throws {
  let rounds = Int(ProcessInfo.processInfo.environment["BENCH_TIMING_ROUNDS"] ?? "") ?? 30
  let path = "Tests/Fixtures/WatchedCalls"
  let suites = ["WatchedCallsTests.TimingTests", "WatchedCallsTests.TimingSuite"]
  let preload = try TestLaunch.preloadLibrary(besides: worker)
  let (package, all) = try TestPackage.build(at: path).listed()
  let tests = all.filter { test in suites.contains { test.id.hasPrefix($0 + "/") } }
  let executors: [any IterationExecutor] = [GlobalExecutor(), SerialIterationExecutor()]
  let arms = executors.map { TestLaunch.passes(of: tests, in: package, executor: $0, seed: 0, preload: preload) }
  var failures: [ExecutorID?: [String: Int]] = [:]
  for round in 0..<rounds {
    for id in plainFailures(package: package, tests: tests, suites: suites) { failures[nil, default: [:]][id, default: 0] += 1 }
    let results = try PassSupervisor(timeout: .seconds(60)).run(
      arms, passes: round..<(round + 1), replicates: 1, seed: UInt64(round), packagePath: path)
    for result in results where result.tally.notPassed > 0 {
      if let id = result.test?.test.id { failures[result.key.executor, default: [:]][id, default: 0] += 1 }
    }
  }
  print("")
  print("Timing fidelity: tests that measure time, plain runs of the binary against lab passes, \(rounds) alternating rounds")
  print("  test                              plain      lab global                lab serial (watch on)")
  for test in tests {
    let plain = failures[nil]?[test.id] ?? 0
    func arm(_ executor: ExecutorID) -> String {
      let lab = failures[executor]?[test.id] ?? 0
      let p = fisherExact(lab, rounds - lab, plain, rounds - plain)
      let verdict = lab > plain && p < 0.05 ? " more often" : ""
      return String(format: "%2d of %d, p = %.2f%@", lab, rounds, p, verdict)
    }
    print(
      "  " + test.function.padding(toLength: 32, withPad: " ", startingAt: 0)
        + String(format: "  %2d of %d", plain, rounds) + "   " + arm(.global).padding(toLength: 24, withPad: " ", startingAt: 0)
        + "  " + arm(.serial))
  }
}

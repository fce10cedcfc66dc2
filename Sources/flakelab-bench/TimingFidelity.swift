import FlakeLab
import Foundation

/// Whether tests that measure time fail more often in the lab than in plain runs of
/// their binary, per executor. Each round runs the WatchedCalls fixture's `TimingTests` (XCTest)
/// and `TimingSuite` (Swift Testing) plainly, as `swift test` runs them, then a lab suite pass under global
/// (the watch off) and one on one queue (the watch on), so that drift in load hits all alike.
/// For each test: its failures on each side, and Fisher's exact test of each lab arm against
/// the plain runs. A hundred rounds by default (`BENCH_TIMING_ROUNDS`): thirty missed a first
/// sleep 57 µs longer in the lab. The fixture is built by the interposer figure, or here.
func timingFidelityFigures(worker: String) throws {
  let rounds = Int(ProcessInfo.processInfo.environment["BENCH_TIMING_ROUNDS"] ?? "") ?? 100
  let path = "Tests/Fixtures/WatchedCalls"
  let suites = ["WatchedCallsTests.TimingTests", "WatchedCallsTests.TimingSuite"]
  let preload = try TestLaunch.preloadLibrary(besides: worker)
  let (package, all) = try TestPackage.build(at: path).listed()
  let tests = all.filter { test in suites.contains { test.id.hasPrefix($0 + "/") } }
  let executors: [any IterationExecutor] = [GlobalExecutor(), SerialIterationExecutor()]
  let arms = executors.map { TestLaunch.passes(of: tests, in: package, executor: $0, seed: 0, preload: preload) }
  var failures: [ExecutorID?: [String: Int]] = [:]
  for round in 0..<rounds {
    for id in plainFailures(package: package, tests: tests, suites: suites) {
      failures[nil, default: [:]][id, default: 0] += 1
    }
    let results = try PassSupervisor(timeout: .seconds(60)).run(
      arms, passes: round..<(round + 1), replicates: 1, seed: UInt64(round), packagePath: path)
    for result in results where result.tally.notPassed > 0 {
      if let id = result.test?.test.id { failures[result.key.executor, default: [:]][id, default: 0] += 1 }
    }
  }
  print("")
  print(
    "Timing fidelity: tests that measure time, plain runs of the binary against lab passes, \(rounds) alternating rounds"
  )
  let labArms: [ExecutorID] = [.global, .serial]
  print(
    "  test                              plain      lab \(ExecutorID.global.name)                lab "
      + "\(ExecutorID.serial.name) (watch on)")
  // Every test under each lab arm against its plain runs: one family of contrasts, corrected
  // as one (ten at 5% each would call a test "more often" by chance in four figures of ten).
  let contrasts = tests.flatMap { test in labArms.map { (test: test, executor: $0) } }
  let counts = contrasts.map { contrast in
    (lab: failures[contrast.executor]?[contrast.test.id] ?? 0, plain: failures[nil]?[contrast.test.id] ?? 0)
  }
  let p = counts.map { fisherExact($0.lab, rounds - $0.lab, $0.plain, rounds - $0.plain) }
  let rejected = holmRejects(p)
  for test in tests {
    func arm(_ executor: ExecutorID) -> String {
      let index = contrasts.firstIndex { $0.test == test && $0.executor == executor }!
      let verdict = counts[index].lab > counts[index].plain && rejected[index] ? " more often" : ""
      return String(format: "%2d of %d, p = %.2f%@", counts[index].lab, rounds, p[index], verdict)
    }
    print(
      "  " + test.function.padding(toLength: 32, withPad: " ", startingAt: 0)
        + String(format: "  %2d of %d", failures[nil]?[test.id] ?? 0, rounds) + "   "
        + arm(.global).padding(toLength: 24, withPad: " ", startingAt: 0) + "  " + arm(.serial))
  }
  print("  (more often: at 5% after Holm's correction over the \(contrasts.count) contrasts; p as measured)")
}

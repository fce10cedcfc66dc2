import FlakeLab
import Foundation
import Scenarios

/// Whether the lab moves the rate it measures: the global executor's failure rate of one body,
/// through `flakelab`'s supervised worker and in a plain loop in a process of its own, each
/// round one of each, alternating so that drift in load hits both alike. Rates under the global
/// executor are far from normal, so the two sets are compared by their ranks.
func faithfulnessFigures(worker: String) throws {
  let rounds = 10
  let iterations = 10_000
  let selector = "isLoading.endpointYield"
  let (scenario, variant) = try ScenarioCatalog.standard.resolve(selector)[0]
  let run = RunPlan.Run(
    scenario: scenario, variant: variant, executor: .global, indices: 0..<iterations)
  var supervised = SupervisedRun(run, workerExecutable: worker)
  supervised.replicates = 1
  var lab: [Double] = []
  var plain: [Double] = []
  for _ in 0..<rounds {
    let result = try Supervisor(options: .init(workerExecutable: worker)).run([supervised])[0]
    lab.append(result.tally.failureRate)
    let failures = try CapturedProcess.run(
      CommandLine.arguments[0], ["plain", selector, String(iterations)]
    ).output.trimmingCharacters(in: .whitespacesAndNewlines)
    plain.append(Double(failures).map { $0 / Double(iterations) } ?? .nan)
  }
  let (u, p) = RankSumTest.test(lab, plain)
  func summary(_ rates: [Double]) -> String {
    "median " + Formatting.percent(median(rates)) + " ("
      + Formatting.percent(rates.min()!) + "–" + Formatting.percent(rates.max()!) + ")"
  }
  print("")
  print(
    "\(selector) under \(ExecutorID.global.name), \(iterations) iterations a process, \(rounds) alternating rounds:")
  print("  flakelab run (supervised worker) \(summary(lab))")
  print("  plain loop in an async main      \(summary(plain))")
  print(
    String(
      format: "  rank-sum test: U = %.1f of %d, two-sided p = %.3f (a small p says the lab moves the rate)",
      u, rounds * rounds, p))
}

/// `flakelab-bench plain <selector> <iterations>`: the plain loop the faithfulness figures
/// compare the lab with, in a process of its own entered through an async `main`. Prints the
/// failures and returns true when this process was started for it.
func runPlainLoopIfAsked() async throws -> Bool {
  guard CommandLine.arguments.count == 4, CommandLine.arguments[1] == "plain",
    let iterations = Int(CommandLine.arguments[3])
  else { return false }
  let (_, variant) = try ScenarioCatalog.standard.resolve(CommandLine.arguments[2])[0]
  var failures = 0
  for index in 0..<iterations {
    let (outcome, _) = await runIteration(of: variant, index: index, on: .global)
    if outcome != .passed { failures += 1 }
  }
  print(failures)
  return true
}

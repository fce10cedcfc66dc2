import FlakeLab
import Foundation
import Scenarios

/// The scenario lab end to end against the loop a user would write, as
/// swift-concurrency-extras' tests do: `flakelab run SELECTOR --iterations N` (its listing, its
/// ten replicate processes under global, its report) against `flakelab-bench peer SELECTOR N`,
/// one process running the same body N times from a loop on the main actor, as the README's
/// `@MainActor` test method does, under `withSerialExecutor` for serial. Whole processes, in alternating
/// rounds; the ratios are medians of the rounds' ratios, with their middle half: runs of seven
/// rounds a day apart said 1.29× and 1.23× on a quiet machine, and 20 paired whole runs 1.12×,
/// more spread than the target's margin, so fifteen rounds are taken. The target (≤ 1.15×) is
/// global's; serial's run is shown beside it. Under global a third command joins each round: the
/// peer's loop in as many processes, one after another, as the lab runs replicates, which parts
/// what the replicates' fresh processes cost from what the lab adds to them (each started and
/// timed by the bench, whose spawning it includes, as the lab's includes its own). Returns global's.
@discardableResult
func scenarioSpeedFigures(flakelab: String) throws -> Double {
  let rounds = 15
  let selector = "isLoading.endpointYield"
  let iterations = 50_000
  let replicates = SupervisedRun.defaultReplicates
  print("")
  print(
    "flakelab run \(selector) --iterations \(iterations) against the peer's loop in a process, "
      + "median of \(rounds) alternating rounds")
  func seconds(_ executable: String, _ arguments: [String]) throws -> Double {
    let start = clock.now
    let result = try CapturedProcess.run(executable, arguments)
    guard result.status == 0 else {
      throw BenchFailure("\(executable) \(arguments.joined(separator: " ")) exited \(result.status)")
    }
    return start.duration(to: clock.now).seconds
  }
  var globalRatio = 0.0
  for executor in [ExecutorID.global, .serial] {
    func peer(_ iterations: Int) throws -> Double {
      try seconds(CommandLine.arguments[0], ["peer", selector, String(iterations), executor.name])
    }
    var (lab, single, split) = ([Double](), [Double](), [Double]())
    var (ratios, splitRatios, labOverSplit) = ([Double](), [Double](), [Double]())
    for _ in 0..<rounds {
      let l = try seconds(
        flakelab, ["run", selector, "--executor", executor.name, "--iterations", String(iterations), "--no-progress"])
      let p = try peer(iterations)
      (lab, single, ratios) = (lab + [l], single + [p], ratios + [l / p])
      guard executor == .global else { continue }
      let s = try (0..<replicates).map { _ in try peer(iterations / replicates) }.reduce(0.0, +)
      (split, splitRatios, labOverSplit) = (split + [s], splitRatios + [s / p], labOverSplit + [l / s])
    }
    let (low, high) = quartiles(ratios)
    print(
      String(
        format: "  %-7@ flakelab run %.2f s, the peer's loop %.2f s: %.2f× (middle half of the rounds %.2f–%.2f×)%@",
        executor.name, median(lab), median(single), median(ratios), low, high,
        executor == .global ? ", target ≤ 1.15×" : ""))
    guard executor == .global else { continue }
    globalRatio = median(ratios)
    let (splitLow, splitHigh) = quartiles(splitRatios)
    let (ownLow, ownHigh) = quartiles(labOverSplit)
    print(
      String(
        format: "          the peer's loop in %d processes of %d, one after another, %.2f s: %.2f× the one process "
          + "(middle half %.2f–%.2f×); flakelab run %.2f× it (middle half %.2f–%.2f×)",
        replicates, iterations / replicates, median(split), median(splitRatios), splitLow, splitHigh,
        median(labOverSplit), ownLow, ownHigh))
  }
  return globalRatio
}

/// `flakelab-bench peer SELECTOR N EXECUTOR`: the peer's loop (``scenarioSpeedFigures(flakelab:)``);
/// prints the failures.
func runPeerLoopIfAsked() async throws -> Bool {
  let arguments = CommandLine.arguments
  guard arguments.count == 5, arguments[1] == "peer", let iterations = Int(arguments[3]) else { return false }
  let (_, variant) = try ScenarioCatalog.standard.resolve(arguments[2])[0]
  let failures =
    arguments[4] == ExecutorID.serial.name
    ? await withSerialExecutor { await peerLoop(variant.body, iterations: iterations) }
    : await peerLoop(variant.body, iterations: iterations)
  print(failures)
  return true
}

/// The body `iterations` times from a loop on the main actor, as the worker's and an `@MainActor`
/// XCTest method's (swift-concurrency-extras' README) run; the failures.
@MainActor
private func peerLoop(_ body: Variant.Body, iterations: Int) async -> Int {
  var failures = 0
  for index in 0..<iterations {
    let iteration = Iteration(index: index)
    await iteration.perform(body)
    if iteration.outcome != .passed { failures += 1 }
  }
  return failures
}

import FlakeLab
import Foundation
import Scenarios

/// `make bench`: the lab's own cost per iteration, measured against a bare loop.
///
/// For each case the same scenario body runs in a plain `for` loop (the baseline a user would
/// write) and through the lab's worker loop (executor per iteration, outcome recorded), in
/// alternating rounds so that drift in machine load hits both alike. The figure is the median of
/// the per-round ratios. Rates and timings depend on this machine: compare figures from one run.

struct Case {
  let selector: String
  let executor: any IterationExecutor
  let iterations: Int
}

@MainActor
func bareLoop(_ body: Variant.Body, executor: any IterationExecutor, iterations: Int) async -> Duration {
  let clock = ContinuousClock()
  let start = clock.now
  func loop() async {
    for index in 0..<iterations {
      do { try await body(Iteration(index: index)) } catch {}
    }
  }
  if executor.name == SerialIterationExecutor().name {
    await withSerialExecutor { await loop() }
  } else {
    await loop()
  }
  return start.duration(to: clock.now)
}

@MainActor
func labLoop(_ run: RunPlan.Run) async -> Duration {
  let clock = ContinuousClock()
  let start = clock.now
  var tally = Tally()
  await runIterations(of: run.variant, on: run.executor, indices: run.indices, into: &tally)
  return start.duration(to: clock.now)
}

func microseconds(_ duration: Duration, per iterations: Int) -> Double {
  (Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) * 1e-12)
    / Double(iterations)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

@MainActor
func main() async {
  let rounds = 7
  let cases = [
    Case(selector: "isLoading.endpointYield", executor: .global, iterations: 20_000),
    Case(selector: "isLoading.endpointYield", executor: .serial, iterations: 50_000),
    Case(selector: "toggleRace", executor: .global, iterations: 200),
    Case(selector: "toggleRace", executor: .serial, iterations: 200),
  ]
  let machine = MachineInfo.current
  print("flakelab bench · \(machine.cores) cores · \(machine.os) · Swift \(machine.swift)")
  print("median of \(rounds) alternating rounds; µs per iteration")
  print("")
  print("case                                      bare µs    lab µs   lab/bare")
  for benchCase in cases {
    let (scenario, variant) = try! ScenarioCatalog.standard.resolve(benchCase.selector)[0]
    let run = RunPlan.Run(
      scenario: scenario, variant: variant, executor: benchCase.executor,
      indices: 0..<benchCase.iterations)
    _ = await labLoop(run)  // warm-up
    var bare: [Double] = []
    var lab: [Double] = []
    var ratios: [Double] = []
    for _ in 0..<rounds {
      let b = microseconds(
        await bareLoop(variant.body, executor: benchCase.executor, iterations: benchCase.iterations),
        per: benchCase.iterations)
      let l = microseconds(await labLoop(run), per: benchCase.iterations)
      bare.append(b)
      lab.append(l)
      ratios.append(l / b)
    }
    let label = "\(benchCase.selector) (\(benchCase.executor.name))"
    print(
      label.padding(toLength: 40, withPad: " ", startingAt: 0)
        + String(format: "%9.2f %9.2f %9.3f×", median(bare), median(lab), median(ratios)))
  }
}

await main()

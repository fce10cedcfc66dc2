import FlakeLab
import Foundation
import Scenarios
import Synchronization

struct Case {
  let selector: String
  let executor: any IterationExecutor
  let iterations: Int
}

let clock = ContinuousClock()

@MainActor
func bareLoop(_ body: Variant.Body, executor: any IterationExecutor, iterations: Int) async -> Duration {
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

/// The worker loop as a worker runs it: publishing on an outcome channel that another thread
/// drains every 2 ms, as the supervisor does (a writer waits while the ring is full).
@MainActor
func workerLoop(_ run: RunPlan.Run) async -> Duration {
  let reader = try! OutcomeChannelReader()
  var channel = try! OutcomeChannelWriter(descriptor: reader.descriptor)
  let done = Mutex(false)
  let drainer = Thread {
    while !done.withLock({ $0 }) {
      _ = reader.drain()
      usleep(2_000)
    }
  }
  drainer.start()
  let start = clock.now
  await runIterations(of: run.variant, on: run.executor, indices: run.indices, into: &channel)
  let elapsed = start.duration(to: clock.now)
  done.withLock { $0 = true }
  return elapsed
}

func supervised(_ run: RunPlan.Run, worker: String) -> Duration {
  let supervisor = Supervisor(options: .init(workerExecutable: worker))
  let start = clock.now
  _ = try! supervisor.run(run)
  return start.duration(to: clock.now)
}

func microseconds(_ duration: Duration, per iterations: Int) -> Double {
  duration.seconds * 1e6 / Double(iterations)
}

func median(_ values: [Double]) -> Double {
  values.sorted()[values.count / 2]
}

/// The first and third quartiles of `values` (nearest rank): the middle half of the rounds,
/// printed beside a median so that a reader sees how far one run's figure may move.
func quartiles(_ values: [Double]) -> (low: Double, high: Double) {
  let sorted = values.sorted()
  return (sorted[(sorted.count - 1) / 4], sorted[(3 * (sorted.count - 1) + 3) / 4])
}

@MainActor
/// The per-iteration cost table: bare, worker and supervised, in alternating rounds.
func iterationCostFigures() async {
  let rounds = 7
  let cases = [
    Case(selector: "isLoading.endpointYield", executor: .global, iterations: 20_000),
    Case(selector: "isLoading.endpointYield", executor: .serial, iterations: 100_000),
    Case(selector: "toggleRace", executor: .global, iterations: 200),
    Case(selector: "toggleRace", executor: .serial, iterations: 200),
  ]
  let machine = MachineInfo.current
  print("flakelab bench · \(machine.cores) cores · \(machine.os) · Swift \(machine.swift)")
  print("µs per iteration, median of \(rounds) alternating rounds; target worker/bare ≤ 1.15×")
  print("")
  print(
    "case                                  iterations   bare µs  worker µs  worker/bare  supervised µs  supervised/bare"
  )
  for benchCase in cases {
    let (scenario, variant) = try! ScenarioCatalog.standard.resolve(benchCase.selector)[0]
    let run = RunPlan.Run(
      scenario: scenario, variant: variant, executor: benchCase.executor,
      indices: 0..<benchCase.iterations)
    _ = await workerLoop(run)  // warm-up
    var bare: [Double] = []
    var inWorker: [Double] = []
    var endToEnd: [Double] = []
    var workerRatios: [Double] = []
    var supervisedRatios: [Double] = []
    for _ in 0..<rounds {
      let b = microseconds(
        await bareLoop(variant.body, executor: benchCase.executor, iterations: benchCase.iterations),
        per: benchCase.iterations)
      let w = microseconds(await workerLoop(run), per: benchCase.iterations)
      let s = microseconds(supervised(run, worker: worker), per: benchCase.iterations)
      bare.append(b)
      inWorker.append(w)
      endToEnd.append(s)
      workerRatios.append(w / b)
      supervisedRatios.append(s / b)
    }
    let label = "\(benchCase.selector) (\(benchCase.executor.name))"
    print(
      label.padding(toLength: 36, withPad: " ", startingAt: 0)
        + String(
          format: "%12d %9.2f %10.2f %11.3f× %14.2f %15.3f×", benchCase.iterations, median(bare),
          median(inWorker), median(workerRatios), median(endToEnd), median(supervisedRatios)))
  }
}

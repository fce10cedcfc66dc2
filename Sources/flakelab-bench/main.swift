import FlakeLab
import Foundation
import Scenarios
import Synchronization

/// `make bench`: the lab's own cost per iteration, measured against a bare loop.
///
/// For each case the same scenario body runs three ways, in alternating rounds so that drift in
/// machine load hits all alike:
/// - bare: a plain `for` loop over the body (under `withSerialExecutor` for the serial cases),
///   the loop a user would write;
/// - worker: the lab's worker loop exactly as a worker process runs it, the executor entered per
///   iteration and each outcome published on a shared-memory outcome channel;
/// - supervised: `Supervisor.run`, end to end, including starting the worker process.
/// The ratios are medians of per-round ratios. Then the virtual-time figure: 1,000 iterations of
/// the five-second `countdown` under the `seeded` executor, end to end in a worker process.
/// Every figure depends on this machine and its load: compare figures from one run, never
/// across machines.

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

@MainActor
func main() async {
  let worker = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("flakelab").path
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

/// The deterministic scheduler installs process-wide, so it is measured in a worker process.
func virtualTimeFigure(worker: String) {
  let (scenario, variant) = try! ScenarioCatalog.standard.resolve("countdown.timeoutTask")[0]
  let iterations = 1000
  let run = RunPlan.Run(
    scenario: scenario, variant: variant, executor: ScheduledExecutor(order: .seeded, seed: 1),
    indices: 0..<iterations, seed: 1)
  var seconds: [Double] = []
  var passed = 0
  for _ in 0..<5 {
    let result = try! Supervisor(options: .init(workerExecutable: worker)).run(run)
    seconds.append(result.seconds)
    passed = result.tally.passed
  }
  print("")
  print(
    "countdown.timeoutTask (seeded): \(iterations) iterations of 5 s each in virtual time, "
      + String(format: "%.1f ms", median(seconds) * 1000)
      + " wall (median of 5, worker start included); \(passed) passed")
}

await main()
virtualTimeFigure(
  worker: URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("flakelab").path)

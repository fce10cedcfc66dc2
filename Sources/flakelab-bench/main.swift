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
/// the five-second `countdown` under the `seeded` executor, end to end in a worker process. Then
/// whether the lab moves what it measures: the global failure rate through the supervised worker
/// beside a plain loop in an async `main`, with a rank-sum test. Last,
/// `flakelab test` on the NumberFacts fixture: a Swift Testing test through the lab against the
/// test binary's own `--repetitions` loop, and XCTest repetitions in one process against one
/// process per iteration.
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
  print("\(selector) under global, \(iterations) iterations a process, \(rounds) alternating rounds:")
  print("  flakelab run (supervised worker) \(summary(lab))")
  print("  plain loop in an async main      \(summary(plain))")
  print(
    String(
      format: "  rank-sum test: U = %.1f of %d, two-sided p = %.3f (a small p says the lab moves the rate)",
      u, rounds * rounds, p))
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

/// Seconds the test binary takes to run `arguments` on its own, start to exit.
func binarySeconds(_ binary: String, _ arguments: [String]) -> Double {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: binary)
  process.arguments = arguments
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  let start = clock.now
  try! process.run()
  process.waitUntilExit()
  return start.duration(to: clock.now).seconds
}

/// `flakelab test`'s iterations per second against the loops a user has without it.
func packageTestFigures(worker: String) throws {
  let rounds = 5
  var package = try TestPackage.build(at: "Tests/Fixtures/NumberFacts")
  _ = try package.tests()
  let preload = try TestLaunch.preloadLibrary(besides: worker)
  let probe = try HarnessProbe.run(binary: package.testBinary, preload: preload, executors: [.global])
  let supervisor = Supervisor(options: .init(workerExecutable: worker))
  func lab(_ test: PackageTest, iterations: Int, fresh: Bool = false) throws -> Double {
    let run = TestLaunch.run(
      test, of: package, executor: .global, indices: 0..<iterations, seed: 0, freshProcess: fresh,
      probe: probe, preload: preload)
    let start = clock.now
    _ = try supervisor.run([run])
    return Double(iterations) / start.duration(to: clock.now).seconds
  }
  let swiftTesting = PackageTest(id: "NumberFactsTests.IsLoadingTests/endpointYield()", framework: .swiftTesting)
  let iterations = 2000
  let binaryLoop = [
    "--testing-library", "swift-testing", "--filter", "IsLoadingTests/endpointYield", "--repetitions",
    String(iterations), "--no-parallel",
  ]
  var labRates: [Double] = []
  var binaryRates: [Double] = []
  var streamRates: [Double] = []
  var ratios: [Double] = []
  for _ in 0..<rounds {
    let labRate = try lab(swiftTesting, iterations: iterations)
    let binaryRate = Double(iterations) / binarySeconds(package.testBinary, binaryLoop)
    // What Swift Testing's JSON event stream costs by itself, which the lab reads.
    let streamRate = Double(iterations) / binarySeconds(package.testBinary, binaryLoop + [
      "--quiet", "--event-stream-output-path", "/dev/null", "--event-stream-version", package.eventStreamVersion,
    ])
    labRates.append(labRate)
    binaryRates.append(binaryRate)
    streamRates.append(streamRate)
    ratios.append(labRate / binaryRate)
  }
  print("")
  print("flakelab test, NumberFacts fixture, global executor, median of \(rounds) alternating rounds, process start included")
  print(
    String(
      format: "  Swift Testing endpointYield(): flakelab test %.0f it/s, the binary's --repetitions %.0f it/s: %.2f× (target ≥ 0.9×)",
      median(labRates), median(binaryRates), median(ratios)))
  print(
    String(
      format: "    the binary writing its JSON event stream (--quiet), which the lab reads: %.0f it/s",
      median(streamRates)))
  let xctest = PackageTest(id: "NumberFactsTests.IsLoadingXCTests/testEndpointYield", framework: .xctest)
  var inProcess: [Double] = []
  var perProcess: [Double] = []
  var speedups: [Double] = []
  for _ in 0..<rounds {
    let shared = try lab(xctest, iterations: 1000)
    let fresh = try lab(xctest, iterations: 50, fresh: true)
    inProcess.append(shared)
    perProcess.append(fresh)
    speedups.append(shared / fresh)
  }
  print(
    String(
      format: "  XCTest testEndpointYield: repetitions in one process %.0f it/s, a process per iteration %.0f it/s: %.1f× (target ≥ 10×)",
      median(inProcess), median(perProcess), median(speedups)))
}

let worker = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  .appendingPathComponent("flakelab").path
// `flakelab-bench plain <selector> <iterations>`: the plain loop the faithfulness figures
// compare the lab with, in a process of its own entered through an async `main`.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "plain",
  let iterations = Int(CommandLine.arguments[3])
{
  let (_, variant) = try ScenarioCatalog.standard.resolve(CommandLine.arguments[2])[0]
  var failures = 0
  for index in 0..<iterations {
    let (outcome, _) = await runIteration(of: variant, index: index, on: .global)
    if outcome != .passed { failures += 1 }
  }
  print(failures)
  exit(0)
}
await main()
virtualTimeFigure(worker: worker)
try faithfulnessFigures(worker: worker)
try packageTestFigures(worker: worker)

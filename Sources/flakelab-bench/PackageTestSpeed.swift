import FlakeLab
import Foundation

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

/// `flakelab test`'s iterations per second against the loops a user has without it; returns the
/// Swift Testing ratio (the lab's rate over the binary's own `--repetitions` loop).
func packageTestFigures(worker: String) throws -> Double {
  let rounds = 5
  let package = try TestPackage.build(at: "Tests/Fixtures/NumberFacts").listed().package
  let preload = try TestLaunch.preloadLibrary(besides: worker)
  let probe = try HarnessProbe.run(binary: package.testBinary, preload: preload, mechanisms: [.untouched])
  let supervisor = Supervisor(options: .init(workerExecutable: worker))
  func lab(_ test: PackageTest, iterations: Int, fresh: Bool = false) throws -> Double {
    let run = TestLaunch.run(
      test, of: package, executor: GlobalExecutor(), indices: 0..<iterations, seed: 0,
      layout: fresh ? .fresh : .repetitions,
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
    // What Swift Testing's JSON event stream costs by itself, which the lab reads, at the
    // verbosity the lab runs tests with.
    let streamRate =
      Double(iterations)
      / binarySeconds(
        package.testBinary,
        binaryLoop + [
          "--verbosity", String(Int.min), "--event-stream-output-path", "/dev/null",
          "--event-stream-version", package.eventStreamVersion,
        ])
    labRates.append(labRate)
    binaryRates.append(binaryRate)
    streamRates.append(streamRate)
    ratios.append(labRate / binaryRate)
  }
  print("")
  print(
    "flakelab test, NumberFacts fixture, global executor, median of \(rounds) alternating rounds, process start included"
  )
  print(
    String(
      format:
        "  Swift Testing endpointYield(): flakelab test %.0f it/s, the binary's --repetitions %.0f it/s: %.2f× (target ≥ 1.0×)",
      median(labRates), median(binaryRates), median(ratios)))
  print(
    String(
      format: "    the binary writing its JSON event stream (lowest verbosity), which the lab reads: %.0f it/s",
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
      format:
        "  XCTest testEndpointYield: repetitions in one process %.0f it/s, a process per iteration %.0f it/s: %.1f× (target ≥ 10×)",
      median(inProcess), median(perProcess), median(speedups)))
  return median(ratios)
}

/// What `passes` suite passes under global cost against as many runs of `swift test
/// --skip-build` in a shell loop on the same package, and of `swift test --skip-build
/// --no-parallel` (both run every test once a round, the lab's in processes of its own), in
/// alternating rounds, each figure with its spread; returns the median ratio of the lab's time
/// over the default loop's. `BENCH_PASS_ROUNDS` rounds (3 unless set).
func suitePassFigures(packagePath: String, worker: String) throws -> Double {
  let rounds = Int(ProcessInfo.processInfo.environment["BENCH_PASS_ROUNDS"] ?? "") ?? 3
  let passes = 5
  let (package, tests) = try TestPackage.build(at: packagePath).listed()
  let preload = try TestLaunch.preloadLibrary(besides: worker)
  let arm = TestLaunch.passes(of: tests, in: package, executor: GlobalExecutor(), seed: 0, preload: preload)
  var (labSeconds, loopSeconds, serialSeconds, ratios) = ([Double](), [Double](), [Double](), [Double]())
  var counted = true
  func loop(_ extra: [String]) throws -> Double {
    var seconds = 0.0
    for _ in 0..<passes {
      seconds += try timedRun(
        "/usr/bin/env", ["swift", "test", "--skip-build"] + extra, in: packagePath, output: .pipe)
    }
    return seconds
  }
  for _ in 0..<rounds {
    let start = clock.now
    let results = try PassSupervisor(timeout: .seconds(60)).run(
      [arm], passes: 0..<passes, replicates: 1, seed: 0, packagePath: packagePath)
    let lab = start.duration(to: clock.now).seconds
    counted = counted && results.reduce(0) { $0 + $1.tally.iterations + $1.tally.skipped } >= tests.count * passes
    let plain = try loop([])
    serialSeconds.append(try loop(["--no-parallel"]))
    labSeconds.append(lab)
    loopSeconds.append(plain)
    ratios.append(lab / plain)
  }
  print("")
  print(
    "flakelab test, suite passes under \(ExecutorID.global.name): \(packagePath), \(tests.count) tests, \(passes) passes a round, "
      + "median [min–max] of \(rounds) alternating rounds")
  print(
    "  \(passes) passes \(figure(labSeconds)); \(passes) runs of swift test --skip-build \(figure(loopSeconds)): "
      + String(format: "%.2f× the loop's time (target ≤ 1.0)", median(ratios))
      + "; of swift test --skip-build --no-parallel \(figure(serialSeconds)): "
      + String(format: "%.2f×", median(labSeconds) / median(serialSeconds))
      + (counted ? "" : "; some tests gave no outcome: see flakelab test on this package"))
  return median(ratios)
}

import FlakeLab
import Foundation
import Scenarios
import Synchronization

// `make bench`: the lab's own cost per iteration, measured against a bare loop.
//
// For each case the same scenario body runs three ways, in alternating rounds so that drift in
// machine load hits all alike:
// - bare: a plain `for` loop over the body (under `withSerialExecutor` for the serial cases),
//   the loop a user would write;
// - worker: the lab's worker loop exactly as a worker process runs it, the executor entered per
//   iteration and each outcome published on a shared-memory outcome channel;
// - supervised: `Supervisor.run`, end to end, including starting the worker process.
// The ratios are medians of per-round ratios. Then `flakelab run` end to end against the loop a
// user would write, each in a process of its own (ScenarioSpeed.swift). Then the virtual-time
// figure: 1,000 iterations of the five-second `countdown` under the `seeded` executor, end to end
// in a worker process. Then
// whether the lab moves what it measures: the global failure rate through the supervised worker
// beside a plain loop in an async `main`, with a rank-sum test; and the same question of a
// package's tests: each test's failures in the lab's suite passes beside the binary run as
// `swift test` runs it (PassFidelity.swift); and what each call the harness watches on one
// queue costs a test, beside the same call in the binary run plainly (InterposerCost.swift), and
// whether tests that measure time fail more often in the lab, per executor (TimingFidelity.swift);
// what the thread sanitizer's arm costs beside the plain one (SanitizerCost.swift). Last,
// `flakelab test` on the NumberFacts fixture: a Swift Testing test through the lab against the
// test binary's own `--repetitions` loop, and XCTest repetitions in one process against one
// process per iteration. Then suite passes (flakelab test's default layout) against a loop of
// `swift test --skip-build` on the package in BENCH_PACKAGE (NumberFacts if unset; pick one of
// about 100 fast tests for a figure that means something). Then flakelab ci and the listing on
// generated suites of hundreds to thousands of tests (LargeSuites.swift), whose ratio per size
// shows a cost that grows faster than the suite. Then the diagnosis's accuracy: the default run
// of `flakelab test` on FlakeKinds, a corpus of tests of known cause (Labels.tsv), twice with two
// seeds: answers right, harmful and changed, each run's time, and a 20-test package's default
// run (DiagnosisAccuracy.swift).
// The speed ratios close the run.
// Every figure depends on this machine and its load: compare figures from one run, never
// across machines.

/// `flakelab`, and the worker it runs its scenarios in, `flakelab-worker`, beside it (`make build`).
let flakelab = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  .appendingPathComponent("flakelab").path
let worker = URL(fileURLWithPath: flakelab).deletingLastPathComponent().appendingPathComponent("flakelab-worker").path
if try await runPlainLoopIfAsked() { exit(0) }
if try await runPeerLoopIfAsked() { exit(0) }

/// The parts `flakelab-bench PART` runs alone; with no part, every figure.
/// `fidelity`: only the suite passes beside swift test's runs, on BENCH_FIDELITY_PACKAGES (a
/// package of one's own, say); `interposers`: only what each watched call costs a test
/// (InterposerCost.swift); `accuracy`: only the diagnosis's answers on FlakeKinds
/// (DiagnosisAccuracy.swift); `scenarios`: only `flakelab run` against the peer's loop
/// (ScenarioSpeed.swift); `suites`: only flakelab ci on generated suites (LargeSuites.swift);
/// `timing`: only timing tests' failures, plain and in the lab (TimingFidelity.swift);
/// `sanitizer`: only the thread sanitizer's arm against the plain one (SanitizerCost.swift);
/// `passes`: only suite passes against `swift test` loops on BENCH_PACKAGE (PackageTestSpeed.swift).
let parts: [String: () throws -> Void] = [
  "fidelity": { try passFidelityFigures(worker: worker) },
  "interposers": { try interposerCostFigures(flakelab: flakelab) },
  "accuracy": { try diagnosisAccuracyFigures(flakelab: flakelab) },
  "scenarios": { _ = try scenarioSpeedFigures(flakelab: flakelab) },
  "suites": { _ = try largeSuiteFigures(flakelab: flakelab) },
  "timing": { try timingFidelityFigures(worker: worker) },
  "sanitizer": { try sanitizerCostFigures() },
  "passes": { _ = try suitePassFigures(packagePath: benchPackage, worker: worker) },
]
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count <= 1, arguments.first.map({ parts[$0] != nil }) ?? true else {
  let usage = "usage: flakelab-bench [\(parts.keys.sorted().joined(separator: "|"))]"
  if arguments == ["--help"] || arguments == ["-h"] {
    print(usage + ": one part of make bench's figures, or all of them")
    exit(0)
  }
  let unknown = arguments.joined(separator: " ")
  FileHandle.standardError.write(Data("flakelab-bench: unknown part '\(unknown)'; \(usage)\n".utf8))
  exit(2)
}

/// The package suite passes are timed on: BENCH_PACKAGE, NumberFacts unless set.
let benchPackage =
  ProcessInfo.processInfo.environment["BENCH_PACKAGE"].flatMap { $0.isEmpty ? nil : $0 }
  ?? "Tests/Fixtures/NumberFacts"

/// Every figure of `make bench`, the speed ratios last.
func allFigures() async throws {
  await iterationCostFigures()
  let scenarioRatio = try scenarioSpeedFigures(flakelab: flakelab)
  virtualTimeFigure(worker: worker)
  try faithfulnessFigures(worker: worker)
  try passFidelityFigures(worker: worker)
  try interposerCostFigures(flakelab: flakelab)
  try sanitizerCostFigures()
  try timingFidelityFigures(worker: worker)
  let repetitionsRatio = try packageTestFigures(worker: worker)
  let suiteRatio = try suitePassFigures(packagePath: benchPackage, worker: worker)
  let ciRatio = try ciOverheadFigure(
    packagePath: ProcessInfo.processInfo.environment["BENCH_CI_PACKAGE"].flatMap { $0.isEmpty ? nil : $0 }
      ?? benchPackage,
    flakelab: flakelab, skip: ProcessInfo.processInfo.environment["BENCH_CI_SKIP"] ?? "naive|yield|Naive|Yield")
  let suiteSizes = try largeSuiteFigures(flakelab: flakelab)
  try diagnosisAccuracyFigures(flakelab: flakelab)
  print("")
  print(
    String(
      format: "flakelab test speed: suite passes %.2f× the time of a swift test loop (target ≤ 1.0) · "
        + "Swift Testing repetitions %.2f× the binary's own --repetitions rate (target ≥ 1.0×) · "
        + "flakelab ci %.2f× swift test (target ≤ 1.10×) · "
        + "flakelab run under \(ExecutorID.global.name) %.2f× the peer's loop (target ≤ 1.15×)",
      suiteRatio, repetitionsRatio, ciRatio, scenarioRatio)
      + suiteSizes.map { String(format: " · ci at %d tests %.2f× its allowance over the binaries", $0.size, $0.ratio) }
      .joined())
}

// A figure that cannot be measured (no release build beside this one, a fixture that does not
// build) is one line and status 1, never a trap.
do {
  if let part = arguments.first.flatMap({ parts[$0] }) { try part() } else { try await allFigures() }
} catch {
  FileHandle.standardError.write(
    Data("flakelab-bench: \(error) (make bench builds what it measures: make build first)\n".utf8))
  exit(1)
}

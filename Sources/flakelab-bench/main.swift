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
// The ratios are medians of per-round ratios. Then the virtual-time figure: 1,000 iterations of
// the five-second `countdown` under the `seeded` executor, end to end in a worker process. Then
// whether the lab moves what it measures: the global failure rate through the supervised worker
// beside a plain loop in an async `main`, with a rank-sum test. Last,
// `flakelab test` on the NumberFacts fixture: a Swift Testing test through the lab against the
// test binary's own `--repetitions` loop, and XCTest repetitions in one process against one
// process per iteration.
// Every figure depends on this machine and its load: compare figures from one run, never
// across machines.

let worker = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  .appendingPathComponent("flakelab").path
if try await runPlainLoopIfAsked() { exit(0) }
await iterationCostFigures()
virtualTimeFigure(worker: worker)
try faithfulnessFigures(worker: worker)
try packageTestFigures(worker: worker)

import FlakeLab
import Foundation
import Scenarios

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

/// One measurement, start to finish: supervise every run in worker processes, estimate each
/// rate at the report's confidence, judge it (claims, gates, the baseline), and make the report.
///
/// Commands parse their options into a measurement, call ``run(_:judge:onProgress:)``, and render
/// what it returns; nothing here prints. Ctrl-C and SIGTERM end the supervision early with the
/// runs that finished (``Report/interrupted``).
package struct RateMeasurement: Sendable {
  package var jobs = 1
  package var timeout: Duration
  /// `--replicates`, or nil for each run's default (``replicates(independent:)``).
  package var replicates: Int?
  package var shard: Shard?
  package var seed: UInt64
  package var confidence = FailureRateEstimate.defaultConfidence
  package var gates: [FailureRateGate] = []
  package var baseline: Report?
  /// The executable the workers are started from, and the program replay commands name.
  package var workerExecutable: String
  package var program: String

  package init(timeout: Duration, seed: UInt64, workerExecutable: String, program: String) {
    self.timeout = timeout
    self.seed = seed
    self.workerExecutable = workerExecutable
    self.program = program
  }

  /// The replicates of a run (``SupervisedRun/replicates(asked:jobs:independent:)``).
  package func replicates(independent: Bool) -> Int {
    SupervisedRun.replicates(asked: replicates, jobs: jobs, independent: independent)
  }

  /// Every run of `plan`, in `flakelab worker` processes; `judge` gets each result with its run.
  @MainActor
  package func run(
    _ plan: RunPlan, judge: (inout RunResult, RunPlan.Run) -> Void = { _, _ in },
    onProgress: @escaping (Supervisor.Progress) -> Void = { _ in }
  ) throws -> Report {
    try run(
      plan.runs.map { SupervisedRun($0, workerExecutable: workerExecutable) },
      judge: { result, index in judge(&result, plan.runs[index]) }, onProgress: onProgress)
  }

  /// Supervises `runs`, estimates each at the report's confidence, lets `judge` add a verdict
  /// (given the run's index), and notes the problems of gates and the baseline.
  @MainActor
  package func run(
    _ runs: [SupervisedRun], judge: (inout RunResult, Int) -> Void = { _, _ in },
    onProgress: @escaping (Supervisor.Progress) -> Void = { _ in }
  ) throws -> Report {
    let measured = try Supervisor.measuring(
      runs.map { run in
        var run = run
        run.replicates = run.replicates ?? replicates(independent: run.iterationsAreIndependent)
        return run
      },
      options: .init(jobs: jobs, timeout: timeout, workerExecutable: workerExecutable),
      onProgress: onProgress)
    var results: [RunResult] = []
    for (index, var result) in measured.results.enumerated() {
      // An interrupted measurement reports every run, what it cut as not run.
      result.estimate(atConfidence: confidence)
      judge(&result, index)
      results.append(result)
    }
    var report = Report(
      runs: results, interrupted: measured.interrupted, shard: shard, confidence: confidence,
      seed: seed, program: program, timeout: timeout)
    // Gates on partial counts would judge a rate nobody measured.
    if !measured.interrupted { report.judge(gates: gates, baseline: baseline) }
    return report
  }
}

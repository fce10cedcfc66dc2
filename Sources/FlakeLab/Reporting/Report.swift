/// Everything one command measured, ready to be rendered as text or JSON.
package struct Report: Sendable {
  /// The lab's own version, written into every machine-readable report.
  package static let labVersion = "0.1.0"

  package var machine: MachineInfo
  package var runs: [RunResult]
  /// Set when Ctrl-C or SIGTERM stopped the command: the runs hold what finished before.
  package var interrupted: Bool
  /// The shard these runs are a share of, or nil for whole runs (and merged reports).
  package var shard: Shard?
  /// The confidence level of every interval in the report (`--confidence`, 0.95 by default).
  package var confidence: Double
  /// The seed of the runs (`--seed`, or one drawn at random), printed in every report so that
  /// runs under the deterministic scheduler can be repeated.
  package var seed: UInt64?
  /// The executable the runs were made with, which the replay commands a report prints name.
  package var program: String

  package init(
    machine: MachineInfo = .current, runs: [RunResult], interrupted: Bool = false,
    shard: Shard? = nil, confidence: Double = 0.95, seed: UInt64? = nil,
    program: String = "flakelab"
  ) {
    self.machine = machine
    self.runs = runs
    self.interrupted = interrupted
    self.shard = shard
    self.confidence = confidence
    self.seed = seed
    self.program = program
  }

  /// `result`'s failure rate and its interval at the report's confidence.
  package func estimate(of result: RunResult) -> FailureRateEstimate {
    result.estimate(confidence: confidence)
  }
}

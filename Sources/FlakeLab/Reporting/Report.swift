/// Everything one command measured, ready to be rendered as text or JSON.
public struct Report: Sendable {
  /// The lab's own version, written into every machine-readable report.
  public static let labVersion = "0.1.0"

  public var machine: MachineInfo
  public var runs: [RunResult]

  public init(machine: MachineInfo = .current, runs: [RunResult]) {
    self.machine = machine
    self.runs = runs
  }
}

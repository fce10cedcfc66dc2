import FlakeLab
import Foundation

/// `replay` and `explore` run a scenario in their own process, where a trap would end the lab
/// with a signal and a backtrace. So they run again as a child of themselves, and a child that
/// dies is the scenario's outcome, told as `run` tells a crash: the signal and the runtime's
/// message.
enum CrashContainment {
  private static let variable = "FLAKELAB_CONTAINED"

  /// Whether this process is the contained child, which runs the command itself.
  static var isContained: Bool { ProcessInfo.processInfo.environment[variable] == "1" }

  /// In the contained child, nil: the command runs itself. In the parent, runs this command
  /// line again as a child and returns its status, after passing on what it printed; when a
  /// signal ended it, prints `report` of the crash (`signal 4 (SIGILL): Fatal error: …`) instead,
  /// and returns success: the crash is the scenario's outcome.
  static func runUnlessContained(report: (_ crash: String) -> String) throws -> ExitStatus? {
    guard !isContained else { return nil }
    var environment = ProcessInfo.processInfo.environment
    environment[variable] = "1"
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let child = try CapturedProcess.run(
      LabExecutables.current, Array(CommandLine.arguments.dropFirst()), environment: environment)
    guard let signal = child.signal else {
      print(child.output, terminator: "")
      writeStandardError(child.errorOutput)
      return ExitStatus(rawValue: child.status) ?? .internalError
    }
    let printed = CrashSummary.summarize(child.output + child.errorOutput)
    print(report(OutcomeText.describe(.crashed(Crash(status: signal, lastLines: printed)))))
    return .success
  }
}

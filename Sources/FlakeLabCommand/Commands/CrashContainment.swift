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

  /// Runs this command line again as a child and passes on what it printed and its status;
  /// when a signal ended it, returns the crash as an observation instead.
  ///
  /// - Returns: the child's status, or the crash (`signal 4 (SIGILL): Fatal error: …`).
  static func runContained() throws -> Result<ExitStatus, Crash> {
    var environment = ProcessInfo.processInfo.environment
    environment[variable] = "1"
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let child = try CapturedProcess.run(
      MeasurementOptions.executablePath, Array(CommandLine.arguments.dropFirst()), environment: environment)
    guard let signal = child.signal else {
      print(child.output, terminator: "")
      writeStandardError(child.errorOutput)
      return .success(ExitStatus(rawValue: child.status) ?? .internalError)
    }
    let printed = CrashSummary.summarize(child.output + child.errorOutput)
    return .failure(
      Crash(observation: Supervisor.describe(status: signal) + (printed.isEmpty ? "" : ": \(printed)")))
  }

  /// A contained command whose process a signal ended.
  struct Crash: Error {
    let observation: String
  }
}

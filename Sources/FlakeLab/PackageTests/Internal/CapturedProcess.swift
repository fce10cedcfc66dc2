import Foundation

/// A helper program run to its end with its output captured: `swift build`, a test binary's
/// `--list-tests`.
struct CapturedProcess {
  let status: Int32
  let output: String
  let errorOutput: String

  /// Runs `executable` (found on `PATH` when it has no slash) with `arguments`.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil
  ) throws -> CapturedProcess {
    let process = Process()
    if executable.contains("/") {
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [executable] + arguments
    }
    if let environment { process.environment = environment }
    let output = Pipe()
    let errorOutput = Pipe()
    process.standardOutput = output
    process.standardError = errorOutput
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Both pipes are read to their end before waiting, so a full pipe never blocks the child.
    nonisolated(unsafe) var errorData = Data()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      errorData = errorOutput.fileHandleForReading.readDataToEndOfFile()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    return CapturedProcess(
      status: status, output: String(decoding: outputData, as: UTF8.self),
      errorOutput: String(decoding: errorData, as: UTF8.self))
  }
}

package import Foundation

/// A program run to its end with its output captured: `swift build`, a test binary's
/// `--list-tests`, and `flakelab` itself in this package's tests.
package struct CapturedProcess {
  package let status: Int32
  package let output: String
  package let errorOutput: String

  /// Runs `executable` (found on `PATH` when it has no slash) with `arguments`, in `directory`
  /// when one is given, with standard input empty.
  package static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    directory: URL? = nil
  ) throws -> CapturedProcess {
    let process = Process()
    if let directory { process.currentDirectoryURL = directory }
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

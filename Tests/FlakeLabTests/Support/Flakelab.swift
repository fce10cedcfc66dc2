import Foundation
import XCTest

@testable import FlakeLab

/// Runs the built `flakelab` executable, as a user would, and collects what it printed.
enum Flakelab {
  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String
  }

  /// The executable beside the test bundle (`make test` builds it first).
  static var executable: URL {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("flakelab")
  }

  /// Runs flakelab with `arguments`, in `directory` when one is given.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil
  ) throws -> Result {
    try run(executable, arguments, environment: environment, directory: directory)
  }

  /// flakelab started with `arguments` and left running, its output discarded (or sent to
  /// `output` and `errors`), for tests that signal it mid-run.
  static func launch(_ arguments: [String], output: Pipe? = nil, errors: Pipe? = nil) throws -> Process {
    OwnProcesses.takeCharge
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardOutput = output ?? FileHandle.nullDevice
    process.standardError = errors ?? FileHandle.nullDevice
    try process.run()
    return process
  }

  /// A bash command line around flakelab, for what needs a shell's redirections and pipes
  /// (`> /dev/full`, `| true`); `FLAKELAB` in it names the executable.
  static func shell(_ script: String) throws -> Result {
    try run(
      URL(fileURLWithPath: "/bin/bash"),
      ["-c", script.replacingOccurrences(of: "FLAKELAB", with: "'\(executable.path)'")],
      environment: [:], directory: nil)
  }

  /// Another program's standard output, for tools the tests drive flakelab through.
  static func runTool(_ path: String, _ arguments: [String]) throws -> String {
    try run(URL(fileURLWithPath: path), arguments, environment: [:], directory: nil).stdout
  }

  /// Another program with `arguments`, `environment` added to this process's (less a CI job's
  /// summary and annotations), in `directory`.
  static func run(
    _ program: URL, _ arguments: [String], environment: [String: String], directory: URL?
  ) throws -> Result {
    OwnProcesses.takeCharge
    let result = try CapturedProcess.run(
      program.path, arguments,
      // A CI job's summary and annotations are the job's, not the tests': only a test that asks
      // for them gets them.
      environment: ProcessInfo.processInfo.environment.filter {
        !["GITHUB_STEP_SUMMARY", "GITHUB_ACTIONS"].contains($0.key)
      }
      .merging(environment) { $1 }, directory: directory)
    return Result(status: result.status, stdout: result.output, stderr: result.errorOutput)
  }
}

extension Flakelab {
  /// flakelab's JSON report of `arguments`, read back by the lab's own reader (the one `merge`
  /// and `--baseline` use), with its exit status.
  static func runReport(_ arguments: [String]) throws -> (status: Int32, report: Report) {
    let result = try run(arguments + ["--format", "json"])
    XCTAssertFalse(result.stdout.isEmpty, result.stderr)
    return (result.status, try ReportJSON.read(Array(result.stdout.utf8), name: "stdout"))
  }

  /// flakelab started with `arguments` and `--output` to a file of its own, interrupted (SIGINT)
  /// after `seconds`: its exit status and the report it left, read back and as text.
  static func interruptedReport(_ arguments: [String], after seconds: Double) throws -> (
    status: Int32, report: Report, data: Data
  ) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flakelab-interrupted-\(UUID().uuidString).json"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let process = try launch(arguments + ["--output", path])
    Thread.sleep(forTimeInterval: seconds)
    process.interrupt()
    process.waitUntilExit()
    let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
    return (process.terminationStatus, try ReportJSON.read(data, name: path), data)
  }

  /// A run's counts by outcome, for comparing with what must have happened.
  static func counts(_ run: RunResult?) -> [String: Int] {
    guard let tally = run?.tally else { return [:] }
    return [
      "iterations": tally.iterations, "passed": tally.passed, "failed": tally.failed,
      "crashed": tally.crashed, "timedOut": tally.timedOut,
    ]
  }
}

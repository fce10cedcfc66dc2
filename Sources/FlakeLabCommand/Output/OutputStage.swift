import FlakeLab
import Foundation

/// The end every command that answers shares: notes on standard error, the answer on standard
/// output in `--format`, the GitHub job's annotations and summary, the `--output` file, then the
/// exit status. The answer is printed before the file is written: a file that cannot be written
/// loses nothing measured.
///
/// One policy for what cannot be written: standard output (`> /dev/full`, a closed pipe) or the
/// `--output` file is said on standard error and ends the command with 2, after everything else
/// was written; a job summary that cannot be written is said and changes nothing, being a view
/// of the answer, not the answer. An interrupted command ends with 130 whatever else happened.
package struct OutputStage {
  package let format: OutputFormat
  package let outputPath: String?
  /// The process's environment, where a CI job names its workspace and summary file.
  package let environment: [String: String]

  package static let output = Option<String>.text("output", "FILE", "Also write the JSON report to FILE (atomically)")

  /// `--format` among `formats` and, when `offersFile`, `--output`; both checked now, before
  /// anything runs: a file that cannot be written costs nothing measured.
  package init(
    _ arguments: ParsedArguments, formats: Option<OutputFormat>, offersFile: Bool = true,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(UsageError) {
    self.environment = environment
    format = try arguments[formats]
    outputPath = offersFile ? try arguments[Self.output] : nil
    if let outputPath, let named = OutputFormat.named(byExtensionOf: outputPath), named != .json {
      throw UsageError(
        "--output writes the JSON report, and '\(outputPath)' is named for \(named.rawValue); "
          + "write that with --format \(named.rawValue) > \(outputPath)")
    }
    if let outputPath {
      try UsageError.mapping { () throws(ReportFileError) in try ReportFile.checkWritable(outputPath) }
    }
    if let baseline = arguments.text(of: FailureRateGate.baseline) { try refuseOverwriting([baseline]) }
  }

  /// Refuses an `--output` that names one of `files` the command reads or writes (a history, a
  /// quarantine, a report it merges), before anything runs: written over, the history would lose
  /// every run, and a report read as a quarantine would excuse every test.
  package func refuseOverwriting(_ files: [String?]) throws(UsageError) {
    guard let outputPath else { return }
    for case let file? in files where ReportFile.sameFile(outputPath, file) {
      throw UsageError("--output '\(outputPath)' is '\(file)', which this command reads; write the report elsewhere")
    }
  }

  /// A stage with no options of its own: text to standard output, no file.
  package init(format: OutputFormat = .text, environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.format = format
    outputPath = nil
    self.environment = environment
  }

  /// Writes `answer` everywhere it goes, and returns the status the command ends with.
  package func finish(_ answer: CommandOutput) -> ExitStatus {
    answer.notes.forEach(printError)
    let printed = Self.print(answer.render(format))
    if !printed, let done = answer.doneRegardless { printError("\(Program.name): \(done)") }
    if environment["GITHUB_ACTIONS"] == "true", let annotations = answer.annotations {
      // On stderr: stdout is the answer, which a script may be reading. Unset or empty, the
      // workspace is where the job runs: never `/`, which would leave every path absolute.
      let workspace =
        environment["GITHUB_WORKSPACE"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.currentDirectoryPath
      annotations(workspace).forEach(printError)
    }
    if let summary = answer.jobSummary, let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty {
      do throws(ReportFileError) { try ReportFile.append(summary(), to: path) } catch {
        printError("\(Program.name): the job summary ($GITHUB_STEP_SUMMARY): \(ErrorText.describe(error))")
      }
    }
    var written = true
    if let outputPath, let json = answer.json {
      do throws(ReportFileError) { try ReportFile.write(json(), to: outputPath) } catch {
        printError("\(Program.name): \(ErrorText.describe(error))")
        written = false
      }
    }
    if answer.interrupted {
      printError("\(Program.name): interrupted; the answer holds what finished")
      return .interrupted
    }
    return printed && written ? answer.status : .usage
  }

  /// Writes `text` to standard output whole, or says on stderr why it could not. Through the C
  /// library, a write that failed early in a large answer could leave nothing for the last
  /// flush to fail on.
  private static func print(_ text: String) -> Bool {
    guard SystemCalls.writeAll(text.utf8, to: STDOUT_FILENO) else {
      printError("\(Program.name): could not write the report to standard output: \(String(cString: strerror(errno)))")
      return false
    }
    return true
  }
}

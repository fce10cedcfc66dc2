import FlakeLab
import Foundation

/// The end every command that reports shares (`run`, `compare`, `check`, `test`, `merge`): what
/// fails the command on stderr, the report on stdout, then the `--output` file, then the exit
/// status. The report is printed before the file is written: a file that cannot be written
/// loses nothing measured.
struct ReportOutput {
  let format: ReportFormat
  let outputPath: String?

  static let output = Option<String>.text("output", "FILE", "Also write the JSON report to FILE (atomically)")
  static let specs = [ReportFormat.option.spec, output.spec]

  /// The process's environment, where a CI job names its summary file.
  let environment: [String: String]

  init(_ arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageError) {
    self.environment = environment
    format = try arguments[ReportFormat.option]
    outputPath = try arguments[Self.output]
    if let outputPath, let named = ReportFormat.named(byExtensionOf: outputPath), named != .json {
      throw UsageError(
        "--output writes the JSON report, and '\(outputPath)' is named for \(named.rawValue); "
          + "write that with --format \(named.rawValue) > \(outputPath)")
    }
    if let outputPath {
      try UsageError.mapping { () throws(ReportFileError) in try ReportFile.checkWritable(outputPath) }
    }
  }

  /// Writes `text` to standard output whole, or says on stderr why it could not: the one policy
  /// of every command for a report that cannot be printed (`> /dev/full`, a closed pipe or
  /// descriptor), which then exits 2. Through the C library, a write that failed early in a
  /// large report could leave nothing for the last flush to fail on.
  static func print(_ text: String) -> Bool {
    guard SystemCalls.writeAll(text.utf8, to: STDOUT_FILENO) else {
      printError("\(Program.name): could not write the report to standard output: \(String(cString: strerror(errno)))")
      return false
    }
    return true
  }

  func finish(_ report: Report, baseline: Report?, text: (Report) -> String) -> ExitStatus {
    if let baseline, !report.interrupted {
      // A package's tests are compared test by test, and only where something changed; every
      // other report run by run.
      var lines = report.compared(with: baseline).map(\.summary)
      if !report.tests.isEmpty, !baseline.tests.isEmpty {
        let changes = report.comparedTests(with: baseline)
        let both = report.tests.filter { finding in baseline.tests.contains { $0.test == finding.test } }.count
        lines =
          changes.isEmpty
          ? ["no test's verdict or suite rate changed significantly (\(both) test\(both == 1 ? "" : "s") in both reports)"]
          : changes.map(\.summary)
      }
      for line in lines { printError("baseline: \(line)") }
    }
    for problem in report.runs.flatMap(\.problems) {
      printError("not met: \(ProblemText.describe(problem))")
    }
    let printed = Self.print(format.render(report, text: text))
    if environment["GITHUB_ACTIONS"] == "true" {
      // On stderr: stdout is the report, which a script may be reading.
      // Unset or empty, the workspace is where the job runs: never `/`, which would leave every path absolute.
      let workspace = environment["GITHUB_WORKSPACE"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.currentDirectoryPath
      GitHubAnnotations.lines(report, workspace: workspace).forEach(printError)
    }
    appendSummary(report)
    var written = true
    if let outputPath {
      do throws(ReportFileError) {
        try ReportFile.write(JSONReport.render(report), to: outputPath)
      } catch {
        printError("\(Program.name): \(ErrorText.describe(error))")
        written = false
      }
    }
    if report.interrupted {
      printError("\(Program.name): interrupted; the report holds the iterations that finished")
      return .interrupted
    }
    guard printed else { return .usage }
    return !written ? .usage : report.hasProblems ? .gateNotMet : .success
  }

  /// In a GitHub Actions job, the markdown answer goes on the job's summary page: appended to the
  /// file `$GITHUB_STEP_SUMMARY` names, whatever `--format` is. A summary that cannot be written
  /// is said on stderr and changes nothing else: it is a view of the report, not the report.
  private func appendSummary(_ report: Report) {
    guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
    do throws(ReportFileError) {
      try ReportFile.append(MarkdownReport.render(report), to: path)
    } catch {
      printError("\(Program.name): the job summary ($GITHUB_STEP_SUMMARY): \(ErrorText.describe(error))")
    }
  }
}

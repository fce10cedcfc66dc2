import FlakeLab

/// The end every command that reports shares (`run`, `compare`, `check`, `test`, `merge`): what
/// fails the command on stderr, the report on stdout, then the `--output` file, then the exit
/// status. The report is printed before the file is written: a file that cannot be written
/// loses nothing measured.
struct ReportOutput {
  let format: ReportFormat
  let outputPath: String?

  static let output = Option<String>.text("output", "FILE", "Also write the JSON report to FILE (atomically)")
  static let specs = [ReportFormat.option.spec, output.spec]

  init(_ arguments: ParsedArguments) throws(UsageError) {
    format = try arguments[ReportFormat.option]
    outputPath = try arguments[Self.output]
    if let outputPath {
      try UsageError.mapping { () throws(ReportFileError) in try ReportFile.checkWritable(outputPath) }
    }
  }

  func finish(_ report: Report, baseline: Report?, text: (Report) -> String) -> ExitStatus {
    if let baseline, !report.interrupted {
      for comparison in report.compared(with: baseline) {
        printError("baseline: \(comparison.summary)")
      }
    }
    for problem in report.runs.flatMap(\.problems) {
      printError("not met: \(ProblemText.describe(problem))")
    }
    print(format.render(report, text: text), terminator: "")
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
    return !written ? .usage : report.hasProblems ? .gateNotMet : .success
  }
}

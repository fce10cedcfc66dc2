/// Why a report file cannot be read or written, with what a message needs; the command line
/// words it.
package enum ReportFileError: Error, Equatable {
  case unreadable(InputFileError)
  /// `--output ''`.
  case emptyPath
  case isDirectory(path: String)
  /// A device, a pipe or a socket, which a report never replaces.
  case notARegularFile(path: String)
  /// The file standard output or standard error goes to (`--output /dev/stdout > file`): the
  /// report would replace what is written there.
  case isStandardStream(path: String)
  /// The directory of `path` takes no new file (`errno` when one was tried).
  case directoryRefuses(path: String, directory: String, errno: Int32)
  case writeFailed(path: String, errno: Int32)
  /// The file at `path` is not a flakelab JSON report, or not a whole one.
  case malformed(path: String, Malformation)

  /// What is wrong inside a report.
  package enum Malformation: Equatable {
    case notAReport
    case runWithoutNames
    case outcome(run: String)
    case replicate(run: String)
    /// The run's `iterations`, its outcomes and its replicates disagree.
    case countsDoNotAddUp(run: String)
    case testRunWithoutLayout(test: String)
    /// A test's finding (`tests[]`) lacks its test, framework or verdict, or names a value no lab wrote.
    case finding(test: String)
    case schedule
    /// The thread sanitizer's summary lacks its time or processes.
    case sanitizer
    case shard(Shard.Invalid)
    /// A number of seconds no run could have lasted: negative, or past ``JSONValue/mostSeconds``.
    case seconds(field: String)
  }
}

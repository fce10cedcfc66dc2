import Foundation

/// One real `flakelab test` of two FlakeKinds tests (`blocksThread()`, whose one-second waits
/// fail it on one queue, and `stable()`), three passes under serial: its page, and its JSON
/// report saved beside it, from which `merge` renders the other answers. Run once per test run,
/// for the checks of its renderers, where each ran it again (15 s apiece).
enum BlockingAnswer {
  static let run = Result { () throws -> (page: String, report: String) in
    let listing = try Fixtures.flakeKindsBuild.get()
    guard listing.status == 0 else { throw Failure(description: listing.stderr) }
    let report = reportPath
    // Shared by the suites that read it, so removed when the test process ends.
    atexit { unlink(BlockingAnswer.reportPath) }
    let result = try Flakelab.run([
      "test", "--package-path", Fixtures.flakeKinds, "--skip-build", "--iterations", "3",
      "--executor", "serial", "--filter", "blocksThread|stable\\(\\)", "--format", "html", "--no-progress",
      "--output", report,
    ])
    guard result.status == 0 else { throw Failure(description: result.stderr) }
    return (result.stdout, report)
  }

  static let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent(
    "blocking-answer-\(getpid()).json"
  ).path

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }
}

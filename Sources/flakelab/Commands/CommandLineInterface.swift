import FlakeLab
import Foundation

/// The entry point: picks the subcommand, parses its arguments, runs it, and turns every way it
/// can end into one exit status. Bad input never ends in a trap or a stack trace.
@main
enum CommandLineInterface {
  static var commands: [CommandEntry] {
    [
      ListCommand.entry, RunCommand.entry, CompareCommand.entry, TestCommand.entry, CheckCommand.entry,
      PlanCommand.entry,
      ReplayCommand.entry, ExploreCommand.entry, MergeCommand.entry, WorkerCommand.entry,
    ]
  }

  static func main() {
    // The supervisor waits for its workers: an ignored SIGCHLD inherited from a parent would
    // make the kernel reap them unseen.
    signal(SIGCHLD, SIG_DFL)
    // A closed standard descriptor would be the number the next file gets, and a worker's
    // channel would end up as its standard input. Fill each with /dev/null opened read-only:
    // output to a closed stdout still fails, and says so.
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
      _ = open("/dev/null", O_RDONLY)
    }
    let arguments = Array(CommandLine.arguments.dropFirst())
    let command: any Command
    do {
      guard let parsed = try parse(arguments) else { exit(ExitStatus.success.rawValue) }
      command = parsed
    } catch {
      fail(error.message, status: .usage)
    }
    // The deterministic scheduler must be in place before the first task exists.
    if command.needsDeterministicScheduler { DeterministicScheduler.install() }
    // Scenarios and the serial executor need the main queue drained: run on the main actor and
    // hand the main thread to Dispatch, as an async `main` would (or to the scheduler). The task
    // gets the priority an async `main` gives its task on Linux, which is also the priority Swift
    // Testing runs tests at. Left to inherit the main thread's, it would run at `.high`, as
    // XCTest runs async tests, and a race such as isLoading.endpointYield fails about three times
    // as often under the global executor (the README's "A faithful worker").
    Task(priority: .medium) { @MainActor in
      do {
        let status = try await command.run()
        // A report that could not be written is not a success (`> /dev/full`, a closed pipe).
        if fflush(nil) != 0 {
          fail("could not write to standard output: \(String(cString: strerror(errno)))", status: .usage)
        }
        exit(status.rawValue)
      } catch let error as UsageError {
        fail(error.message, status: .usage)
      } catch {
        fail("internal error: \(error)", status: .internalError)
      }
    }
    if DeterministicScheduler.isInstalled { DeterministicScheduler.runMainLoop() }
    dispatchMain()
  }

  /// The command to run, or nil when help was printed instead.
  static func parse(_ arguments: [String]) throws(UsageError) -> (any Command)? {
    guard let name = arguments.first, !["-h", "--help", "help"].contains(name) else {
      if arguments.count > 1 {
        guard let topic = commands.first(where: { $0.name == arguments[1] }), arguments.count == 2 else {
          throw UsageError(
            "no help on '\(ValueParsers.shown(arguments.dropFirst().joined(separator: " ")))'"
              + Suggestion.didYouMean(arguments[1], among: commands.filter { !$0.isHidden }.map(\.name))
              + " (see 'flakelab --help')")
        }
        print(topic.helpText, terminator: "")
      } else {
        print(overview, terminator: "")
      }
      return nil
    }
    if name == "--version" {
      print(Report.labVersion)
      return nil
    }
    guard let type = commands.first(where: { $0.name == name }) else {
      throw UsageError(
        "unknown command '\(ValueParsers.shown(name))'"
          + Suggestion.didYouMean(name, among: commands.filter { !$0.isHidden }.map(\.name))
          + " (see 'flakelab --help')")
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
      print(type.helpText, terminator: "")
      return nil
    }
    let parsed = try ParsedArguments(rest, options: type.options, command: name)
    return try type.make(parsed)
  }

  static var overview: String {
    let visible = commands.filter { !$0.isHidden }
    let width = visible.map(\.name.count).max() ?? 0
    return """
      OVERVIEW: A test-flakiness lab for Swift concurrency: runs classic async tests thousands of
      times under different executors and reports how often, and how, they fail.

      USAGE: flakelab <command> [options]

      COMMANDS:
      \(visible.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.abstract)" }.joined(separator: "\n"))

      See 'flakelab <command> --help' for a command's options, 'flakelab --version' for the version.

      """
  }

  /// Ends with `message` as one line on stderr, however the message came to be: a value the
  /// user typed with a newline in it, or a very long one, still gives one readable line.
  static func fail(_ message: String, status: ExitStatus) -> Never {
    let line = message.replacingOccurrences(of: "\n", with: " ")
    printError("flakelab: " + (line.count > 500 ? line.prefix(500) + "…" : line))
    exit(status.rawValue)
  }
}
